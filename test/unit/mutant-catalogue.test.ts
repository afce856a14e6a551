/** The mutant catalogue: what each candidate is tied to, and how its seeds are named and compared. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clauses } from '../../src/core/clauses.ts';
import { benignVariants, mutants } from '../../mutants/catalogue.ts';
import { catalogueSeeds, onEverySeed, rotationTurns, turnsSlice, type Checked } from '../../mutants/rotation.ts';
import { seedDisagreements, type Outcome } from '../../mutants/outcome.ts';

describe('the catalogue', () => {
  test('names each candidate once', () => {
    const names = [...mutants, ...benignVariants].map((candidate) => candidate.name);
    assert.equal(new Set(names).size, names.length);
  });

  test('a mutant may disturb only other catalogue clauses, each named once', () => {
    const known = new Set(clauses().map((clause) => clause.id));
    for (const mutant of mutants) {
      const disturbs = mutant.disturbs ?? [];
      assert.equal(new Set(disturbs).size, disturbs.length, mutant.name);
      for (const id of disturbs) assert.ok(known.has(id) && id !== mutant.clause, `${mutant.name}: disturbs ${id}`);
    }
  });

  test('ties each mutant to one MUST or SHOULD clause and covers every one of them', () => {
    const testable = clauses()
      .filter((clause) => clause.level !== 'INFO')
      .map((clause) => clause.id);
    for (const mutant of mutants) assert.ok(testable.includes(mutant.clause), `${mutant.name}: ${mutant.clause} is not a MUST or SHOULD clause`);
    const covered = new Set(mutants.map((mutant) => mutant.clause));
    assert.deepEqual(
      testable.filter((id) => !covered.has(id)),
      [],
    );
  });

  test('gives every INFO clause a benign variant that uses its freedom', () => {
    const info = clauses()
      .filter((clause) => clause.level === 'INFO')
      .map((clause) => clause.id);
    for (const variant of benignVariants)
      assert.ok(!variant.freedom || info.includes(variant.freedom), `${variant.name}: ${variant.freedom} is not an INFO clause`);
    const used = new Set(benignVariants.map((variant) => variant.freedom));
    assert.deepEqual(
      info.filter((id) => !used.has(id)),
      [],
    );
  });
});

test('--all-seeds names each candidate once per seed, and a verdict or a failed clause that changes with the seed is a disagreement', () => {
  const list = onEverySeed([{ name: 'm', clause: 'REF-2', disturbs: [], transform: {} }]);
  assert.deepEqual(
    list.map(({ name, seed }) => [name, seed]),
    catalogueSeeds.map((seed) => [`m@${seed}`, seed]),
  );
  const outcome = (name: string, seed: number, failedClauses: string[], checked: Checked = 'every test'): Outcome => ({
    name: `${name}@${seed}`,
    clause: 'REF-2',
    seed,
    verdict: failedClauses.length > 0 ? 'non-conformant' : 'conformant',
    failedClauses,
    collateral: [],
    effects: 1,
    unreached: false,
    notRun: [],
    asExpected: failedClauses.includes('REF-2'),
    checked,
    problem: null,
    reportDir: null,
  });
  const steady = [1, 42].map((seed) => outcome('steady', seed, ['REF-2']));
  const flipping = [outcome('flipping', 1, ['REF-2']), outcome('flipping', 42, [])];
  const moved = [outcome('moved', 1, ['REF-2']), outcome('moved', 42, ['REF-2', 'REF-5'])];
  // Stopped at the proof, what else failed by then is a matter of timing: only its own clause counts.
  const stopped = [outcome('stopped', 1, ['REF-2'], 'to the first kill'), outcome('stopped', 42, ['REF-2', 'REF-5'], 'to the first kill')];
  const stoppedFlipping = [outcome('stopped-flipping', 1, ['REF-2'], 'to the first kill'), outcome('stopped-flipping', 42, ['REF-5'], 'to the first kill')];
  assert.deepEqual(seedDisagreements([...steady, ...flipping, ...moved, ...stopped, ...stoppedFlipping]), [
    'flipping: seed 1 non-conformant (REF-2); seed 42 conformant (no clause failed)',
    'moved: seed 1 non-conformant (REF-2); seed 42 non-conformant (REF-2 REF-5)',
    'stopped-flipping: seed 1 non-conformant (REF-2 failed); seed 42 non-conformant (REF-2 held)',
  ]);
});

test("a benign variant's turn runs a fifth of its tests, another each turn, each test on the same turn whatever else it reaches, one known to reach it among them", () => {
  const tests = Array.from({ length: 60 }, (_, index) => `t${index}`);
  const self = (test: string) => test;
  const slices = Array.from({ length: rotationTurns }, (_, turn) => turnsSlice('variant', tests, turn, self));
  assert.deepEqual(slices.flat().sort(), [...tests].sort());
  assert.ok(slices.every((slice) => slice.length > 0 && slice.length < tests.length / 2));
  const fewer = tests.slice(0, 40);
  for (let turn = 0; turn < rotationTurns; turn++) {
    assert.deepEqual(
      turnsSlice('variant', fewer, turn, self),
      slices[turn].filter((test) => fewer.includes(test)),
    );
    const known = (test: string) => test === 't7';
    assert.ok(turnsSlice('variant', tests, turn, self, known).includes('t7'));
    const fewKnown = (test: string) => ['t3', 't30', 't59'].includes(test);
    assert.ok(
      ['t3', 't30', 't59'].every((test) => turnsSlice('variant', tests, turn, self, fewKnown).includes(test)),
      'every one of few known tests runs',
    );
    const manyKnown = (test: string) => Number(test.slice(1)) < 30;
    assert.ok(turnsSlice('variant', tests, turn, self, manyKnown).length < 30, 'a fifth of many known tests runs');
    assert.ok(turnsSlice('variant', ['only', 'two'], turn, self).length >= 1);
  }
  assert.deepEqual(turnsSlice('variant', [], 3, self), []);
});

test('one test falls to another turn for each benign variant: no turn runs the longest test of every variant', () => {
  const variants = Array.from({ length: 50 }, (_, index) => `variant-${index}`);
  const turnsOfOneTest = variants.map((variant) =>
    Array.from({ length: rotationTurns }, (_, turn) => turn).find((turn) =>
      turnsSlice(variant, ['long', ...Array.from({ length: 20 }, (_, index) => `t${index}`)], turn, (test) => test).includes('long'),
    ),
  );
  for (let turn = 0; turn < rotationTurns; turn++) {
    const share = turnsOfOneTest.filter((found) => found === turn).length;
    assert.ok(share > 0 && share < variants.length / 2, `turn ${turn} runs the test for ${share} of ${variants.length} variants`);
  }
});
