/**
 * The catalogue's selection of a mutant's tests is sound: the tests of its clause, stopping at the
 * first that fails it, kill it on the same clause as the whole suite does. A sample that turns with
 * the commit, each mutant run both ways.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMatrix, rotationOf, runCandidates, seedSample } from '../../mutants/run.ts';

test('the selected tests kill a sample of mutants on the clause the whole suite kills them on', { timeout: 900_000 }, async () => {
  const turn = rotationOf();
  const sample = seedSample(turn + 2);
  const selected = sample.map((candidate) => ({ ...candidate, name: `${candidate.name}:selected`, fullCheck: false }));
  const whole = sample.map((candidate) => ({ ...candidate, name: `${candidate.name}:whole-suite`, fullCheck: true, everyTest: true }));
  const outcomes = await runCandidates([...selected, ...whole]);
  const matrix = `turn ${turn} of the rotation\n${formatMatrix(outcomes)}`;
  const outcomeOf = (name: string) => outcomes.find((outcome) => outcome.name === name)!;
  for (const { name, clause } of sample) {
    const [bySelection, byWholeSuite] = [outcomeOf(`${name}:selected`), outcomeOf(`${name}:whole-suite`)];
    assert.ok(byWholeSuite.failedClauses.includes(clause!), `the whole suite kills ${name} on ${clause}:\n${matrix}`);
    assert.ok(bySelection.asExpected, `its selected tests kill ${name} on ${clause} alone:\n${matrix}`);
  }
});
