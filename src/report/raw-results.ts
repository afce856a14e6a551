/** What the Playwright reporter writes and the report is built from: one record per test. */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Problem } from '../checks/problem.ts';
import type { ClassOutcome, Evidence, Observation, PropertyRun } from '../core/evidence.ts';
import type { AskedToWait } from '../core/transport-options.ts';

export const rawResultsFile = 'raw-results.json';
/**
 * Each test's record, one JSON line as it ends: what a run stopped from outside (SIGTERM kills
 * Playwright before its end) still has. raw-results.json replaces it when the runner ends.
 */
export const rawJournalFile = 'raw-results.partial.jsonl';

export interface RawTest {
  /** Describe blocks and test title, joined with " › ". */
  title: string;
  /** Spec file, relative to the package root. */
  file: string;
  /** Clause IDs of the test's tags (@CHK-5 → CHK-5): the clauses the test can verify. */
  clauseIds: string[];
  /** It reads back what other tests created (the final audit): it runs beside any tests a candidate is checked on. */
  readsBack?: boolean;
  /** The departures the test found, each failing the clause it names, tagged or not. */
  problems: Problem[];
  /** Whether the test reached its judgement (api.expectNoProblems), rather than stopping on a step it needs. */
  judged: boolean;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped or how it failed; null when it passed. */
  reason: string | null;
  evidence: Evidence[];
  observations: Observation[];
  property: PropertyRun | null;
  /** The input classes the test exercised or skipped (absent in results written before classes were recorded). */
  classes?: ClassOutcome[];
  /** The test's requests the target asked to wait (src/core/transport.ts), where it asked any. */
  askedToWait?: AskedToWait;
  durationMs: number;
}

export interface RawResults {
  /** Playwright's overall status: passed, failed, timedout or interrupted. */
  status: string;
  /** Errors outside any test (a spec that does not load, a failing global setup). */
  errors: string[];
  tests: RawTest[];
  /** Where the run had to be ended after its last test (src/runner/run-end.ts): what was still open. */
  forcedEnd?: string;
}

/** "@CHK-5" → "CHK-5"; tags that do not name a clause are left out. */
export function clauseIdsOf(tags: readonly string[]): string[] {
  return tags.map((tag) => tag.replace(/^@/, '')).filter((tag) => /^[A-Z]+-\d+$/.test(tag));
}

/** Clears a folder's raw results before a run. */
export function clearRawResults(dir: string): void {
  for (const file of [rawResultsFile, rawJournalFile]) rmSync(join(dir, file), { force: true });
}

/**
 * The raw results in a folder: the runner's, else the tests that ended before it was stopped
 * (status interrupted; a line cut off by the stop is left out), else null.
 */
export function readRawResults(dir: string): RawResults | null {
  const complete = join(dir, rawResultsFile);
  if (existsSync(complete)) return JSON.parse(readFileSync(complete, 'utf8')) as RawResults;
  const journal = join(dir, rawJournalFile);
  if (!existsSync(journal)) return null;
  return { status: 'interrupted', errors: [], tests: readJsonLines<RawTest>(journal) };
}

/** The values of a file of JSON lines, one each, written by processes that may have been stopped mid-line: a line cut off is left out. */
export function readJsonLines<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return line.trim() ? [JSON.parse(line) as T] : [];
      } catch {
        return [];
      }
    });
}
