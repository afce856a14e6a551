/** The check that a request breaking a stated rule is refused (src/checks/refusal.ts). */
import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRefused } from '../../src/checks/index.ts';
import * as checksOfFile from '../../src/checks/refusal.ts';
import { exchange, clausesOf, checkCase, created, testCheckCases, type CheckCase } from '../support/check-cases.ts';

test('a refusal is any 4xx with any body; 2xx, 3xx and 5xx are problems', () => {
  const refusal = (status: number, body: unknown) =>
    checkRefused(exchange('POST', '/checkouts', body, {}, status), { clause: 'CHK-9', broken: 'no action redirect' });
  for (const [status, body] of [
    [400, { error: 'bad' }],
    [422, 'Unprocessable'],
    [409, null],
  ] as const)
    assert.deepEqual(refusal(status, body), []);
  for (const status of [200, 201, 302, 500]) assert.deepEqual(clausesOf(refusal(status, {})), ['CHK-9']);
});

const refusedAs = (clause: ClauseId) => ({ clause, broken: 'a broken rule' });

const checkCases: CheckCase[] = [
  checkCase('CHK-9', checkRefused, 'a 201', { fails: [created({}, 201), refusedAs('CHK-9')] }),
  checkCase('CHK-10', checkRefused, 'a 200', { fails: [created({}), refusedAs('CHK-10')] }),
  checkCase('CHK-11', checkRefused, 'a 500', { fails: [created({}, 500), refusedAs('CHK-11')] }),
  checkCase('REF-9', checkRefused, 'a 200', { fails: [exchange('POST', '/payments/references', {}, {}, 200), refusedAs('REF-9')] }),
];

testCheckCases(checksOfFile, checkCases);
