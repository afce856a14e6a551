/**
 * Where a run's time goes, for `npm run bench`: a Playwright reporter that writes when every test
 * started and how long it took (to the file the environment variable names, one JSON line each), and
 * the critical path of a run made of them: the longest chain of waits that no concurrency removes.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Set by the bench: the file the reporter appends to. The Playwright configs add the reporter only then. */
export const timingsEnv = 'CHECKOUT_CONFORMANCE_TIMINGS';

export interface TestTiming {
  project: string;
  title: string;
  /** Epoch milliseconds. */
  startedAt: number;
  durationMs: number;
  /** Playwright's index of the worker that ran it: a worker started anew takes a new one. */
  workerIndex: number;
}

export default class TimingsReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    const file = process.env[timingsEnv];
    if (!file) return;
    const timing: TestTiming = {
      project: test.parent.project()?.name ?? '',
      // The file and describes too: the catalogue declares each test once per target, in a describe named after it.
      title: test.titlePath().slice(2).join(' › '),
      startedAt: result.startTime.getTime(),
      durationMs: result.duration,
      workerIndex: result.workerIndex,
    };
    appendFileSync(file, `${JSON.stringify(timing)}\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}

export function readTimings(file: string): TestTiming[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TestTiming);
}

export interface CriticalPath {
  /** From the command's start to the first test's: the target, the preflight, Playwright and its first worker. */
  startupMs: number;
  /** The longest chain that cannot be split: one test. */
  chainMs: number;
  chain: string;
  /** From the last test's end to the command's end: the report. */
  windDownMs: number;
  totalMs: number;
}

/** The critical path of a command that ran from startedAt to endedAt: its longest test, with what came before and after. */
export function criticalPath(timings: TestTiming[], startedAt: number, endedAt: number): CriticalPath | null {
  if (timings.length === 0) return null;
  const longest = timings.reduce((longest, timing) => (timing.durationMs > longest.durationMs ? timing : longest));
  const startupMs = Math.min(...timings.map((timing) => timing.startedAt)) - startedAt;
  const windDownMs = endedAt - Math.max(...timings.map((timing) => timing.startedAt + timing.durationMs));
  const chain = `${longest.project ? `[${longest.project}] ` : ''}${longest.title}`;
  return { startupMs, chainMs: longest.durationMs, chain, windDownMs, totalMs: startupMs + longest.durationMs + windDownMs };
}
