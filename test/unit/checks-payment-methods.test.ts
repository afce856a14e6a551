/** The checks of stored payment methods (src/checks/payment-methods.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  holdsPartOf,
  checkListAnswered,
  checkMethodCount,
  checkMethodStored,
  checkMethodTypeListed,
  checkNothingStored,
  checkOnlyOwnMethods,
  checkNoneOfOthers,
  checkOnlyStorableTypes,
  checkStoredMethods,
} from '../../src/checks/index.ts';
import * as checksOfFile from '../../src/checks/payment-methods.ts';
import {
  examples,
  payload,
  exchange,
  clausesOf,
  methods,
  checkCase,
  published,
  without,
  changed,
  methodsAnswer,
  testCheckCases,
  type CheckCase,
} from '../support/check-cases.ts';

test('published stored-method examples: agreeing ones pass, departing ones are named', () => {
  for (const [name, example] of Object.entries(examples)) {
    if (example.operation !== 'payment-methods-response') continue;
    const problems = methods(example.payload);
    if (example.agreesWithContract) assert.deepEqual(problems, [], name);
    else assert.notDeepEqual(problems, [], name);
  }
  assert.deepEqual(clausesOf(methods(payload('payment-methods-response--getPaymentMethods--1'))), ['PML-2'], 'code instead of type');
  const otherSpelling = payload('payment-methods-response--getPaymentMethods--1');
  for (const method of otherSpelling.data) method.type = method.code;
  assert.deepEqual(clausesOf(methods(otherSpelling)), ['PML-3', 'PML-4'], 'last4Digits, expiryMonth, last3Digits');
});

test('benign variants of stored methods produce no problems', () => {
  const upperCase = payload('payment-methods-response--tokenization--1');
  upperCase.data[0].uuid = upperCase.data[0].uuid.toUpperCase();
  upperCase.data[1].nickname = 'phone';
  assert.deepEqual(methods(upperCase), []);
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

const checkCases: CheckCase[] = [
  checkCase('ENV-1', checkStoredMethods, 'no date', { fails: [methodsAnswer(without(published.methods(), 'date'))] }),
  checkCase('ENV-2', checkStoredMethods, 'no apiVersion', { fails: [methodsAnswer(without(published.methods(), 'apiVersion'))] }),
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
  checkCase('TOK-6', checkNoneOfOthers, "another customer's method of the same card (its uuid)", {
    passes: [methodsAnswer(published.methods()), { others: [{ ...published.methods().data[0], uuid: '0f6c1a52-4bd0-4c3e-a0d4-3b0b8f1a2c77' }], why: 'x' }],
    fails: [methodsAnswer(published.methods()), { others: [published.methods().data[0]], why: 'x' }],
  }),
  checkCase('PML-1', checkStoredMethods, 'data an object', { fails: [methodsAnswer({ ...emptyList, data: {} })] }),
  checkCase('PML-1', checkMethodCount, 'one element for two stored', {
    passes: [methodsAnswer(published.methods()), { stored: 2 }],
    fails: [methodsAnswer(published.methods()), { stored: 3 }],
  }),
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
];

testCheckCases(checksOfFile, checkCases);
