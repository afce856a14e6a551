import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import type { RecordedRequest } from '../../src/core/evidence.ts';
import { observeSignature } from '../../src/core/observations.ts';
import {
  holdsPartOf,
  checkAmountShown,
  checkAtmPageReference,
  checkChargedAmount,
  checkCheckoutAnswer,
  checkPaymentAnswer,
  checkReferenceAnswer,
  classifyReference,
  checkCheckoutCreated,
  checkCheckoutCreatedForUse,
  checkCheckoutUrlOpens,
  checkCheckoutUsable,
  checkConfirmed,
  checkConsentOffer,
  checkDistinctCheckouts,
  checkDistinctReferences,
  checkEnvelope,
  checkFormInsideWidgets,
  checkListAnswered,
  checkMethodCount,
  checkMethodStored,
  checkMethodTypeListed,
  checkNotConfirmed,
  checkNothingPostedToAction,
  checkNothingStored,
  checkOnlyOwnMethods,
  checkNotificationIdentifies,
  checkNotified,
  checkNotNotified,
  checkOnlyStorableTypes,
  checkPayment,
  checkPaymentEchoes,
  checkPaymentPageOpens,
  checkRedirect,
  checkReferenceCreated,
  checkRefused,
  checkRefusedAndStillServing,
  checkServedAtPath,
  checkStoredMethods,
  checkSuccess,
  checkVariantAccepted,
  checksByClause,
  registry,
  type Exchange,
  type Problem,
} from '../../src/checks/index.ts';
import { clauses } from '../../src/core/clauses.ts';
import { createHmac } from 'node:crypto';

const realdata = new URL('../../../shared/realdata/', import.meta.url);
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
const payment = (response: unknown) => checkPayment(exchange('GET', '/payments/50438', response), confirmed);
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
  for (const [status, body] of [
    [400, { error: 'bad' }],
    [422, 'Unprocessable'],
    [409, null],
  ] as const)
    assert.deepEqual(refusal(status, body), []);
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
  assert.deepEqual(
    checkConfirmed(get(confirmed)).map((p) => p.clause),
    ['REF-6', 'REF-6'],
  );

  const one = { id: '1', referenceDetails: { entity: '1', reference: '002492617' } };
  assert.deepEqual(checkDistinctReferences([one, { ...one, id: '2', referenceDetails: { entity: '1', reference: '102492617' } }]), []);
  assert.deepEqual(clausesOf(checkDistinctReferences([one, { ...one, id: '2' }])), ['REF-8']);
  // Valid at the same time by the windows shown; where none is shown, the caller says.
  const window = (start: string, end: string) => ({ validDate: { start, end } });
  const january = { ...one, ...window('2026-01-01T00:00:00Z', '2026-01-31T00:00:00Z') };
  assert.deepEqual(checkDistinctReferences([january, { ...one, id: '2', ...window('2026-02-01T00:00:00Z', '2026-02-28T00:00:00Z') }]), []);
  assert.deepEqual(clausesOf(checkDistinctReferences([january, { ...one, id: '2', ...window('2026-01-30T00:00:00+01:00', '2026-02-28T00:00:00Z') }])), [
    'REF-8',
  ]);
  assert.deepEqual(checkDistinctReferences([one, { ...one, id: '2' }], { windowsUnknown: 'not judged' }), []);
});

