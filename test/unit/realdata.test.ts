/**
 * The published examples of shared/realdata: those that agree with the reference pass the schemas
 * (no false positive on real data), and each departure the reference forbids is refused.
 */
import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateRequest, validateResponse, type SchemaProblem } from '../../src/core/schemas.ts';
import { readRealdata, type RealdataExample } from '../../scripts/render-generated.ts';

const realdata = readRealdata();
const skip = realdata ? false : 'shared/realdata is not beside this checkout';

const validators: Record<string, (payload: unknown) => SchemaProblem[]> = {
  'checkout-request': (payload) => validateRequest('createCheckout', payload),
  'reference-request': (payload) => validateRequest('createReference', payload),
  'checkout-response': (payload) => validateResponse('createCheckout', payload),
  'payment-methods-response': (payload) => validateResponse('listMethods', payload),
  'payment-response': (payload) => validateResponse('getPayment', payload),
};
/** Operations whose body the reference does not show (4.3, 6): observations, never judged. */
const notShown = ['reference-response', 'notification'];

const examples = realdata ?? [];
const example = (file: string): RealdataExample => {
  const found = examples.find((e) => e.file === file);
  assert.ok(found, `${file} missing from shared/realdata`);
  return found;
};

test('every realdata example is either judged by a schema or known to be not shown', { skip }, () => {
  assert.ok(examples.length > 0);
  for (const { file, operation, agreesWithContract } of examples) {
    if (notShown.includes(operation)) assert.equal(agreesWithContract, false, `${file}: not shown, so it cannot agree`);
    else assert.ok(validators[operation], `${file}: no schema for operation ${operation}`);
  }
  assert.deepEqual([...new Set(examples.filter((e) => notShown.includes(e.operation)).map((e) => e.operation))].sort(), [...notShown].sort());
});

for (const { file, operation, payload, agreesWithContract } of examples) {
  if (notShown.includes(operation)) continue;
  test(`${file} ${agreesWithContract ? 'passes' : 'is refused by'} its schema`, () => {
    const problems = validators[operation](payload);
    if (agreesWithContract) assert.deepEqual(problems, []);
    else assert.ok(problems.length > 0, `${file} departs from the reference but passed`);
  });
}

/** A copy of an object with one key renamed, keeping its position. */
const renamed = (object: Record<string, unknown>, from: string, to: string) =>
  Object.fromEntries(Object.entries(object).map(([key, value]) => [key === from ? to : key, value]));

type Envelope = { data: Record<string, unknown> };
type StoredList = { data: Record<string, unknown>[] };

/** Applies one departure to a copy of an agreeing example and expects a refusal naming the clause. */
function assertRefused(problems: SchemaProblem[], clause: ClauseId) {
  assert.ok(problems.length > 0, 'accepted');
  assert.ok(
    problems.some((p) => p.clauses.includes(clause)),
    `${JSON.stringify(problems)} names no ${clause}`,
  );
}

const storedMethodDepartures: [string, number, (method: Record<string, unknown>) => Record<string, unknown>, ClauseId][] = [
  ['last4Digits for last4Digitis', 0, (m) => renamed(m, 'last4Digitis', 'last4Digits'), 'PML-3'],
  ['expiryMonth for expireMonth', 0, (m) => renamed(m, 'expireMonth', 'expiryMonth'), 'PML-3'],
  ['expiryYear for expireYear', 0, (m) => renamed(m, 'expireYear', 'expiryYear'), 'PML-3'],
  ['last3Digits for last3Digitis', 1, (m) => renamed(m, 'last3Digitis', 'last3Digits'), 'PML-4'],
  ['code for type (card)', 0, (m) => renamed(m, 'type', 'code'), 'PML-2'],
  ['code for type (wallet)', 1, (m) => renamed(m, 'type', 'code'), 'PML-2'],
];
for (const [name, index, depart, clause] of storedMethodDepartures) {
  test(`stored payment methods: ${name} is refused (${clause})`, { skip }, () => {
    const list = structuredClone(example('payment-methods-response--tokenization--1.json').payload) as StoredList;
    list.data[index] = depart(list.data[index]);
    assertRefused(validateResponse('listMethods', list), clause);
  });
}

const paymentDepartures: [string, (data: Record<string, unknown>) => void, ClauseId][] = [
  ["the wallet payments' alphanumeric reference A0000A585", (d) => ((d.referenceDetails as Record<string, unknown>).reference = 'A0000A585'), 'REF-2'],
  ['a reference of 8 digits', (d) => ((d.referenceDetails as Record<string, unknown>).reference = '02492617'), 'REF-2'],
  ['the reference as a number', (d) => ((d.referenceDetails as Record<string, unknown>).reference = 2492617), 'REF-2'],
  ['no type', (d) => delete d.type, 'REF-3'],
  ['no entity', (d) => delete (d.referenceDetails as Record<string, unknown>).entity, 'REF-3'],
  ['a timestamp without offset', (d) => (d.updatedAt = '2022-03-09T14:45:56'), 'REF-4'],
];
for (const [name, depart, clause] of paymentDepartures) {
  test(`payment: ${name} is refused (${clause})`, { skip }, () => {
    const payment = structuredClone(example('payment-response--payment-multibanco--1.json').payload) as Envelope;
    depart(payment.data);
    assertRefused(validateResponse('getPayment', payment), clause);
  });
}

test('checkout: createdAt with T and offset, and a state other than PaymentReady, are refused', { skip }, () => {
  const checkout = () => structuredClone(example('checkout-response--cc--1.json').payload) as Envelope;
  const withIsoCreatedAt = checkout();
  withIsoCreatedAt.data.createdAt = '2022-01-03T14:16:17+00:00';
  assertRefused(validateResponse('createCheckout', withIsoCreatedAt), 'CHK-3');
  const withoutApiVersion = checkout() as Envelope & { apiVersion?: string };
  delete withoutApiVersion.apiVersion;
  assertRefused(validateResponse('createCheckout', withoutApiVersion), 'ENV-2');
  const otherState = checkout();
  (otherState.data.stateDetails as Record<string, unknown>).state = 'pending';
  assertRefused(validateResponse('createCheckout', otherState), 'CHK-4');
});
