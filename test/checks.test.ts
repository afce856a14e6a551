import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import type { RecordedRequest } from '../src/evidence.ts';
import {
  checkCheckoutCreated,
  checkConfirmed,
  checkDistinctCheckouts,
  checkDistinctReferences,
  checkEnvelope,
  checkMethodStored,
  checkNothingStored,
  checkNotificationIdentifies,
  checkOnlyStorableTypes,
  checkPayment,
  checkPaymentEchoes,
  checkRedirect,
  checkRefused,
  checkAmountShown,
  checkStoredMethods,
  observeSignature,
  type Exchange,
  type Problem,
} from '../src/checks/index.ts';
import { createHmac } from 'node:crypto';

const realdata = new URL('../../shared/realdata/', import.meta.url);
interface Example {
  operation: string;
  agreesWithContract: boolean;
  payload: any;
}
const examples = Object.fromEntries(
  readdirSync(realdata)
    .filter((file) => file.endsWith('.json'))
    .map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(new URL(file, realdata), 'utf8')) as Example]),
);
const payload = (name: string) => structuredClone(examples[name].payload);

function exchange(method: string, path: string, responseBody: unknown, requestBody?: unknown, status = 200): Exchange {
  const request: RecordedRequest = { method, url: `http://target.test${path}`, headers: {}, body: requestBody };
  return { request, response: { status, headers: { 'content-type': 'application/json' }, body: responseBody } };
}
const clausesOf = (problems: Problem[]) => [...new Set(problems.map((problem) => problem.clause))].sort();
const checkout = (response: unknown, request: unknown = payload('checkout-request--cc--1'), status = 200) =>
  checkCheckoutCreated(exchange('POST', '/checkouts', response, request, status));
const payment = (response: unknown) => checkPayment(exchange('GET', '/payments/50438', response));
const methods = (response: unknown) => checkStoredMethods(exchange('GET', '/customers/e2343605-cf46-43de-b20b-9b7d1c95a9b2/paymentMethods', response));

test('published checkout responses that agree with the reference produce no problems, paired with their requests', () => {
  for (const [name, example] of Object.entries(examples)) {
    if (example.operation !== 'checkout-response') continue;
    const requestName = name.replace('checkout-response', 'checkout-request');
    const request = examples[requestName]?.payload ?? payload('checkout-request--cc--1');
    assert.deepEqual(checkout(example.payload, request), [], name);
    assert.deepEqual(checkEnvelope(exchange('POST', '/checkouts', example.payload), { versioned: true }), [], name);
  }
});

test('published payment and stored-method examples: agreeing ones pass, departing ones are named', () => {
  for (const [name, example] of Object.entries(examples)) {
    const check = example.operation === 'payment-response' ? payment : example.operation === 'payment-methods-response' ? methods : undefined;
    if (!check) continue;
    const problems = check(example.payload);
    if (example.agreesWithContract) assert.deepEqual(problems, [], name);
    else assert.notDeepEqual(problems, [], name);
  }
  assert.deepEqual(clausesOf(methods(payload('payment-methods-response--getPaymentMethods--1'))), ['PML-2'], 'code instead of type');
  const otherSpelling = payload('payment-methods-response--getPaymentMethods--1');
  for (const method of otherSpelling.data) method.type = method.code;
  assert.deepEqual(clausesOf(methods(otherSpelling)), ['PML-3', 'PML-4'], 'last4Digits, expiryMonth, last3Digits');
  assert.ok(clausesOf(payment(payload('payment-response--payment-mbway--1'))).includes('REF-2'));
});