test('stored methods: matching values, nothing stored, only CC and MW, distinct uuids', () => {
  const list = exchange('GET', '/customers/x/paymentMethods', payload('payment-methods-response--tokenization--1'));
  const card = { number: '4111111111110809', holder: 'Luís Gonçalves', expireMonth: '05', expireYear: '2026' };
  assert.deepEqual(checkMethodStored(list, { paidWith: { method: 'CC', card }, clause: 'TOK-1' }), []);
  assert.deepEqual(checkMethodStored(list, { paidWith: { method: 'MW', wallet: { countryCode: '351', number: '912345263' } }, clause: 'TOK-1' }), []);
  assert.deepEqual(clausesOf(checkMethodStored(list, { paidWith: { method: 'CC', card: { ...card, expireYear: '2027' } }, clause: 'TOK-1' })), ['PML-5']);
  // A holder and a country code written otherwise are the same values.
  const normalised = structuredClone(payload('payment-methods-response--tokenization--1')) as { data: Record<string, string>[] };
  for (const method of normalised.data) {
    if (method.holder) method.holder = 'LUIS  GONCALVES';
    if (method.countryCode) method.countryCode = '+351';
  }
  const normalisedList = exchange('GET', '/customers/x/paymentMethods', normalised);
  assert.deepEqual(checkMethodStored(normalisedList, { paidWith: { method: 'CC', card }, clause: 'TOK-1' }), []);
  assert.deepEqual(checkMethodStored(normalisedList, { paidWith: { method: 'MW', wallet: { countryCode: '351', number: '912345263' } }, clause: 'TOK-1' }), []);
  assert.deepEqual(clausesOf(checkMethodStored(normalisedList, { paidWith: { method: 'CC', card: { ...card, holder: 'Ana Silva' } }, clause: 'TOK-1' })), [
    'PML-5',
  ]);
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
  for (const wrong of [
    'http://127.0.0.1:5000/action/a?id=abc',
    'http://127.0.0.1:5000/action/b?order=7&id=abc',
    'http://127.0.0.1:5000/action/a?order=7',
    null,
  ]) {
    assert.deepEqual(clausesOf(checkRedirect(wrong, context)), ['PAGE-3'], String(wrong));
  }
  assert.deepEqual(checkRedirect('myshop://paid?order=7&id=abc', { ...context, actionUrl: 'myshop://paid?order=7', clause: 'PAGE-4' }), []);
  assert.deepEqual(checkAmountShown('Total: 5,00 €', { amount: 500, where: 'page' }), []);
  assert.deepEqual(checkAmountShown('€1,234.56', { amount: 123456, where: 'page' }), []);
  assert.deepEqual(checkAmountShown('12.34 EUR', { amount: 1234, where: 'page' }), []);
  assert.deepEqual(clausesOf(checkAmountShown('500,00 €', { amount: 500, where: 'page' })), ['CHK-8']);
  assert.deepEqual(clausesOf(checkAmountShown('15,00 €', { amount: 500, where: 'page' })), ['CHK-8']);
});

/**
 * One observation per check and clause that makes the check name the clause, and, where given, one
 * it passes: the registry is proven against this table, and every check gets a test of its own.
 */
interface CheckCase {
  clause: string;
  check: { name: string };
  failing: string;
  passes: Problem[] | null;
  fails: Problem[];
}
function checkCase<A extends unknown[]>(
  clause: string,
  check: (...observation: A) => Problem[],
  failing: string,
  observations: { passes?: A; fails: A },
): CheckCase {
  return { clause, check, failing, passes: observations.passes ? check(...observations.passes) : null, fails: check(...observations.fails) };
}

