/** The checks of a checkout's creation and use (src/checks/checkouts.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkChargedAmount,
  checkCheckoutCreated,
  checkCheckoutUrlOpens,
  checkCheckoutUsable,
  checkDistinctCheckouts,
  checkEnvelope,
  checkRefusedAndStillServing,
  checkVariantAccepted,
} from '../../src/checks/index.ts';
import * as checksOfFile from '../../src/checks/checkouts.ts';
import {
  examples,
  payload,
  exchange,
  clausesOf,
  checkout,
  checkCase,
  published,
  without,
  changed,
  created,
  paymentAnswer,
  testCheckCases,
  type CheckCase,
} from '../support/check-cases.ts';

test('published checkout responses that agree with the reference produce no problems, paired with their requests', () => {
  for (const [name, example] of Object.entries(examples)) {
    if (example.operation !== 'checkout-response') continue;
    const requestName = name.replace('checkout-response', 'checkout-request');
    const request = examples[requestName]?.payload ?? payload('checkout-request--cc--1');
    assert.deepEqual(checkout(example.payload, request), [], name);
    assert.deepEqual(checkEnvelope(exchange('POST', '/checkouts', example.payload), { versioned: true }), [], name);
  }
});

test('benign variants of a checkout response produce no problems', () => {
  const variants: Array<[string, (body: any) => void, number?]> = [
    ['extra fields', (body) => Object.assign(body.data, { extra: 1, stateDetails: { ...body.data.stateDetails, reason: 'x' } })],
    ['another UTC offset', (body) => (body.data.stateDetails.timestamp = '2022-01-03T15:16:17+01:00')],
    ['fractional seconds and Z', (body) => (body.date = '2022-01-03T14:16:17.123Z')],
    ['apiVersion 1.4.0', (body) => (body.apiVersion = '1.4.0')],
    ['status 201', () => undefined, 201],
  ];
  for (const [name, change, status] of variants) {
    const body = payload('checkout-response--cc--1');
    change(body);
    assert.deepEqual(checkout(body, undefined, status), [], name);
  }
});

test('each departure of a checkout response is named by its clause', () => {
  const departures: Array<[string, (body: any) => void, string]> = [
    ['no date', (body) => delete body.date, 'ENV-1'],
    ['success false', (body) => (body.success = false), 'ENV-1'],
    ['date without offset', (body) => (body.date = '2022-01-03T14:16:17'), 'ENV-1'],
    ['no apiVersion', (body) => delete body.apiVersion, 'ENV-2'],
    ['apiVersion a number', (body) => (body.apiVersion = 1), 'ENV-2'],
    ['no id', (body) => delete body.data.id, 'CHK-2'],
    ['empty paymentId', (body) => (body.data.paymentId = ''), 'CHK-2'],
    ['relative checkoutUrl', (body) => (body.data.checkoutUrl = '/pay/1'), 'CHK-2'],
    ['createdAt with T', (body) => (body.data.createdAt = '2022-01-03T14:16:17'), 'CHK-3'],
    ['createdAt with offset', (body) => (body.data.createdAt = '2022-01-03 14:16:17+00:00'), 'CHK-3'],
    ['another state', (body) => (body.data.stateDetails.state = 'pending'), 'CHK-4'],
    ['state timestamp without offset', (body) => (body.data.stateDetails.timestamp = '2022-01-03 14:16:17'), 'CHK-4'],
  ];
  for (const [name, change, clause] of departures) {
    const body = payload('checkout-response--cc--1');
    change(body);
    assert.ok(clausesOf(checkout(body)).includes(clause), `${name}: ${JSON.stringify(checkout(body))}`);
  }
  assert.deepEqual(clausesOf(checkout(payload('checkout-response--cc--1'), undefined, 400)), ['CHK-1']);
  const noLayoutParameter = payload('checkout-response--cc--1');
  assert.deepEqual(clausesOf(checkout(noLayoutParameter, payload('checkout-request--mobile--1'))), ['CHK-5']);
  const messages = checkout({ ...payload('checkout-response--cc--1'), data: { ...payload('checkout-response--cc--1').data, createdAt: 'yesterday' } });
  assert.match(messages[0].message, /\/data\/createdAt: expected a string matching .* got "yesterday"/);
});

test('two checkouts with the same id or paymentId break CHK-7', () => {
  const first = exchange('POST', '/checkouts', payload('checkout-response--cc--1'));
  assert.deepEqual(clausesOf(checkDistinctCheckouts(first, first)), ['CHK-7']);
  assert.deepEqual(checkDistinctCheckouts(first, exchange('POST', '/checkouts', payload('checkout-response--mw--1'))), []);
});

const pageUrl = 'http://target.test/pay/1';

const checkCases: CheckCase[] = [
  checkCase('ENV-1', checkCheckoutCreated, 'no date', { fails: [created(without(published.checkout(), 'date'))] }),
  checkCase('ENV-2', checkCheckoutCreated, 'no apiVersion', { fails: [created(without(published.checkout(), 'apiVersion'))] }),
  checkCase('CHK-1', checkCheckoutCreated, 'a refusal', { fails: [created(published.checkout(), 400)] }),
  checkCase('CHK-1', checkCheckoutUsable, 'a refusal', { passes: [created(published.checkout())], fails: [created(published.checkout(), 422)] }),
  checkCase('CHK-1', checkCheckoutUsable, 'data an array', { fails: [created(changed(published.checkout(), (body) => (body.data = [body.data])))] }),
  checkCase('CHK-2', checkCheckoutCreated, 'an empty paymentId', { fails: [created(changed(published.checkout(), (body) => (body.data.paymentId = '')))] }),
  checkCase('CHK-2', checkCheckoutUsable, 'a relative checkoutUrl', {
    fails: [created(changed(published.checkout(), (body) => (body.data.checkoutUrl = '/pay/1')))],
  }),
  checkCase('CHK-2', checkCheckoutUsable, 'no id', { fails: [created(changed(published.checkout(), (body) => delete body.data.id))] }),
  checkCase('CHK-2', checkCheckoutUrlOpens, 'a 404', { passes: [{ url: pageUrl, status: 200 }], fails: [{ url: pageUrl, status: 404 }] }),
  checkCase('CHK-2', checkCheckoutUrlOpens, 'no answer', { fails: [{ url: pageUrl, error: 'fetch failed' }] }),
  checkCase('CHK-3', checkCheckoutCreated, 'createdAt with T', {
    fails: [created(changed(published.checkout(), (body) => (body.data.createdAt = '2022-01-03T14:16:17')))],
  }),
  checkCase('CHK-4', checkCheckoutCreated, 'another state', {
    fails: [created(changed(published.checkout(), (body) => (body.data.stateDetails.state = 'pending')))],
  }),
  checkCase('CHK-5', checkCheckoutCreated, 'layout default without page_layout', {
    fails: [created(published.checkout(), 200, payload('checkout-request--mobile--1'))],
  }),
  checkCase('CHK-6', checkVariantAccepted, 'a refusal', {
    passes: [created(published.checkout(), 201), { variant: 'ATM payment page' }],
    fails: [created({}, 400), { variant: 'ATM payment page' }],
  }),
  checkCase('CHK-7', checkDistinctCheckouts, 'the same ids twice', { fails: [created(published.checkout()), created(published.checkout())] }),
  checkCase('CHK-8', checkChargedAmount, 'the amount times 100', {
    passes: [paymentAnswer(published.payment()), { amount: 100 }],
    fails: [paymentAnswer(published.payment()), { amount: 1 }],
  }),
  checkCase('CHK-12', checkRefusedAndStillServing, 'a 500 for the broken body', {
    passes: [created({}, 400), created(published.checkout()), { broken: 'a JSON array' }],
    fails: [created({}, 500), created(published.checkout()), { broken: 'a JSON array' }],
  }),
  checkCase('CHK-12', checkRefusedAndStillServing, 'a 503 after the refusal', { fails: [created({}, 400), created({}, 503), { broken: 'a JSON array' }] }),
];

testCheckCases(checksOfFile, checkCases);
