/**
 * The webhook is one setting of the whole target: a test that sets it holds this lock, so that tests
 * in other workers do not move it under each other (a file lock in the run's folder, one per run).
 * Waiters take it in the order they came (a file each beside it, gone once they took it): the
 * model's sequences, which hand it on to each other at once, would otherwise keep it from a test
 * whose worker polls for it.
 *
 * A test that must hear nothing for a window (an unpaid reference's eventMs) needs only that the
 * webhook points at one of the run's receivers all that time: it keeps a watch on the webhook
 * instead of the lock. Meanwhile tests that point the webhook at the run's receivers take turns
 * with it and point it back at the watcher's address when done; the model's sequences, which start
 * with no webhook set, wait for the watch to end.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunConfig } from '../core/run-config.ts';
import { processGone } from '../core/processes.ts';

/** Longer than any holder keeps it: past this, the lock is taken over anyway. */
const staleAfterMs = 45_000;
const pollMs = 25;

/**
 * How a holder uses the webhook: `alone`, with no webhook set as its turn starts (the model's
 * sequences); `pointing`, at the run's receivers, beside a watch (the webhook specs).
 */
export type WebhookUse = 'alone' | 'pointing';

/** Whether the worker that took the lock has gone (an interrupted run leaves its lock behind). */
function holderGone(lock: string): boolean {
  try {
    return processGone(Number(readFileSync(join(lock, 'pid'), 'utf8')));
  } catch {
    return false; // just taken: its holder is writing its pid
  }
}

const lockOf = (run: RunConfig) => join(run.outDir, 'webhook.lock');
const watchOf = (run: RunConfig) => join(run.outDir, 'webhook.watch');
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

interface Watch {
  /** Where the watch keeps the webhook: none yet, from its announcement until the webhook was pointed. */
  address: string | null;
}

/** The watch on, while the worker that keeps it is still there. */
function watchOn(run: RunConfig): Watch | null {
  try {
    const { pid, address } = JSON.parse(readFileSync(watchOf(run), 'utf8')) as { pid: number; address: string | null };
    return processGone(pid) ? null : { address };
  } catch {
    return null;
  }
}

/** The address a watch keeps the webhook at, if one is on. */
export const watchedAddress = (run: RunConfig): string | null => watchOn(run)?.address ?? null;

/**
 * Starts a watch: announced (no address) as early as the watcher can, so that the model's sequences
 * wait from then on, then at the address the webhook was just pointed at (holding the lock, `pointing`).
 */
export function startWatch(run: RunConfig, address: string | null): void {
  writeFileSync(watchOf(run), JSON.stringify({ pid: process.pid, address }));
}

/** Ends the watch (holding the lock, `pointing`, before the webhook is removed; or, announced only, at once). */
export function endWatch(run: RunConfig): void {
  rmSync(watchOf(run), { force: true });
}

let ticketsTaken = 0;

/** A place in the queue: a file whose name sorts after those of the waiters that came before, and says how its waiter uses the webhook. */
function ticketIn(dir: string, use: WebhookUse): string {
  const ticket = `${ticketPrefix}${[Date.now(), process.pid, ticketsTaken++].map((part) => String(part).padStart(15, '0')).join('-')}-${use}`;
  writeFileSync(join(dir, ticket), '');
  return ticket;
}

/** The ticket of the first waiter still there that may take the lock now; those of workers that have gone are thrown away. */
function firstAdmitted(run: RunConfig): string | undefined {
  const tickets = readdirSync(run.outDir)
    .filter((name) => name.startsWith(ticketPrefix))
    .sort();
  const watched = watchOn(run) !== null;
  for (const ticket of tickets) {
    const [, pid, , use] = ticket.slice(ticketPrefix.length).split('-');
    if (processGone(Number(pid))) rmSync(join(run.outDir, ticket), { force: true });
    else if (use === 'pointing' || !watched) return ticket;
  }
  return undefined;
}

export async function holdingWebhook<T>(run: RunConfig, body: () => Promise<T>, use: WebhookUse = 'alone'): Promise<T> {
  const lock = lockOf(run);
  const ticket = ticketIn(run.outDir, use);
  try {
    while (!(firstAdmitted(run) === ticket && taken(lock))) await sleep(pollMs);
  } finally {
    rmSync(join(run.outDir, ticket), { force: true });
  }
  return held(lock, body);
}
