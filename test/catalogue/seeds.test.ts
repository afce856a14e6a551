/**
 * The same target gets the same verdict on every seed: the input classes every run exercises decide
 * it, not the draws. The sandbox, the whole suite on each of the five seeds with 10 cases per
 * property; a variant whose references never start with 0 (the class that needs one is searched
 * for, and the search says it never came), on the clause of that class; and a sample of mutants
 * that turns with the commit (the catalogue runs each of them on one seed a turn).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  candidates,
  catalogueSeeds as seeds,
  formatMatrix,
  onEverySeed,
  outcomesByCandidate,
  rotationOf,
  runCandidates,
  seedDisagreements,
  seedSample,
  type Candidate,
} from '../../mutants/run.ts';

test(
  'five seeds give the same verdict on the sandbox, conformant, on a target that never shows a rare class, and on a sample of mutants',
  { timeout: 900_000 },
  async () => {
    const neverZero = candidates().find((candidate) => candidate.name === 'references-never-start-with-zero')!;
    const targets: Candidate[] = [
      { name: 'sandbox', clause: null, disturbs: [], transform: {} },
      { ...neverZero, clause: 'REF-2' },
    ];
    const turn = rotationOf();
    const sample = seedSample(turn).map((candidate) => ({ ...candidate, fullCheck: true }));
    // Every test of the sandbox, and of a mutant's clause, on every seed: not only those that reach it on one.
    const outcomes = await runCandidates(onEverySeed([...targets, ...sample]), { byReach: false });
    const matrix = `turn ${turn} of the rotation\n${formatMatrix(outcomes)}`;
    assert.deepEqual(seedDisagreements(outcomes), [], matrix);
    const byCandidate = outcomesByCandidate(outcomes);
    for (const target of targets) {
      const mine = byCandidate.get(target.name) ?? [];
      assert.equal(mine.length, seeds.length, `${target.name} ran on every seed:\n${matrix}`);
      assert.ok(
        mine.every((outcome) => outcome.verdict === 'conformant'),
        `${target.name}:\n${matrix}`,
      );
    }
    for (const mutant of sample) {
      const mine = byCandidate.get(mutant.name) ?? [];
      assert.equal(mine.length, seeds.length, `${mutant.name} ran on every seed:\n${matrix}`);
      assert.ok(
        mine.every((outcome) => outcome.asExpected),
        `${mutant.name}:\n${matrix}`,
      );
    }
  },
);
