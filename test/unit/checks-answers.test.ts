/** The checks that judge one answer by itself (src/checks/answers.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPaymentAnswer, checkReferenceAnswer, classifyReference, judgeAnswer } from '../../src/checks/index.ts';
import * as checksOfFile from '../../src/checks/answers.ts';
import { payload, exchange, clausesOf, checkCase, published, changed, paymentAnswer, testCheckCases, type CheckCase } from '../support/check-cases.ts';

/** checkReferenceAnswer and checkPaymentAnswer, which judge one answer by itself (src/checks/answers.ts). */
function referenceAnswerCases(): CheckCase[] {
  const request = payload('reference-request--payment-multibanco--1');
  const sent = { sentAt: Date.parse(request.validDate.start) };
  const created = (body: unknown, status: number) => exchange('POST', '/payments/references', { success: status < 300 }, body, status);
  const read = (change: (body: ReturnType<typeof published.payment>) => void) => paymentAnswer(changed(published.payment(), change));
  return [
    checkCase('REF-1', checkReferenceAnswer, 'a valid reference refused', {
      passes: [created(request, 200), sent],
      fails: [created(request, 400), sent],
    }),
    checkCase('REF-9', checkReferenceAnswer, 'amount 0 accepted', { fails: [created({ ...request, amount: 0 }, 200), sent] }),
    checkCase('ENV-1', checkPaymentAnswer, 'success a string', {
      passes: [paymentAnswer(published.payment())],
      fails: [read((body) => (body.success = 'true'))],
    }),
    checkCase('REF-2', checkPaymentAnswer, 'a reference of 8 digits', { fails: [read((body) => (body.data.referenceDetails.reference = '02492617'))] }),
    checkCase('REF-3', checkPaymentAnswer, 'a confirmed payment without entity', { fails: [read((body) => delete body.data.referenceDetails.entity)] }),
    checkCase('REF-4', checkPaymentAnswer, 'updatedAt without offset', { fails: [read((body) => (body.data.updatedAt = '2022-03-09 14:45:56'))] }),
    checkCase('REF-5', checkPaymentAnswer, 'the amount a string', { fails: [read((body) => (body.data.amount = '100'))] }),
    checkCase('REF-6', checkPaymentAnswer, 'confirmed, updated before it was created', {
      fails: [read((body) => (body.data.updatedAt = '2000-01-01T00:00:00Z'))],
    }),
  ];
}

testCheckCases(checksOfFile, referenceAnswerCases());

test('classifyReference: a window over when sent, a body breaking a documented type and an amount past the everyday ones may be refused; a broken one names its rule', () => {
  const request = payload('reference-request--payment-multibanco--1');
  const end = Date.parse(request.validDate.end);
  assert.deepEqual(classifyReference(request, end - 1), { kind: 'owed' });
  assert.equal((classifyReference(request, end + 1) as { freedom?: string }).freedom, 'REF-10');
  assert.equal((classifyReference({ ...request, amount: 2 ** 31 }, end - 1) as { freedom?: string }).freedom, 'SEC-2');
  assert.equal((classifyReference({ ...request, callbackUrl: 'not a url' }, end - 1) as { freedom?: string }).freedom, 'REF-10');
  const broken = classifyReference({ ...request, amount: 0 }, end - 1);
  assert.ok(broken.kind === 'broken' && broken.rules.some((rule) => rule.clause === 'REF-9'));
  const refused = exchange('POST', '/payments/references', {}, request, 400);
  assert.deepEqual(checkReferenceAnswer(refused, { sentAt: end + 1 }), []);
  assert.deepEqual(clausesOf(checkReferenceAnswer(refused, { sentAt: end - 1 })), ['REF-1']);
});

test('a validDate written past the millisecond may be refused (SEC-2, recorded); one to the millisecond is owed (REF-1)', () => {
  const request = payload('reference-request--payment-multibanco--1');
  const sentAt = Date.parse(request.validDate.start);
  const writtenTo = (fraction: string) => ({ ...request, validDate: { ...request.validDate, end: `2030-01-02T10:00:00.${fraction}+05:45` } });
  const refusal = (body: unknown) =>
    judgeAnswer('createReference', exchange('POST', '/payments/references', {}, body, 422), { sentAt, suiteCredentials: true });
  for (const fraction of ['1234', '123456', '123456789']) {
    assert.equal((classifyReference(writtenTo(fraction), sentAt) as { freedom?: string }).freedom, 'SEC-2', fraction);
    const verdict = refusal(writtenTo(fraction));
    assert.deepEqual([verdict.problems, verdict.taken?.clause], [[], 'SEC-2'], fraction);
  }
  assert.deepEqual(classifyReference(writtenTo('123'), sentAt), { kind: 'owed' });
  assert.deepEqual(clausesOf(refusal(writtenTo('123')).problems), ['REF-1']);
});

test('a reference request the target made wait is judged as it left after the wait: a window that ended meanwhile may be refused', () => {
  const request = payload('reference-request--payment-multibanco--1');
  const end = Date.parse(request.validDate.end);
  const refused = exchange('POST', '/payments/references', {}, request, 400);
  const known = { sentAt: end - 500, suiteCredentials: true };
  assert.deepEqual(clausesOf(judgeAnswer('createReference', refused, known).problems), ['REF-1']);
  const waited = { ...refused, response: { ...refused.response, waitedMs: 1000 } };
  assert.deepEqual(judgeAnswer('createReference', waited, known).problems, []);
});
