/** Which candidates a catalogue run takes, on which seed, how fully: the rotation, --changed and the seed sample. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generatedNames } from '../../mutants/catalogue.ts';
import { changedCandidates, type ChangedInputs } from '../../mutants/changed.ts';
import { candidates, catalogueSeeds, rotationEnv, rotationOf, rotationTurns, seedSample } from '../../mutants/rotation.ts';
import type { ClauseIndexEntry } from '../../src/report/clause-index.ts';

test('over five consecutive turns every candidate written by hand meets every seed once, every such mutant is fully checked once (a benign variant over the five), and every generated mutant comes on one turn, fully checked', () => {
  const turns = Array.from({ length: rotationTurns }, (_, turn) => candidates(turn));
  const names = new Set(turns.flat().map((candidate) => candidate.name));
  for (const name of names) {
    const mine = turns.flatMap((list) => list.filter((candidate) => candidate.name === name));
    if (generatedNames.has(name)) {
      assert.equal(mine.length, 1, name);
      assert.ok(mine[0].fullCheck, name);
      continue;
    }
    assert.deepEqual([...new Set(mine.map((each) => each.seed))].sort(), [...catalogueSeeds].sort(), name);
    assert.equal(mine.filter((each) => each.fullCheck).length, mine[0].clause === null ? 0 : 1, name);
  }
  assert.deepEqual(
    [...generatedNames].filter((name) => !names.has(name)),
    [],
  );
  assert.equal(candidates(0, { everyGenerated: true }).filter((candidate) => generatedNames.has(candidate.name)).length, generatedNames.size);
});

test('the turn comes from the environment where given, else from the commit, and a bad one is refused', () => {
  assert.equal(rotationOf({ [rotationEnv]: '7' }), 7 % rotationTurns);
  assert.throws(() => rotationOf({ [rotationEnv]: 'soon' }), /takes a turn/);
  const fromCommit = rotationOf({});
  assert.ok(Number.isInteger(fromCommit) && fromCommit >= 0 && fromCommit < rotationTurns);
  assert.equal(rotationOf({}), fromCommit);
});

test('the seed sample is a few distinct mutants, another few on the next turn', () => {
  const [first, second] = [seedSample(0), seedSample(1)];
  for (const sample of [first, second]) {
    assert.equal(new Set(sample.map((candidate) => candidate.name)).size, sample.length);
    assert.ok(sample.every((candidate) => candidate.clause !== null));
  }
  assert.notDeepEqual(
    first.map((candidate) => candidate.name),
    second.map((candidate) => candidate.name),
  );
});

const entry = (id: string, parts: Partial<ClauseIndexEntry>): ClauseIndexEntry => ({
  id,
  checks: [],
  schemaKeywords: [],
  tests: [],
  inputClasses: [],
  modelRules: [],
  observe: false,
  mutants: [],
  alsoBrokenBy: [],
  benignVariants: [],
  sites: {},
  ...parts,
});

const list = [
  { name: 'ref-mutant', clause: 'REF-2' },
  { name: 'chk-mutant', clause: 'CHK-5' },
  { name: 'benign-variant', clause: null },
];
const inputs = (changedFiles: string[]): ChangedInputs => ({
  changedFiles,
  index: [
    entry('REF-2', { tests: ['specs/references.spec.ts: payment references › a reference'], checks: ['checkReference'] }),
    entry('CHK-5', { schemaKeywords: ['checkout-response.schema.json#/properties/data'] }),
  ],
  sources: new Map([
    ['src/checks/references.ts', 'export function checkReference() {}'],
    ['mutants/references.ts', "name: 'ref-mutant'"],
    ['mutants/benign.ts', "name: 'benign-variant'"],
  ]),
});
const names = (changedFiles: string[]) => changedCandidates(list, inputs(changedFiles)).map((candidate) => candidate.name);

test('--changed reruns the mutants of the clauses a spec, a check or a schema reaches, and the benign variants', () => {
  assert.deepEqual(names(['specs/references.spec.ts']), ['ref-mutant', 'benign-variant']);
  assert.deepEqual(names(['src/checks/references.ts']), ['ref-mutant', 'benign-variant']);
  assert.deepEqual(names(['schemas/checkout-response.schema.json']), ['chk-mutant', 'benign-variant']);
});

test('--changed reruns a candidate whose own file changed, everything for a file it cannot map, nothing for documentation', () => {
  assert.deepEqual(names(['mutants/references.ts']), ['ref-mutant']);
  assert.deepEqual(names(['mutants/benign.ts']), ['benign-variant']);
  assert.deepEqual(names(['src/sandbox/store.ts']), ['ref-mutant', 'chk-mutant', 'benign-variant']);
  assert.deepEqual(names(['src/generators/values.ts']), ['ref-mutant', 'chk-mutant', 'benign-variant']);
  assert.deepEqual(names(['README.md', 'test/unit/model.test.ts']), []);
});