const published = {
  checkout: () => payload('checkout-response--cc--1'),
  payment: () => payload('payment-response--payment-multibanco--1'),
  methods: () => payload('payment-methods-response--tokenization--1'),
};
const without = <T extends Record<string, unknown>>(body: T, field: string): T => {
  delete body[field];
  return body;
};
const changed = <T>(body: T, change: (body: T) => void): T => {
  change(body);
  return body;
};
const created = (body: unknown, status = 200, request: unknown = payload('checkout-request--cc--1')) => exchange('POST', '/checkouts', body, request, status);
const paymentAnswer = (body: unknown, status = 200) => exchange('GET', '/payments/50438', body, undefined, status);
const confirmed = { stage: 'confirmed' } as const;
const methodsAnswer = (body: unknown, status = 200) => exchange('GET', '/customers/x/paymentMethods', body, undefined, status);
const emptyList = { apiVersion: '1.0', date: '2022-01-01T00:00:00Z', success: true, data: [] };
/** What paid for the two methods of the published list: its card and its wallet, by their last digits. */
const paidForPublished = () => {
  const [card, wallet] = published.methods().data;
  return [
    { method: 'CC', card: { number: `411111111111${card.last4Digitis}`, holder: card.holder, expireMonth: card.expireMonth, expireYear: card.expireYear } },
    { method: 'MW', wallet: { countryCode: wallet.countryCode, number: `912345${wallet.last3Digitis}` } },
  ] as const;
};
const paidCard = { method: 'CC', card: { number: '4111111111110809', holder: 'Luís Gonçalves', expireMonth: '05', expireYear: '2026' } } as const;
const page = { url: 'http://target.test/pay/1', status: 200, formCount: 3, text: 'Pay 5,00 €' };
const atmPage = { url: 'http://target.test/pay/2', text: 'Entidade 12797 Referência 002 460 930', referenceText: '002 460 930', entityText: '12797' };
const notification = (body: unknown, method = 'POST'): RecordedRequest => ({ method, url: '/hook', headers: {}, body });
const aboutPayment = { id: '43320', reference: '002460930' };
const notified = (clause: 'EVT-1' | 'EVT-2') => ({ payment: aboutPayment, clause, where: 'the address', address: 'http://receiver.test/hook', withinMs: 1000 });
const refusedAs = (clause: string) => ({ clause, broken: 'a broken rule' });

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

