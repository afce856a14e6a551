/** The run's webhook lock: one holder at a time, taken in the order the waiters came. */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunConfig } from '../../src/core/run-config.ts';
import { holdingWebhook } from '../../specs/webhook-lock.ts';

test('a waiter gets the lock before one that asks for it as the holder gives it back, and the run folder is left as it was', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'webhook-lock-'));
  const run = { outDir } as RunConfig;
  try {
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
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});
