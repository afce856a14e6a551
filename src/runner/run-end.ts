/**
 * The watchdog on a run's end: once every test of the run has ended, Playwright gets a bounded time
 * to close its workers (their receivers, browsers and fixtures). Past it, the run ends anyway, with
 * its results and a note of what was still open, whatever the target keeps sending to the run.
 */
import { receiversNotClosed } from '../checks/audit.ts';
import { readLedger } from '../harness/ledger.ts';

/** After the last test, what the run waits for Playwright's end beyond the longest notification wait. */
export const runEndGraceMs = 10_000;

export interface RunEndWatchdog {
  /** A test ended: the last of them arms the watchdog. */
  testEnded(): void;
  /** Playwright ended by itself: the watchdog has nothing left to do. */
  runEnded(): void;
}

/** Calls forceEnd when graceMs pass after the last of expectedTests ended and Playwright has not ended. */
export function watchRunEnd(expectedTests: number, graceMs: number, forceEnd: () => void): RunEndWatchdog {
  let ended = 0;
  let timer: NodeJS.Timeout | null = null;
  return {
    testEnded() {
      ended++;
      if (ended === expectedTests) timer = setTimeout(forceEnd, graceMs);
    },
    runEnded() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/** What the report says of a forced end: how long the run waited, and what its ledgers say still listened. */
export function describeForcedEnd(graceMs: number, runFolders: readonly string[]): string {
  const open = runFolders.flatMap((dir) => receiversNotClosed(readLedger(dir)).map(({ url, pid }) => `the receiver ${url} (worker ${pid})`));
  const stillOpen = [...new Set(open), "Playwright's workers, which had not stopped"].join(', ');
  return `the run's end was forced ${graceMs / 1000} s after its last test ended: still open: ${stillOpen}. Every test had ended; the verdict is theirs`;
}
