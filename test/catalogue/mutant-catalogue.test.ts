/**
 * End to end, the whole mutant catalogue as `npm run mutants` runs it: every mutant on each of the
 * five seeds and every benign variant on one, the real specs with --strict, against the real
 * sandbox behind the mutant proxy (one Playwright run; `npm run bench` measures it). `npm test` runs
 * it after the other tests, alone: it keeps every core busy for many minutes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogueAsTested, formatMatrix, runCandidates, seedDisagreements } from '../../mutants/run.ts';

test(
  'every mutant is killed by its own clause alone on each of five seeds, failing the same clauses on each, and every benign variant is conformant',
  { timeout: 65 * 60_000 },
  async () => {
    const outcomes = await runCandidates(catalogueAsTested());
    const matrix = formatMatrix(outcomes);
    assert.ok(
      outcomes.every((outcome) => outcome.asExpected),
      matrix,
    );
    assert.deepEqual(seedDisagreements(outcomes), [], matrix);
  },
);
