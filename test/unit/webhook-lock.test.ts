/** The run's webhook lock: one holder at a time, taken in the order the waiters came, and a watch that only those who point the webhook at the run may share. */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { tempDir } from '../support/cli.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunConfig } from '../../src/core/run-config.ts';
import { endWatch, holdingWebhook, startWatch, watchedAddress } from '../../src/harness/webhook-lock.ts';

test('a waiter gets the lock before one that asks for it as the holder gives it back, and the run folder is left as it was', async (t) => {
  const outDir = tempDir(t, 'webhook-lock-');
  const run = { outDir } as RunConfig;
  const order: string[] = [];
  let waiting: Promise<void> = Promise.resolve();
  let asksAgain: Promise<void> = Promise.resolve();
  await holdingWebhook(run, async () => {
    waiting = holdingWebhook(run, async () => void order.push('waited'));
    await sleep(100);
    assert.equal(order.length, 0, 'taken while held');
    // Asked as the holder gives it back, as a model's next sequence does.
    asksAgain = sleep(0).then(() => holdingWebhook(run, async () => void order.push('asked as it was given back')));
  });
  await Promise.all([waiting, asksAgain]);
  assert.deepEqual(order, ['waited', 'asked as it was given back']);
  assert.deepEqual(readdirSync(outDir), []);
});

test('while a watch is on, those who point the webhook at the run take turns, and those who need it unset wait for the watch to end', async (t) => {
  const outDir = tempDir(t, 'webhook-lock-');
  const run = { outDir } as RunConfig;
  const order: string[] = [];
  // Announced first, with no address yet: those who need the webhook unset wait from then on.
  startWatch(run, null);
  const alone = holdingWebhook(run, async () => void order.push('alone'));
  await sleep(50);
  assert.equal(watchedAddress(run), null);
  await holdingWebhook(run, async () => startWatch(run, 'http://127.0.0.1:1/watched'), 'pointing');
  assert.equal(watchedAddress(run), 'http://127.0.0.1:1/watched');
  await holdingWebhook(run, async () => void order.push('pointing'), 'pointing');
  await sleep(100);
  assert.deepEqual(order, ['pointing']);
  await holdingWebhook(run, async () => endWatch(run), 'pointing');
  await alone;
  assert.deepEqual(order, ['pointing', 'alone']);
  assert.equal(watchedAddress(run), null);
  assert.deepEqual(readdirSync(outDir), []);
});
