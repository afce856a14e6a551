/** The checks of payment references and the payments they make (src/checks/references.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkConfirmed,
  checkDistinctReferences,
  checkNotConfirmed,
  checkPayment,
  checkPaymentEchoes,
  checkReferenceCreated,
  sameInstant,
  writtenPastTheMillisecond,
} from '../../src/checks/index.ts';
import * as checksOfFile from '../../src/checks/references.ts';
import {
  examples,
  payload,
  exchange,
  clausesOf,
  confirmed,
  payment,
  checkCase,
  published,
  changed,
  paymentAnswer,
  testCheckCases,
  type CheckCase,
} from '../support/check-cases.ts';

test('published payment examples: agreeing ones pass, departing ones are named', () => {
  for (const [name, example] of Object.entries(examples)) {
    if (example.operation !== 'payment-response') continue;
    const problems = payment(example.payload);
    if (example.agreesWithContract) assert.deepEqual(problems, [], name);
    else assert.notDeepEqual(problems, [], name);
  }
  assert.ok(clausesOf(payment(payload('payment-response--payment-mbway--1'))).includes('REF-2'));
});

test('the published reference request is echoed by the published payment', () => {
  const requested = payload('reference-request--payment-multibanco--1');
  assert.deepEqual(checkPaymentEchoes(exchange('GET', '/payments/50438', payload('payment-response--payment-multibanco--1')), { requested }), []);
});

test('validDate is echoed as the same instant to the millisecond, in any offset, the digits past it cut or rounded', () => {
  const requested = {
    ...payload('reference-request--payment-multibanco--1'),
    validDate: { start: '2030-01-01T10:00:00.123456+05:30', end: '2030-01-02T10:00:00.5-03:00' },
  };
  const echoed = (start: string, end: string) => {
    const answer = payload('payment-response--payment-multibanco--1');
    answer.data.amount = requested.amount;
    answer.data.validDate = { start, end };
    return clausesOf(checkPaymentEchoes(exchange('GET', '/payments/50438', answer), { requested }));
  };
  assert.deepEqual(echoed('2030-01-01T04:30:00.123456000Z', '2030-01-02T13:00:00.500z'), []);
  assert.deepEqual(echoed('2030-01-01T05:30:00.123456+01:00', '2030-01-02T14:00:00.5+0100'), []);
  assert.deepEqual(echoed('2030-01-01T04:30:00.123Z', '2030-01-02T15:00:00.500+02:00'), []);
  assert.deepEqual(echoed('2030-01-01T04:30:00.124Z', '2030-01-02T13:00:00.5Z'), ['REF-5']);
  assert.deepEqual(echoed('2030-01-01T10:00:00.123456+05:30', '2030-01-02T10:00:00-03:00'), ['REF-5']);
});

test('sameInstant: to the millisecond, in any offset, the digits past it cut or rounded (half up, across a second, a minute, a day, a year)', () => {
  const lastOfTheYear = '2030-12-31T23:59:59.9995Z';
  for (const same of [
    '2030-12-31T23:59:59.999Z',
    '2031-01-01T00:00:00Z',
    '2031-01-01T00:00:00.000000+00:00',
    '2031-01-01T05:45:00.000+05:45',
    '2030-12-31T20:30:00-03:30',
    '2030-12-31T23:59:59.999-00:00',
  ])
    assert.ok(sameInstant(lastOfTheYear, same) && sameInstant(same, lastOfTheYear), same);
  for (const other of ['2030-12-31T23:59:59.998Z', '2031-01-01T00:00:00.001Z', '2031-01-01T00:00:00.000+05:45', '2031-01-01T00:00:00'])
    assert.ok(!sameInstant(lastOfTheYear, other) && !sameInstant(other, lastOfTheYear), other);
  // Just short of half a millisecond rounds down: the next second is another instant.
  assert.ok(!sameInstant('2030-12-31T23:59:59.999499999z', '2031-01-01T00:00:00Z'));
  assert.ok(sameInstant('2030-12-31T23:59:59.999499999z', '2030-12-31T23:59:59.999Z'));
  // Half a millisecond rounded to even goes either way, as cut or as rounded half up.
  assert.ok(sameInstant('2030-06-01T12:00:00.1225+05:45', '2030-06-01T06:15:00.122Z'));
  assert.ok(sameInstant('2030-06-01T12:00:00.1225+05:45', '2030-06-01T06:15:00.123Z'));
  assert.ok(sameInstant('2030-06-01T12:00:00.5Z', '2030-06-01T12:00:00.500000000Z'));
  assert.ok(!sameInstant('2030-06-01T12:00:00.123Z', '2030-06-01T12:00:00.124Z'));
  assert.ok(!sameInstant('soon', 'soon'));
  assert.ok(!sameInstant(undefined, '2030-06-01T12:00:00Z'));
});

test('writtenPastTheMillisecond: digits past the third of a second, in any offset', () => {
  assert.deepEqual(
    [
      '2030-06-01T12:00:00Z',
      '2030-06-01T12:00:00.5+05:45',
      '2030-06-01T12:00:00.123-00:00',
      '2030-06-01T12:00:00.1234Z',
      '2030-06-01T12:00:00.123456789+05:30',
      'soon',
    ].map(writtenPastTheMillisecond),
    [false, false, false, true, true, false],
  );
});

test('an echo that is not of the type sent is REF-5, not a crash: availableMethods an object, validDate a string', () => {
  const requested = payload('reference-request--payment-multibanco--1');
  const answer = payload('payment-response--payment-multibanco--1');
  answer.data.amount = requested.amount;
  answer.data.availableMethods = answer.data.availableMethods[0];
  answer.data.validDate = 'soon';
  assert.deepEqual([...new Set(clausesOf(checkPaymentEchoes(exchange('GET', '/payments/50438', answer), { requested })))], ['REF-5']);
});

test('benign variants of payments produce no problems', () => {
  const withoutApiVersion = payload('payment-response--payment-multibanco--1');
  delete withoutApiVersion.apiVersion;
  assert.deepEqual(payment(withoutApiVersion), []);
  const otherState = payload('payment-response--payment-multibanco--1');
  otherState.data.stateDetails.state = 'pending';
  otherState.data.createdAt = '2022-03-09T15:45:56+01:00';
  assert.deepEqual(payment(otherState), []);
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

const checkCases: CheckCase[] = [
  checkCase('ENV-1', checkPayment, 'success a string', { fails: [paymentAnswer(changed(published.payment(), (body) => (body.success = 'true'))), confirmed] }),
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
];

testCheckCases(checksOfFile, checkCases);
