/**
 * The catalogue's selection of a candidate's tests is sound. A mutant's (the tests of its clause that
 * reach it, stopping at the first that fails it) kill it on the same clause as the whole suite does;
 * a benign variant's (the tests that reach it, the others taken from the sandbox's run) give the
 * verdict the whole suite gives. A sample that turns with the commit, each candidate run both ways.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { benignSample, formatMatrix, rotationOf, runCandidates, seedSample } from '../../mutants/run.ts';

test('the selected tests judge a sample of candidates as the whole suite does', { timeout: 900_000 }, async () => {
  const turn = rotationOf();
  const sample = [...seedSample(turn + 2), ...benignSample(turn)];
  const selected = sample.map((candidate) => ({ ...candidate, name: `${candidate.name}:selected`, fullCheck: false }));
  const whole = sample.map((candidate) => ({ ...candidate, name: `${candidate.name}:whole-suite`, fullCheck: true, everyTest: true }));
  const outcomes = await runCandidates([...selected, ...whole]);
  const matrix = `turn ${turn} of the rotation\n${formatMatrix(outcomes)}`;
  const outcomeOf = (name: string) => outcomes.find((outcome) => outcome.name === name)!;
  for (const { name, clause } of sample) {
    const [bySelection, byWholeSuite] = [outcomeOf(`${name}:selected`), outcomeOf(`${name}:whole-suite`)];
    if (clause) {
      assert.ok(byWholeSuite.failedClauses.includes(clause), `the whole suite kills ${name} on ${clause}:\n${matrix}`);
      assert.ok(bySelection.asExpected, `its selected tests kill ${name} on ${clause} alone:\n${matrix}`);
    } else {
      assert.equal(byWholeSuite.verdict, 'conformant', `the whole suite passes ${name}:\n${matrix}`);
      assert.ok(bySelection.asExpected, `the tests that reach ${name} pass it too:\n${matrix}`);
    }
  }
});