test('the published reference request is echoed by the published payment', () => {
  const requested = payload('reference-request--payment-multibanco--1');
  assert.deepEqual(checkPaymentEchoes(exchange('GET', '/payments/50438', payload('payment-response--payment-multibanco--1')), { requested }), []);
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

test('benign variants of payments and stored methods produce no problems', () => {
  const withoutApiVersion = payload('payment-response--payment-multibanco--1');
  delete withoutApiVersion.apiVersion;
  assert.deepEqual(payment(withoutApiVersion), []);
  const otherState = payload('payment-response--payment-multibanco--1');
  otherState.data.stateDetails.state = 'pending';
  otherState.data.createdAt = '2022-03-09T15:45:56+01:00';
  assert.deepEqual(payment(otherState), []);
  const upperCase = payload('payment-methods-response--tokenization--1');
  upperCase.data[0].uuid = upperCase.data[0].uuid.toUpperCase();
  upperCase.data[1].nickname = 'phone';
  assert.deepEqual(methods(upperCase), []);
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

test('a refusal is any 4xx with any body; 2xx, 3xx and 5xx are problems', () => {
  const refusal = (status: number, body: unknown) =>
    checkRefused(exchange('POST', '/checkouts', body, {}, status), { clause: 'CHK-9', broken: 'no action redirect' });
  for (const [status, body] of [[400, { error: 'bad' }], [422, 'Unprocessable'], [409, null]] as const) assert.deepEqual(refusal(status, body), []);
  for (const status of [200, 201, 302, 500]) assert.deepEqual(clausesOf(refusal(status, {})), ['CHK-9']);
});

test('each departure of a payment is named by its clause', () => {
  const departures: Array<[string, (body: any) => void, string]> = [
    ['reference of 8 digits', (body) => (body.data.referenceDetails.reference = '02492617'), 'REF-2'],
    ['reference as a number', (body) => (body.data.referenceDetails.reference = 2492617), 'REF-2'],
    ['no entity', (body) => delete body.data.referenceDetails.entity, 'REF-3'],
    ['type other than payment', (body) => (body.data.type = 'refund'), 'REF-3'],
    ['method without name', (body) => delete body.data.availableMethods[0].name, 'REF-3'],
    ['updatedAt without offset', (body) => (body.data.updatedAt = '2022-03-09 14:45:56'), 'REF-4'],
    ['validDate.end without offset', (body) => (body.data.validDate.end = '2022-04-30T23:59:59'), 'REF-4'],
  ];
  for (const [name, change, clause] of departures) {
    const body = payload('payment-response--payment-multibanco--1');
    change(body);
    assert.ok(clausesOf(payment(body)).includes(clause), `${name}: ${JSON.stringify(payment(body))}`);
  }
});

test('echo, confirmation and distinct references', () => {
  const requested = payload('reference-request--payment-multibanco--1');
  const body = payload('payment-response--payment-multibanco--1');
  body.data.validDate.end = '2022-04-30T22:59:59Z';
  const get = (response: unknown) => exchange('GET', '/payments/50438', response);
  assert.deepEqual(checkPaymentEchoes(get(body), { requested }), [], 'the same instant at another offset');
  body.data.amount = 10000;
  body.data.validDate.start = '2022-04-02T14:45:56+00:00';
  body.data.availableMethods[0].code = 'CC';
  assert.equal(checkPaymentEchoes(get(body), { requested }).filter((p) => p.clause === 'REF-5').length, 3);

  const confirmed = payload('payment-response--payment-multibanco--1');
  assert.deepEqual(checkConfirmed(get(confirmed)), []);
  confirmed.data.updatedAt = '2022-03-09T14:45:55+00:00';
  confirmed.data.stateDetails.state = 'pending';
  assert.deepEqual(checkConfirmed(get(confirmed)).map((p) => p.clause), ['REF-6', 'REF-6']);

  const one = { id: '1', referenceDetails: { entity: '1', reference: '002492617' } };
  assert.deepEqual(checkDistinctReferences([one, { ...one, id: '2', referenceDetails: { entity: '1', reference: '102492617' } }]), []);
  assert.deepEqual(clausesOf(checkDistinctReferences([one, { ...one, id: '2' }])), ['REF-8']);
});

test('stored methods: matching values, nothing stored, only CC and MW, distinct uuids', () => {
  const list = exchange('GET', '/customers/x/paymentMethods', payload('payment-methods-response--tokenization--1'));
  const card = { number: '4111111111110809', holder: 'Luís Gonçalves', expireMonth: '05', expireYear: '2026' };
  assert.deepEqual(checkMethodStored(list, { paidWith: { method: 'CC', card }, clause: 'TOK-1' }), []);
  assert.deepEqual(checkMethodStored(list, { paidWith: { method: 'MW', wallet: { countryCode: '351', number: '912345263' } }, clause: 'TOK-1' }), []);
  assert.deepEqual(clausesOf(checkMethodStored(list, { paidWith: { method: 'CC', card: { ...card, expireYear: '2027' } }, clause: 'TOK-1' })), ['PML-5']);
  const empty = exchange('GET', '/customers/x/paymentMethods', { apiVersion: '1.0', date: '2022-01-01T00:00:00Z', success: true, data: [] });
  assert.deepEqual(clausesOf(checkMethodStored(empty, { paidWith: { method: 'CC', card }, clause: 'TOK-1' })), ['TOK-1']);
  assert.deepEqual(checkNothingStored(empty, { clause: 'TOK-3', why: 'after a declined payment' }), []);
  assert.deepEqual(clausesOf(checkNothingStored(list, { clause: 'TOK-3', why: 'after a declined payment' })), ['TOK-3']);
  assert.deepEqual(checkNothingStored(list, { clause: 'TOK-4', why: 'x', before: payload('payment-methods-response--tokenization--1').data }), []);
  assert.deepEqual(checkOnlyStorableTypes(list), []);
  const withMb = payload('payment-methods-response--tokenization--1');
  withMb.data.push({ type: 'MB', uuid: '95668f83-7623-4de5-91c7-ac447c504ebf' });
  assert.deepEqual(clausesOf(checkOnlyStorableTypes(exchange('GET', '/customers/x/paymentMethods', withMb))), ['TOK-5']);
  const twice = payload('payment-methods-response--tokenization--1');
  twice.data[1].uuid = twice.data[0].uuid;
  assert.deepEqual(clausesOf(methods(twice)), ['PML-6']);
  const badCard = payload('payment-methods-response--tokenization--1');
  badCard.data[0].expireMonth = '5';
  badCard.data[1].last3Digitis = '2631';
  assert.deepEqual(clausesOf(methods(badCard)), ['PML-3', 'PML-4']);
});

test('a notification identifies its payment by id or by reference, in its body or its address', () => {
  const notification = (body: unknown, url = '/hook'): RecordedRequest => ({ method: 'POST', url, headers: {}, body });
  const published = payload('notification--payload-example--1');
  assert.deepEqual(checkNotificationIdentifies(notification(published), { id: '43320' }), []);
  assert.deepEqual(checkNotificationIdentifies(notification({ ref: '002460930' }), { id: '9', reference: '002460930' }), []);
  assert.deepEqual(checkNotificationIdentifies(notification('', '/hook?payment=9'), { id: '9' }), []);
  assert.deepEqual(clausesOf(checkNotificationIdentifies(notification({ status: 'paid' }), { id: '9', reference: '002460930' })), ['EVT-3']);
});

test('the published signature is verified where a secret is given', () => {
  const body = '{"webhook":{}}';
  const hash = createHmac('sha256', 'secret').update(`${body}1700000000`).digest('hex');
  assert.equal(observeSignature({ 'PayPay-Signature': `hash=${hash},ts=1700000000` }, body, 'secret').valid, true);
  assert.equal(observeSignature({ 'paypay-signature': `hash=${hash},ts=1700000001` }, body, 'secret').valid, false);
  assert.equal(observeSignature({}, body, 'secret').present, false);
});

test('redirects keep the action URL and its query and append id; amounts read in major units', () => {
  const context = { actionUrl: 'http://127.0.0.1:5000/action/a?order=7', checkoutId: 'abc', clause: 'PAGE-3' };
  assert.deepEqual(checkRedirect('http://127.0.0.1:5000/action/a?order=7&id=abc', context), []);
  assert.deepEqual(checkRedirect('http://127.0.0.1:5000/action/a?id=abc&order=7&x=1', context), []);
  for (const wrong of ['http://127.0.0.1:5000/action/a?id=abc', 'http://127.0.0.1:5000/action/b?order=7&id=abc', 'http://127.0.0.1:5000/action/a?order=7', null]) {
    assert.deepEqual(clausesOf(checkRedirect(wrong, context)), ['PAGE-3'], String(wrong));
  }
  assert.deepEqual(checkRedirect('myshop://paid?order=7&id=abc', { ...context, actionUrl: 'myshop://paid?order=7', clause: 'PAGE-4' }), []);
  assert.deepEqual(checkAmountShown('Total: 5,00 €', { amount: 500, where: 'page' }), []);
  assert.deepEqual(checkAmountShown('€1,234.56', { amount: 123456, where: 'page' }), []);
  assert.deepEqual(checkAmountShown('12.34 EUR', { amount: 1234, where: 'page' }), []);
  assert.deepEqual(clausesOf(checkAmountShown('500,00 €', { amount: 500, where: 'page' })), ['CHK-8']);
  assert.deepEqual(clausesOf(checkAmountShown('15,00 €', { amount: 500, where: 'page' })), ['CHK-8']);
});
