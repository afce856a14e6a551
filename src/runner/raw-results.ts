/** What the Playwright reporter writes and the report is built from: one record per test. */
import type { Problem } from '../checks/problem.ts';
import type { Evidence, Observation, PropertyRun } from '../evidence.ts';

export const rawResultsFile = 'raw-results.json';

export interface RawTest {
  /** Describe blocks and test title, joined with " › ". */
  title: string;
  /** Spec file, relative to the package root. */
  file: string;
  /** Clause IDs of the test's tags (@CHK-5 → CHK-5): the clauses the test can verify. */
  clauseIds: string[];
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
  durationMs: number;
}

export interface RawResults {
  /** Playwright's overall status: passed, failed, timedout or interrupted. */
  status: string;
  /** Errors outside any test (a spec that does not load, a failing global setup). */
  errors: string[];
  tests: RawTest[];
}

/** "@CHK-5" → "CHK-5"; tags that do not name a clause are left out. */
export function clauseIdsOf(tags: readonly string[]): string[] {
  return tags.map((tag) => tag.replace(/^@/, '')).filter((tag) => /^[A-Z]+-\d+$/.test(tag));
}
