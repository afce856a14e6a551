/**
 * The webhook is one setting of the whole target: a test that sets it holds this lock, so that tests
 * in other workers do not move it under each other (a file lock in the run's folder, one per run).
 * Waiters take it in the order they came (a file each beside it, gone once they took it): the model's sequences, which
 * hand it on to each other at once, would otherwise keep it from a test whose worker polls for it.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunConfig } from '../src/core/run-config.ts';

/** Longer than any holder keeps it: past this, the lock is taken over anyway. */
const staleAfterMs = 45_000;
const pollMs = 25;

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Whether the worker that took the lock has gone (an interrupted run leaves its lock behind). */
function holderGone(lock: string): boolean {
  try {
    return gone(Number(readFileSync(join(lock, 'pid'), 'utf8')));
  } catch {
    return false; // just taken: its holder is writing its pid
  }
}

const lockOf = (run: RunConfig) => join(run.outDir, 'webhook.lock');
const ticketPrefix = 'webhook.waiting-';

/** Whether the lock was taken longer ago than any holder keeps it. */
function heldTooLong(lock: string): boolean {
  try {
    return Date.now() - statSync(lock).mtimeMs > staleAfterMs;
  } catch {
    return false;
  }
}

/** Takes the lock if it is free (or left behind by a holder that has gone): whether it did. */
function taken(lock: string): boolean {
  if (heldTooLong(lock) || holderGone(lock)) rmSync(lock, { recursive: true, force: true });
  try {
    mkdirSync(lock, { recursive: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  writeFileSync(join(lock, 'pid'), String(process.pid));
  return true;
}

async function held<T>(lock: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

let ticketsTaken = 0;

/** A place in the queue: a file whose name sorts after those of the waiters that came before. */
function ticketIn(dir: string): string {
  const ticket = ticketPrefix + [Date.now(), process.pid, ticketsTaken++].map((part) => String(part).padStart(15, '0')).join('-');
  writeFileSync(join(dir, ticket), '');
  return ticket;
}

/** The ticket of the first waiter still there; those of workers that have gone are thrown away. */
function firstInQueue(dir: string): string | undefined {
  const tickets = readdirSync(dir)
    .filter((name) => name.startsWith(ticketPrefix))
    .sort();
  for (const ticket of tickets) {
    if (!gone(Number(ticket.slice(ticketPrefix.length).split('-')[1]))) return ticket;
    rmSync(join(dir, ticket), { force: true });
  }
  return undefined;
}

export async function holdingWebhook<T>(run: RunConfig, body: () => Promise<T>): Promise<T> {
  const lock = lockOf(run);
  const ticket = ticketIn(run.outDir);
  try {
    while (!(firstInQueue(run.outDir) === ticket && taken(lock))) await sleep(pollMs);
  } finally {
    rmSync(join(run.outDir, ticket), { force: true });
  }
  return held(lock, body);
}
