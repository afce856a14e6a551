/**
 * The webhook is one setting of the whole target: a test that sets it holds this lock, so that tests
 * in other workers do not move it under each other (a file lock in the run's folder, one per run).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunConfig } from '../src/core/run-config.ts';

/** Longer than any holder keeps it: past this, the lock is taken over anyway. */
const staleAfterMs = 45_000;

/** Whether the worker that took the lock has gone (an interrupted run leaves its lock behind). */
function holderGone(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return false; // just taken: its holder is writing its pid
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

const lockOf = (run: RunConfig) => join(run.outDir, 'webhook.lock');

/** Takes the lock if it is free (or left behind by a holder that has gone): whether it did. */
function taken(lock: string, giveUpAt: number): boolean {
  try {
    mkdirSync(lock, { recursive: false });
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (Date.now() > giveUpAt || holderGone(lock)) {
      rmSync(lock, { recursive: true, force: true });
      return taken(lock, Infinity);
    }
    return false;
  }
}

async function held<T>(lock: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export async function holdingWebhook<T>(run: RunConfig, body: () => Promise<T>): Promise<T> {
  const lock = lockOf(run);
  const giveUpAt = Date.now() + staleAfterMs;
  while (!taken(lock, giveUpAt)) await sleep(100);
  return held(lock, body);
}

/** Runs the body holding the lock if no one holds it now; else nothing. */
export async function ifWebhookFree(run: RunConfig, body: () => Promise<void>): Promise<void> {
  const lock = lockOf(run);
  if (taken(lock, Date.now() + staleAfterMs)) await held(lock, body);
}