const checkCases: CheckCase[] = [
  checkCase('ENV-1', checkEnvelope, 'no date', {
    passes: [created(published.checkout()), { versioned: true }],
    fails: [created(without(published.checkout(), 'date')), { versioned: true }],
  }),
  checkCase('ENV-1', checkCheckoutCreated, 'no date', { fails: [created(without(published.checkout(), 'date'))] }),
  checkCase('ENV-1', checkPayment, 'success a string', { fails: [paymentAnswer(changed(published.payment(), (body) => (body.success = 'true'))), confirmed] }),
  checkCase('ENV-1', checkStoredMethods, 'no date', { fails: [methodsAnswer(without(published.methods(), 'date'))] }),
  checkCase('ENV-2', checkEnvelope, 'no apiVersion', { fails: [created(without(published.checkout(), 'apiVersion')), { versioned: true }] }),
  checkCase('ENV-2', checkCheckoutCreated, 'no apiVersion', { fails: [created(without(published.checkout(), 'apiVersion'))] }),
  checkCase('ENV-2', checkStoredMethods, 'no apiVersion', { fails: [methodsAnswer(without(published.methods(), 'apiVersion'))] }),
  checkCase('ENV-4', checkServedAtPath, 'a 404', { passes: [created(published.checkout())], fails: [created({}, 404)] }),
  checkCase('ENV-4', checkServedAtPath, 'a redirect to /v1', {
    fails: [{ ...created({}, 308), response: { ...created({}, 308).response, headers: { location: 'http://target.test/v1/checkouts' } } }],
  }),

  checkCase('CHK-1', checkCheckoutCreated, 'a refusal', { fails: [created(published.checkout(), 400)] }),
  checkCase('CHK-1', checkCheckoutUsable, 'a refusal', { passes: [created(published.checkout())], fails: [created(published.checkout(), 422)] }),
  checkCase('CHK-1', checkCheckoutUsable, 'data an array', { fails: [created(changed(published.checkout(), (body) => (body.data = [body.data])))] }),
  checkCase('CHK-1', checkSuccess, 'a 500', { passes: [created(published.checkout()), 'CHK-1'], fails: [created({}, 500), 'CHK-1'] }),
  checkCase('CHK-2', checkCheckoutCreated, 'an empty paymentId', { fails: [created(changed(published.checkout(), (body) => (body.data.paymentId = '')))] }),
  checkCase('CHK-2', checkCheckoutUsable, 'a relative checkoutUrl', {
    fails: [created(changed(published.checkout(), (body) => (body.data.checkoutUrl = '/pay/1')))],
  }),
  checkCase('CHK-2', checkCheckoutUsable, 'no id', { fails: [created(changed(published.checkout(), (body) => delete body.data.id))] }),
  checkCase('CHK-2', checkCheckoutUrlOpens, 'a 404', { passes: [{ url: page.url, status: 200 }], fails: [{ url: page.url, status: 404 }] }),
  checkCase('CHK-2', checkCheckoutUrlOpens, 'no answer', { fails: [{ url: page.url, error: 'fetch failed' }] }),
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
  checkCase('CHK-8', checkAmountShown, 'major units read as minor', { fails: ['500,00 €', { amount: 500, where: 'page' }] }),
  checkCase('CHK-9', checkRefused, 'a 201', { fails: [created({}, 201), refusedAs('CHK-9')] }),
  checkCase('CHK-10', checkRefused, 'a 200', { fails: [created({}), refusedAs('CHK-10')] }),
  ...checkoutAnswerCases(),
  checkCase('CHK-11', checkRefused, 'a 500', { fails: [created({}, 500), refusedAs('CHK-11')] }),
  checkCase('CHK-12', checkRefusedAndStillServing, 'a 500 for the broken body', {
    passes: [created({}, 400), created(published.checkout()), { broken: 'a JSON array' }],
    fails: [created({}, 500), created(published.checkout()), { broken: 'a JSON array' }],
  }),
  checkCase('CHK-12', checkRefusedAndStillServing, 'a 503 after the refusal', { fails: [created({}, 400), created({}, 503), { broken: 'a JSON array' }] }),

  checkCase('PAGE-1', checkPaymentPageOpens, 'a 500', { passes: [page], fails: [{ ...page, status: 500 }] }),
  checkCase('PAGE-1', checkPaymentPageOpens, 'no response', { fails: [{ ...page, status: null }] }),
  checkCase('PAGE-1', checkPaymentPageOpens, 'no form', { fails: [{ ...page, formCount: 0 }] }),
  checkCase('PAGE-1', checkPaymentPageOpens, 'an ATM page without the reference', {
    passes: [{ ...page, formCount: 0, text: atmPage.text }, { atm: true }],
    fails: [{ ...page, formCount: 0, text: 'Not found' }, { atm: true }],
  }),
  checkCase('PAGE-2', checkFormInsideWidgets, 'nothing rendered', {
    passes: [{ scriptUrl: page.url, formCount: 2, html: '<input>' }],
    fails: [{ scriptUrl: page.url, formCount: 0, html: '' }],
  }),
  checkCase('PAGE-3', checkRedirect, 'no id', {
    fails: ['https://shop.test/done', { actionUrl: 'https://shop.test/done', checkoutId: 'abc', clause: 'PAGE-3' }],
  }),
  checkCase('PAGE-4', checkRedirect, 'a mangled deep link', {
    fails: ['myshop:/paid?id=abc', { actionUrl: 'myshop://paid', checkoutId: 'abc', clause: 'PAGE-4' }],
  }),
  checkCase('PAGE-5', checkAtmPageReference, 'a reference cut to 8 digits', {
    passes: [atmPage, { paymentId: '1', apiReference: '002460930' }],
    fails: [{ ...atmPage, referenceText: '002 460 93' }, { paymentId: '1' }],
  }),
  checkCase('PAGE-5', checkAtmPageReference, 'no entity', { fails: [{ ...atmPage, entityText: ' ' }, { paymentId: '1' }] }),
  checkCase('PAGE-5', checkAtmPageReference, "another entity than the API's", {
    passes: [
      { ...atmPage, referenceText: atmPage.text, entityText: atmPage.text },
      { paymentId: '1', apiReference: '002460930', apiEntity: '12797' },
    ],
    fails: [atmPage, { paymentId: '1', apiEntity: '12798' }],
  }),
  checkCase('PAGE-5', checkAtmPageReference, "another reference than the API's", {
    passes: [atmPage, { paymentId: '1' }],
    fails: [atmPage, { paymentId: '1', apiReference: '002460931' }],
  }),
  checkCase('PAGE-6', checkConsentOffer, 'no offer with allowRegistration', {
    passes: [{ url: page.url, consentOffered: true }, { allowRegistration: true }],
    fails: [{ url: page.url, consentOffered: false }, { allowRegistration: true }],
  }),
  checkCase('PAGE-6', checkConsentOffer, 'an offer without allowRegistration', {
    passes: [{ url: page.url, consentOffered: false }, { allowRegistration: false }],
    fails: [{ url: page.url, consentOffered: true }, { allowRegistration: false }],
  }),
  checkCase('PAGE-7', checkNothingPostedToAction, 'a POST beside the browser', {
    passes: [[notification(undefined, 'GET')], { browserVisited: true }],
    fails: [[notification(undefined, 'GET'), notification({ state: 'paid' })], { browserVisited: true }],
  }),
  checkCase('PAGE-7', checkNothingPostedToAction, 'a GET with no browser', {
    passes: [[], { browserVisited: false }],
    fails: [[notification(undefined, 'GET')], { browserVisited: false }],
  }),

  checkCase('TOK-1', checkMethodStored, 'nothing stored', {
    passes: [methodsAnswer(published.methods()), { paidWith: paidCard, clause: 'TOK-1' }],
    fails: [methodsAnswer(emptyList), { paidWith: paidCard, clause: 'TOK-1' }],
  }),
  checkCase('TOK-2', checkMethodStored, 'nothing stored', { fails: [methodsAnswer(emptyList), { paidWith: paidCard, clause: 'TOK-2' }] }),
  checkCase('TOK-2', checkNothingStored, 'a method stored', {
    fails: [methodsAnswer(published.methods()), { clause: 'TOK-2', why: 'where the customer declined' }],
  }),
  checkCase('TOK-3', checkNothingStored, 'a method stored', {
    passes: [methodsAnswer(emptyList), { clause: 'TOK-3', why: 'x' }],
    fails: [methodsAnswer(published.methods()), { clause: 'TOK-3', why: 'x' }],
  }),
  checkCase('TOK-4', checkNothingStored, 'a method stored', { fails: [methodsAnswer(published.methods()), { clause: 'TOK-4', why: 'x' }] }),
  checkCase('TOK-5', checkOnlyStorableTypes, 'an MB stored', {
    fails: [methodsAnswer(changed(published.methods(), (body) => body.data.push({ type: 'MB', uuid: '95668f83-7623-4de5-91c7-ac447c504ebf' })))],
  }),
  checkCase('TOK-6', checkNothingStored, "another customer's method", { fails: [methodsAnswer(published.methods()), { clause: 'TOK-6', why: 'x' }] }),
  checkCase('TOK-6', checkOnlyOwnMethods, 'a method this customer never paid with, beside its own', {
    passes: [methodsAnswer(published.methods()), { before: [], paid: paidForPublished() }],
    fails: [methodsAnswer(published.methods()), { before: [], paid: paidForPublished().slice(0, 1) }],
  }),

  checkCase('PML-1', checkStoredMethods, 'data an object', { fails: [methodsAnswer({ ...emptyList, data: {} })] }),
  checkCase('PML-1', checkMethodCount, 'one element for two stored', {
    passes: [methodsAnswer(published.methods()), { stored: 2 }],
    fails: [methodsAnswer(published.methods()), { stored: 3 }],
  }),
  checkCase('PML-1', checkSuccess, 'a 404', { fails: [methodsAnswer({}, 404), 'PML-1'] }),
  checkCase('PML-1', checkListAnswered, 'a 500 (a 404 is an empty list, PML-7)', { passes: [methodsAnswer({}, 404)], fails: [methodsAnswer({}, 500)] }),
  checkCase('PML-1', checkMethodCount, "another customer's method counted as this one's", {
    passes: [methodsAnswer(published.methods()), { stored: 1, foreign: [published.methods().data[1]] }],
    fails: [methodsAnswer(published.methods()), { stored: 1 }],
  }),
  checkCase('PML-2', checkStoredMethods, 'code instead of type', { fails: [methodsAnswer(payload('payment-methods-response--getPaymentMethods--1'))] }),
  checkCase('PML-3', checkStoredMethods, 'expireMonth of one digit', {
    fails: [methodsAnswer(changed(published.methods(), (body) => (body.data[0].expireMonth = '5')))],
  }),
  checkCase('PML-3', checkMethodTypeListed, 'no CC', {
    passes: [methodsAnswer(published.methods()), { type: 'CC' }],
    fails: [methodsAnswer(emptyList), { type: 'CC' }],
  }),
  checkCase('PML-4', checkStoredMethods, 'last3Digitis of four digits', {
    fails: [methodsAnswer(changed(published.methods(), (body) => (body.data[1].last3Digitis = '2631')))],
  }),
  checkCase('PML-4', checkMethodTypeListed, 'no MW', {
    passes: [methodsAnswer(published.methods()), { type: 'MW' }],
    fails: [methodsAnswer(emptyList), { type: 'MW' }],
  }),
  checkCase('PML-5', checkMethodStored, 'another expiry', {
    fails: [methodsAnswer(published.methods()), { paidWith: { method: 'CC', card: { ...paidCard.card, expireYear: '2027' } }, clause: 'TOK-1' }],
  }),
  checkCase('PML-6', checkStoredMethods, 'a uuid twice', {
    fails: [methodsAnswer(changed(published.methods(), (body) => (body.data[1].uuid = body.data[0].uuid)))],
  }),

  checkCase('REF-1', checkReferenceCreated, 'a 500', {
    passes: [exchange('POST', '/payments/references', {}, {}, 201)],
    fails: [exchange('POST', '/payments/references', {}, {}, 500)],
  }),
  checkCase('REF-2', checkPayment, 'a reference of 8 digits', {
    fails: [paymentAnswer(changed(published.payment(), (body) => (body.data.referenceDetails.reference = '02492617'))), confirmed],
  }),
  checkCase('REF-3', checkPayment, 'no entity', {
    fails: [paymentAnswer(changed(published.payment(), (body) => delete body.data.referenceDetails.entity)), confirmed],
  }),
  checkCase('REF-3', checkSuccess, 'a 404', { fails: [paymentAnswer({}, 404), 'REF-3'] }),
  checkCase('REF-4', checkPayment, 'updatedAt without offset', {
    fails: [paymentAnswer(changed(published.payment(), (body) => (body.data.updatedAt = '2022-03-09 14:45:56'))), confirmed],
  }),
  checkCase('REF-5', checkPayment, 'the amount a string', {
    fails: [paymentAnswer(changed(published.payment(), (body) => (body.data.amount = '100'))), confirmed],
  }),
  checkCase('REF-5', checkPaymentEchoes, 'another amount', {
    fails: [paymentAnswer(changed(published.payment(), (body) => (body.data.amount = 1))), { requested: payload('reference-request--payment-multibanco--1') }],
  }),
  checkCase('REF-6', checkConfirmed, 'still pending', {
    fails: [paymentAnswer(changed(published.payment(), (body) => (body.data.stateDetails.state = 'pending')))],
  }),
  checkCase('REF-7', checkNotConfirmed, 'confirmed', {
    passes: [paymentAnswer(changed(published.payment(), (body) => (body.data.stateDetails.state = 'pending'))), { why: 'x' }],
    fails: [paymentAnswer(published.payment()), { why: 'x' }],
  }),
  checkCase('REF-8', checkDistinctReferences, 'one reference twice', { fails: [[published.payment().data, { ...published.payment().data, id: '2' }]] }),
  checkCase('REF-9', checkRefused, 'a 200', { fails: [exchange('POST', '/payments/references', {}, {}, 200), refusedAs('REF-9')] }),
  ...referenceAnswerCases(),

  checkCase('EVT-1', checkNotified, 'nothing received', {
    passes: [[notification(payload('notification--payload-example--1'))], notified('EVT-1')],
    fails: [[], notified('EVT-1')],
  }),
  checkCase('EVT-2', checkNotified, 'nothing received', {
    passes: [[notification({ other: '1' }), notification({ id: '43320' })], notified('EVT-2')],
    fails: [[], notified('EVT-2')],
  }),
  checkCase('EVT-3', checkNotified, 'nothing naming the payment', { fails: [[notification({ status: 'paid' })], notified('EVT-2')] }),
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

for (const { clause, check, failing, passes, fails } of checkCases) {
  test(`${check.name} names ${clause} on ${failing}`, () => {
    assert.ok(
      fails.some((problem) => problem.clause === clause),
      JSON.stringify(fails),
    );
    assert.ok(fails.every((problem) => problem.message.length > 0));
    if (passes) assert.deepEqual(passes, []);
  });
}

test('the registry gives every MUST and SHOULD clause of the catalogue a check, and names no other clause', () => {
  const judged = clauses()
    .filter((clause) => clause.level !== 'INFO')
    .map((clause) => clause.id);
  for (const id of judged) assert.ok((checksByClause[id] ?? []).length > 0, `${id} has no check in the registry`);
  assert.deepEqual(
    Object.keys(checksByClause).filter((id) => !judged.includes(id)),
    [],
  );
});

test('each check of the registry names its clause on an observation of the table, and the table holds nothing else', () => {
  const pair = (clause: string, check: { name: string }) => `${clause} ${check.name}`;
  const registered = Object.entries(checksByClause).flatMap(([clause, checks]) => checks.map((check) => pair(clause, check)));
  const tabled = new Set(checkCases.map(({ clause, check }) => pair(clause, check)));
  assert.deepEqual(
    registered.filter((entry) => !tabled.has(entry)),
    [],
  );
  assert.deepEqual(
    [...tabled].filter((entry) => !registered.includes(entry)),
    [],
  );
});

test('the registry lists each check once', () => {
  const names = registry.map((entry) => entry.check.name);
  assert.deepEqual(
    names.filter((name, index) => names.indexOf(name) !== index),
    [],
  );
});

test('holdsPartOf: a card stored with one value written wrong still holds part of the payment; another card or wallet does not', () => {
  const paid = { method: 'CC' as const, card: { number: '4111111111111111', holder: 'Inês Ferreira', expireMonth: '07', expireYear: '2031' } };
  const stored = {
    type: 'CC',
    uuid: '0b7e4f6a-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
    brand: 'VISA',
    last4Digitis: '1111',
    holder: 'INES FERREIRA',
    expireMonth: '07',
    expireYear: '2031',
  };
  assert.equal(holdsPartOf({ ...stored, last4Digitis: '1112' } as never, paid), true);
  assert.equal(holdsPartOf({ ...stored, expireYear: '2032' } as never, paid), true);
  assert.equal(holdsPartOf({ ...stored, last4Digitis: '4242', holder: 'Rui Costa' } as never, paid), false);
  const wallet = { method: 'MW' as const, wallet: { countryCode: '351', number: '912345678' } };
  assert.equal(holdsPartOf({ type: 'MW', uuid: stored.uuid, countryCode: '34', last3Digitis: '678' } as never, wallet), true);
  assert.equal(holdsPartOf({ type: 'MW', uuid: stored.uuid, countryCode: '351', last3Digitis: '679' } as never, wallet), false);
  assert.equal(holdsPartOf(stored as never, wallet), false);
});

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

test('a stateless mock answers its example whatever was asked: with answersItsRequest false, CHK-5 is not judged', () => {
  const mobile = exchange('POST', '/checkouts', payload('checkout-response--cc--1'), payload('checkout-request--mobile--1'));
  assert.deepEqual(clausesOf(checkCheckoutCreated(mobile)), ['CHK-5']);
  assert.deepEqual(checkCheckoutCreated(mobile, { answersItsRequest: false }), []);
  assert.deepEqual(clausesOf(checkCheckoutAnswer(mobile, { answersItsRequest: false })), []);
});
