/**
 * Which input classes of a clause (src/generators/classes.ts) the run exercised, and why any was not: the
 * target refused it where it may, no helper to reach it, it never came, or its test did not run. The
 * names of a clause's classes come from the clause index, generated from the classes, so that the
 * report loads no arbitrary.
 */
import { loadClauseIndex } from './clause-index.ts';
import type { RawTest } from './raw-results.ts';

export interface ClauseClasses {
  exercised: string[];
  skipped: { name: string; why: string }[];
}

export function classesOf(clauseId: string, tests: readonly RawTest[]): ClauseClasses {
  const bearing = tests.filter((test) => test.clauseIds.includes(clauseId));
  if (bearing.length === 0) return { exercised: [], skipped: [] };
  const exercised = new Set<string>();
  const why = new Map<string, string>();
  for (const outcome of tests.flatMap((test) => test.classes ?? []).filter((outcome) => outcome.clause === clauseId)) {
    if (outcome.skipped === null) exercised.add(outcome.name);
    else if (!why.has(outcome.name)) why.set(outcome.name, outcome.skipped);
  }
  const notReached = bearing.find((test) => test.status !== 'passed' && test.reason)?.reason?.split('\n')[0];
  for (const name of loadClauseIndex().get(clauseId)?.inputClasses ?? []) {
    if (!exercised.has(name) && !why.has(name)) why.set(name, `not run: ${notReached ?? 'no test reached it'}`);
  }
  return {
    exercised: [...exercised],
    skipped: [...why].filter(([name]) => !exercised.has(name)).map(([name, reason]) => ({ name, why: reason })),
  };
}

/** "43 of 45 exercised" (empty where the clause has no classes). */
export function describeClassCount(classes: ClauseClasses): string {
  const total = classes.exercised.length + classes.skipped.length;
  return total === 0 ? '' : `${classes.exercised.length} of ${total} input classes exercised`;
}
