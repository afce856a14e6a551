/**
 * What the traffic showed, per operation (or stateful check) and clause, in the shape of a run's raw
 * results, so that the report is built by the run's own buildReport. Each (title, clause) becomes
 * one test; its evidence is the first exchanges that failed it, and its problems are bounded, so a
 * long observation does not grow without end.
 */
import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import type { Problem } from '../checks/problem.ts';
import type { Evidence, Observation } from '../core/evidence.ts';
import type { RawResults, RawTest } from '../report/raw-results.ts';
import type { Judged } from './judge.ts';

const maxProblems = 10;
const maxEvidence = 5;
const maxNotes = 20;

interface ClauseTally {
  title: string;
  clause: ClauseId;
  exchanges: number;
  problems: Problem[];
  moreProblems: number;
  evidence: Evidence[];
  notes: Map<string, Observation>;
}

export function createTally() {
  const tallies = new Map<string, ClauseTally>();

  const tallyOf = (title: string, clause: ClauseId): ClauseTally => {
    const key = `${title}\n${clause}`;
    let tally = tallies.get(key);
    if (!tally) tallies.set(key, (tally = { title, clause, exchanges: 0, problems: [], moreProblems: 0, evidence: [], notes: new Map() }));
    return tally;
  };

  return {
    add(judged: Judged): void {
      const clauses = new Set([...judged.clauses, ...judged.problems.map((problem) => problem.clause)]);
      for (const clause of clauses) {
        const tally = tallyOf(judged.title, clause);
        tally.exchanges++;
        const own = judged.problems.filter((problem) => problem.clause === clause);
        if (own.length === 0) continue;
        const room = maxProblems - tally.problems.length;
        tally.problems.push(...own.slice(0, Math.max(room, 0)));
        tally.moreProblems += Math.max(own.length - Math.max(room, 0), 0);
        if (tally.evidence.length < maxEvidence) {
          const note = own.map((problem) => problem.message).join('\n');
          tally.evidence.push(...judged.exchanges.map(({ request, response }) => ({ request, response, note })));
        }
      }
      for (const { clause, note, value } of judged.notes) {
        const tally = tallyOf(judged.title, clause);
        if (!tally.notes.has(note) && tally.notes.size < maxNotes) tally.notes.set(note, { note, value });
        tally.exchanges++;
      }
    },

    rawResults(): RawResults {
      const tests = [...tallies.values()].map((tally): RawTest => {
        const more: Problem[] = tally.moreProblems > 0 ? [{ clause: tally.clause, message: `and ${tally.moreProblems} more like these` }] : [];
        return {
          title: `observed traffic › ${tally.title} (${tally.exchanges} exchange${tally.exchanges === 1 ? '' : 's'})`,
          file: 'observed traffic',
          clauseIds: [tally.clause],
          problems: [...tally.problems, ...more],
          judged: true,
          status: tally.problems.length > 0 ? 'failed' : 'passed',
          reason: null,
          evidence: tally.evidence,
          observations: [...tally.notes.values()],
          property: null,
          durationMs: 0,
        };
      });
      return { status: 'passed', errors: [], tests };
    },
  };
}
