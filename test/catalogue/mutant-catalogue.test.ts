/**
 * End to end, the whole mutant catalogue: every mutant and every benign variant, the real specs with
 * --strict, against the real sandbox behind the mutant proxy, as `npm run mutants` runs them (one
 * Playwright run; `npm run bench` measures it). `npm test` runs it after the other tests, alone: it
 * keeps every core busy for minutes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { candidates, formatMatrix, runCandidates } from '../../mutants/run.ts';

test('every mutant is killed by its own clause alone and every benign variant is conformant', { timeout: 2_100_000 }, async () => {
  const outcomes = await runCandidates(candidates());
  assert.ok(
    outcomes.every((outcome) => outcome.asExpected),
    formatMatrix(outcomes),
  );
});
