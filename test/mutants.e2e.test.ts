/**
 * End to end, a documented subset of the mutant catalogue: the real command line, with --strict,
 * against the real sandbox behind the mutant proxy. One mutant of each kind of transform
 * (request, response, redirect, notification, stored list) and three benign variants that touch
 * every answer. The full catalogue is `npm run mutants`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { candidates, formatMatrix, runCandidates } from '../mutants/run.ts';

const subset = [
  'checkout-createdAt-with-T', // response body, CHK-3
  'embed-without-action-accepted', // request body, CHK-9 (SHOULD: fails only under --strict)
  'reference-ten-digits', // payment resource, REF-2
  'last4Digits-spelled-correctly', // stored-method list, PML-3
  'redirect-without-id', // redirect after payment, PAGE-3
  'callback-notification-dropped', // notification relay, EVT-1
  'extra-fields-everywhere',
  'upper-case-uuids',
  'offset-plus-one-hour',
];

test('a subset of mutants is killed and benign variants are conformant', { timeout: 900_000 }, async () => {
  const chosen = candidates().filter((candidate) => subset.includes(candidate.name));
  assert.equal(chosen.length, subset.length);
  const outcomes = await runCandidates(chosen);
  const matrix = formatMatrix(outcomes);
  assert.ok(outcomes.every((outcome) => outcome.asExpected), matrix);
});
