/** The checks of notifications (src/checks/notifications.ts), and the published signature. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHmac } from 'node:crypto';
import type { RecordedRequest } from '../../src/core/evidence.ts';
import { observeSignature } from '../../src/core/observations.ts';
import {
  attributeNotification,
  checkNotificationIdentifies,
  checkNotified,
  checkNotNotified,
  identifiesPayment,
  type KnownPayment,
} from '../../src/checks/index.ts';
import * as checksOfFile from '../../src/checks/notifications.ts';
import { payload, clausesOf, checkCase, notification, testCheckCases, type CheckCase } from '../support/check-cases.ts';

test('a notification identifies its payment by id or by reference, in its body or its address', () => {
  const notification = (body: unknown, url = '/hook'): RecordedRequest => ({ method: 'POST', url, headers: {}, body });
  const published = payload('notification--payload-example--1');
  assert.deepEqual(checkNotificationIdentifies(notification(published), { id: '43320' }), []);
  assert.deepEqual(checkNotificationIdentifies(notification({ ref: '002460930' }), { id: '9', reference: '002460930' }), []);
  assert.deepEqual(checkNotificationIdentifies(notification('', '/hook?payment=9'), { id: '9' }), []);
  assert.deepEqual(clausesOf(checkNotificationIdentifies(notification({ status: 'paid' }), { id: '9', reference: '002460930' })), ['EVT-3']);
});

test('a notification is about the payment whose id it carries; one carrying only a reference, about the payment that held it when paid', () => {
  const hour = 3_600_000;
  const reused = '012345678';
  // The reference was handed out again once the first window had ended: the first payment never paid, the second paid.
  const first = { id: '5', reference: reused, paid: false, window: { start: 0, end: hour } };
  const second = { id: '17', reference: reused, paid: true, window: { start: 2 * hour, end: 3 * hour } };
  const payments = [first, second];
  const received = (body: unknown, receivedAt?: number) => ({
    method: 'POST',
    url: '/hook',
    headers: {},
    body,
    ...(receivedAt !== undefined && { receivedAt }),
  });
  const aboutIds = (body: unknown, among: readonly KnownPayment[] = payments, receivedAt?: number) =>
    attributeNotification(received(body, receivedAt), among).about.map(({ id }) => id);
  assert.deepEqual(aboutIds({ payments: [{ id: '17', amount: 5, referenceDetails: { reference: reused } }] }), ['17']);
  assert.deepEqual(aboutIds({ payments: [{ id: '5', referenceDetails: { reference: reused } }] }), ['5']);
  assert.deepEqual(aboutIds({ reference: reused }), ['17']);
  // Neither paid: the one whose window was open when it came; none where no window was; both where the time is not known.
  const unpaid = payments.map((payment) => ({ ...payment, paid: false }));
  assert.deepEqual(aboutIds({ reference: reused }, unpaid, hour / 2), ['5']);
  assert.deepEqual(aboutIds({ reference: reused }, unpaid, 2.5 * hour), ['17']);
  assert.deepEqual(aboutIds({ reference: reused }, unpaid, 4 * hour), []);
  assert.deepEqual(aboutIds({ reference: reused }, unpaid), ['5', '17']);
  // An id alone names a payment whose reference is known only perhaps (an amount, an event number); one whose reference is not known, surely.
  assert.deepEqual(attributeNotification(received({ amount: 5 }), payments), { about: [], byIdAlone: [first] });
  assert.deepEqual(aboutIds({ payment: '5' }, [{ id: '5' }]), ['5']);
  // EVT-4 for the payment never paid: the second's notification is not about it, its own is.
  const aboutFirst = { why: 'for an unpaid reference', about: first, among: payments };
  assert.deepEqual(checkNotNotified([received({ payments: [{ id: '17', referenceDetails: { reference: reused } }] })], aboutFirst), []);
  assert.deepEqual(clausesOf(checkNotNotified([received({ payments: [{ id: '5', referenceDetails: { reference: reused } }] })], aboutFirst)), ['EVT-4']);
  assert.ok(!identifiesPayment(received({ payments: [{ id: '17', referenceDetails: { reference: reused } }] }), first, payments));
  assert.ok(identifiesPayment(received({ payments: [{ id: '17', referenceDetails: { reference: reused } }] }), second, payments));
});

test('the published signature is verified where a secret is given', () => {
  const body = '{"webhook":{}}';
  const hash = createHmac('sha256', 'secret').update(`${body}1700000000`).digest('hex');
  assert.equal(observeSignature({ 'PayPay-Signature': `hash=${hash},ts=1700000000` }, body, 'secret').valid, true);
  assert.equal(observeSignature({ 'paypay-signature': `hash=${hash},ts=1700000001` }, body, 'secret').valid, false);
  assert.equal(observeSignature({}, body, 'secret').present, false);
});

const aboutPayment = { id: '43320', reference: '002460930' };
const notified = (clause: 'EVT-1' | 'EVT-2') => ({ payment: aboutPayment, clause, where: 'the address', address: 'http://receiver.test/hook', withinMs: 1000 });

const checkCases: CheckCase[] = [
  checkCase('EVT-1', checkNotified, 'nothing received', {
    passes: [[notification(payload('notification--payload-example--1'))], notified('EVT-1')],
    fails: [[], notified('EVT-1')],
  }),
  checkCase('EVT-2', checkNotified, 'nothing received', {
    passes: [[notification({ other: '1' }), notification({ id: '43320' })], notified('EVT-2')],
    fails: [[], notified('EVT-2')],
  }),
  checkCase('EVT-3', checkNotified, 'nothing naming the payment', { fails: [[notification({ status: 'paid' })], notified('EVT-2')] }),
  checkCase('EVT-2', checkNotified, 'only notifications naming other references at the webhook', {
    passes: [[notification({ payments: [{ id: '7', referenceDetails: { reference: '123456789' } }] }), notification({ id: '43320' })], notified('EVT-2')],
    fails: [[notification({ payments: [{ id: '7', referenceDetails: { reference: '123456789' } }] })], notified('EVT-2')],
  }),
  checkCase('EVT-3', checkNotificationIdentifies, 'neither id nor reference', { fails: [notification({ status: 'paid' }), aboutPayment] }),
  checkCase('EVT-4', checkNotNotified, 'a notification for an unpaid reference', {
    passes: [[], { why: 'for an unpaid reference' }],
    fails: [[notification({ status: 'paid' })], { why: 'for an unpaid reference' }],
  }),
  checkCase('EVT-4', checkNotNotified, 'one naming the payment at the webhook', {
    passes: [[notification({ id: '1' })], { why: 'for an unpaid reference', about: aboutPayment }],
    fails: [[notification({ id: '1' }), notification({ reference: '002460930' })], { why: 'for an unpaid reference', about: aboutPayment }],
  }),
  checkCase('EVT-4', checkNotNotified, "its reference at the webhook, where another payment's notification holds its id by chance", {
    passes: [
      [
        notification({
          webhook: { id: aboutPayment.id },
          payments: [{ id: '999', amount: Number(aboutPayment.id), referenceDetails: { reference: '123456789' } }],
        }),
      ],
      { why: 'for an unpaid reference', about: aboutPayment },
    ],
    fails: [
      [notification({ webhook: { id: '7' }, payments: [{ id: '999', referenceDetails: { reference: aboutPayment.reference } }] })],
      { why: 'for an unpaid reference', about: aboutPayment },
    ],
  }),
];

testCheckCases(checksOfFile, checkCases);
