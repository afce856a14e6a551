/** The checks that judge a checkout by its kind (src/checks/checkout-kinds.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkCheckoutAnswer, checkCheckoutCreated, checkCheckoutCreatedForUse } from '../../src/checks/index.ts';
import * as checksOfFile from '../../src/checks/checkout-kinds.ts';
import { payload, exchange, clausesOf, checkCase, published, changed, created, testCheckCases, type CheckCase } from '../support/check-cases.ts';

/** checkCheckoutAnswer and checkCheckoutCreatedForUse, which judge a checkout by its kind (classifyCheckout). */
function checkoutAnswerCases(): CheckCase[] {
  const atmRow = { payment: { amount: 500, code: 'P1', summary: 'Book', paymentMethod: { code: 'MB' } }, page: { language: 'PT', layout: 'web' } };
  const answered = (body: unknown, request: unknown = atmRow, status = 200) => created(body, status, request);
  const ofRow = (change: (body: ReturnType<typeof published.checkout>) => void) => answered(changed(published.checkout(), change));
  const broken = (payment: Record<string, unknown>, page: Record<string, unknown> = atmRow.page) => ({
    ...atmRow,
    payment: { ...atmRow.payment, ...payment },
    page,
  });
  return [
    checkCase('CHK-1', checkCheckoutAnswer, 'a 500 for a checkout beyond the rows', {
      passes: [answered({}, { ...atmRow, extra: true }, 400)],
      fails: [answered({}, { ...atmRow, extra: true }, 500)],
    }),
    checkCase('CHK-2', checkCheckoutAnswer, 'an empty paymentId', {
      passes: [answered(published.checkout())],
      fails: [ofRow((body) => (body.data.paymentId = ''))],
    }),
    checkCase('CHK-3', checkCheckoutAnswer, 'createdAt with T', { fails: [ofRow((body) => (body.data.createdAt = '2022-01-03T14:16:17'))] }),
    checkCase('CHK-4', checkCheckoutAnswer, 'another state', { fails: [ofRow((body) => (body.data.stateDetails.state = 'pending'))] }),
    checkCase('CHK-5', checkCheckoutAnswer, 'layout default without page_layout', {
      fails: [answered(published.checkout(), payload('checkout-request--mobile--1'))],
    }),
    checkCase('CHK-6', checkCheckoutAnswer, 'a row refused', { fails: [answered({}, atmRow, 400)] }),
    checkCase('CHK-9', checkCheckoutAnswer, 'an embed checkout without redirects accepted', {
      fails: [answered(published.checkout(), broken({}, { layout: 'embed' }))],
    }),
    checkCase('CHK-10', checkCheckoutAnswer, 'storing with MB accepted', {
      fails: [answered(published.checkout(), broken({ paymentMethod: { code: 'MB', details: { createRegistration: true } } }))],
    }),
    checkCase('CHK-11', checkCheckoutAnswer, 'amount 5.5 accepted', { fails: [answered(published.checkout(), broken({ amount: 5.5 }))] }),
    checkCase('CHK-12', checkCheckoutAnswer, 'a JSON string accepted', { fails: [answered(published.checkout(), 'checkout')] }),
    checkCase('CHK-1', checkCheckoutCreatedForUse, 'no checkout', { passes: [answered(published.checkout())], fails: [answered({ success: true })] }),
    checkCase('CHK-2', checkCheckoutCreatedForUse, 'no id', { fails: [ofRow((body) => delete body.data.id)] }),
    checkCase('CHK-6', checkCheckoutCreatedForUse, 'a row refused', { fails: [answered({}, atmRow, 422)] }),
  ];
}

testCheckCases(checksOfFile, checkoutAnswerCases());

test('a stateless mock answers its example whatever was asked: with answersItsRequest false, CHK-5 is not judged', () => {
  const mobile = exchange('POST', '/checkouts', payload('checkout-response--cc--1'), payload('checkout-request--mobile--1'));
  assert.deepEqual(clausesOf(checkCheckoutCreated(mobile)), ['CHK-5']);
  assert.deepEqual(checkCheckoutCreated(mobile, { answersItsRequest: false }), []);
  assert.deepEqual(clausesOf(checkCheckoutAnswer(mobile, { answersItsRequest: false })), []);
});
