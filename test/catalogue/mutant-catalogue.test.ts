/**
 * End to end, the whole mutant catalogue as `npm run mutants` runs it: every candidate once, on this
 * turn's seed (mutants/run.ts: rotationOf), a mutant's tests stopping at the first that fails its
 * clause except on the turn that checks it fully; the real specs with --strict, against the real
 * sandbox behind the mutant proxy (one Playwright run; `npm run bench` measures it). `npm test`
 * runs it after the other tests, alone: it keeps every core busy for minutes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogueAsTested, formatMatrix, rotationOf, runCandidates } from '../../mutants/run.ts';

test('every mutant is killed by its own clause alone, and every benign variant is conformant', { timeout: 65 * 60_000 }, async () => {
  const turn = rotationOf();
  const outcomes = await runCandidates(catalogueAsTested(turn));
  const matrix = `turn ${turn} of the rotation (npm run mutants -- --rotation ${turn} replays it)\n${formatMatrix(outcomes)}`;
  assert.ok(
    outcomes.every((outcome) => outcome.asExpected),
    matrix,
  );
});
