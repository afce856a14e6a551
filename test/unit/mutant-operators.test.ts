/** The catalogue generated from operators × sites: every documented answer field with clauses is a site, and every operator changes what it fits. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  atOnceFieldMutants,
  atOnceWriteMutants,
  deliveryMutants,
  deliveryOperators,
  fieldMutants,
  framingMutants,
  generatedMutants,
  operators,
  sitesOf,
} from '../../mutants/operators.ts';
import type { Delivery, ProxyContext, ProxyRequest, ProxyResponse } from '../../mutants/proxy.ts';

const answer = (data: unknown): ProxyResponse => ({
  status: 200,
  headers: {},
  text: '',
  json: { apiVersion: '1.0', date: '2026-01-01T00:00:00Z', success: true, data },
});
const samples: Record<string, unknown> = {
  createCheckout: {
    id: 'c1',
    paymentId: 'p1',
    checkoutUrl: 'https://pay.example/c1',
    createdAt: '2026-01-01 10:00:00',
    stateDetails: { state: 'PaymentReady', timestamp: '2026-01-01T10:00:00Z' },
  },
  getPayment: {
    id: 'p1',
    type: 'payment',
    referenceDetails: { entity: '12345', reference: '012345678' },
    stateDetails: { state: 'pending', createdAt: '2026-01-01T10:00:00Z' },
    amount: 500,
    createdAt: '2026-01-01T10:00:00Z',
    updatedAt: '2026-01-01T10:00:00Z',
    validDate: { start: '2026-01-01T10:00:00Z', end: '2026-01-02T10:00:00Z' },
    availableMethods: [{ code: 'MB', type: 'ATM', name: 'Multibanco' }],
  },
  listMethods: [
    { type: 'CC', uuid: '2f1f3c1e-8a8e-4c43-9d55-7a9b0b0e7a10', brand: 'VISA', last4Digitis: '0809', holder: 'Ana', expireMonth: '05', expireYear: '2030' },
    { type: 'MW', uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7', countryCode: '351', last3Digitis: '123' },
  ],
  createReference: { id: 'p1' },
};

test('the sites are the answer fields the schemas give clauses to, each operator at each site it fits, named site-operator', () => {
  const sites = sitesOf();
  assert.ok(sites.some((site) => site.name === 'payment.referenceDetails.reference' && site.clauses[0] === 'REF-2'));
  assert.ok(sites.some((site) => site.name === 'stored-method.last3Digitis' && site.clauses[0] === 'PML-4'));
  assert.ok(sites.some((site) => site.name === 'checkout.stateDetails.timestamp' && site.clauses[0] === 'CHK-4'));
  const expected = sites.flatMap((site) => operators.filter((operator) => operator.fits(site)).map((operator) => `${site.name}-${operator.name}`));
  assert.deepEqual(fieldMutants.map((mutant) => mutant.name).sort(), expected.sort());
  assert.equal(
    generatedMutants.length,
    fieldMutants.length + deliveryMutants.length + framingMutants.length + atOnceFieldMutants.length + atOnceWriteMutants.length,
  );
});

test('every generated mutant changes the answer of an operation its site is in (a value that decays, once its resource was first answered long enough ago)', async () => {
  const longAgo = { memo: new Map(Object.keys(samples).map((route) => [`first answered: ${route} p1`, 0])) } as unknown as ProxyContext;
  // Another resource answered first, with other ids: what an operator that repeats a value repeats.
  const another = (data: unknown) =>
    JSON.parse(
      JSON.stringify(data)
        .replace(/"c1"/g, '"c0"')
        .replace(/"p1"/g, '"p0"')
        .replace(/"012345678"/g, '"987654321"'),
    );
  for (const mutant of fieldMutants) {
    let changed = false;
    for (const [route, data] of Object.entries(samples))
      await mutant.transform.response?.(answer(another(data)), { route, param: 'p0' } as ProxyRequest, longAgo);
    for (const [route, data] of Object.entries(samples)) {
      const response = answer(structuredClone(data));
      const before = JSON.stringify(response.json);
      await mutant.transform.response?.(response, { route, param: 'p1' } as ProxyRequest, longAgo);
      changed ||= JSON.stringify(response.json) !== before;
    }
    assert.ok(changed, mutant.name);
  }
});

test("an identifier repeated is the first answer's, or in a list the first element's, on the clause that owns its being distinct", async () => {
  const proxy = { memo: new Map() } as unknown as ProxyContext;
  const repeated = (name: string) => generatedMutants.find((mutant) => mutant.name === name)!;
  assert.deepEqual(
    ['checkout.id-repeated', 'checkout.paymentId-repeated', 'stored-method.uuid-repeated', 'payment.referenceDetails.reference-repeated'].map(
      (name) => repeated(name).clause,
    ),
    ['CHK-7', 'CHK-7', 'PML-6', 'REF-8'],
  );
  const list = answer(structuredClone(samples.listMethods));
  await repeated('stored-method.uuid-repeated').transform.response?.(list, { route: 'listMethods', param: 'u1' } as ProxyRequest, proxy);
  const [one, two] = (list.json as { data: { uuid: string }[] }).data;
  assert.equal(two.uuid, one.uuid);
  for (const id of ['c0', 'c1']) {
    const created = answer({ ...(samples.createCheckout as object), id });
    await repeated('checkout.id-repeated').transform.response?.(created, { route: 'createCheckout', param: null } as ProxyRequest, proxy);
    assert.equal((created.json as { data: { id: string } }).data.id, 'c0');
  }
});

test("a creation at once shows the other's value at a field that must be distinct, on the clause that owns it; one alone keeps its own", async () => {
  assert.deepEqual(
    atOnceFieldMutants.map(({ name, clause }) => `${name} ${clause}`),
    [
      'checkout.id-collides-at-once CHK-7',
      'checkout.paymentId-collides-at-once CHK-7',
      'payment.referenceDetails.reference-collides-at-once REF-8',
      'stored-method.uuid-collides-at-once PML-6',
    ],
  );
  const { transform } = atOnceFieldMutants.find((mutant) => mutant.name === 'checkout.paymentId-collides-at-once')!;
  const proxy = { memo: new Map(), mayRace: () => undefined } as unknown as ProxyContext;
  const create = async (paymentId: string, afterMs: number) => {
    await new Promise((resolve) => setTimeout(resolve, afterMs));
    const request = {
      route: 'createCheckout',
      param: null,
      json: { merchantTransactionId: paymentId, payment: { customer: { uuid: 'u1' } } },
    } as unknown as ProxyRequest;
    await transform.request?.(request, proxy);
    const response = answer({ ...(samples.createCheckout as object), id: `c-${paymentId}`, paymentId });
    await transform.response?.(response, request, proxy);
    return (response.json as { data: { paymentId: string } }).data.paymentId;
  };
  assert.deepEqual(await Promise.all([create('p1', 0), create('p2', 5)]), ['p1', 'p1']);
  assert.equal(await create('p3', 0), 'p3');
});

test("a stored method made by a payment at once with another of its customer's shows the other's uuid in the customer's list, told by the means paid with", async () => {
  const { transform } = atOnceFieldMutants.find((mutant) => mutant.name === 'stored-method.uuid-collides-at-once')!;
  const checkouts = new Map([['k1', { request: { payment: { customer: { uuid: 'u1' } } } }]]);
  const proxy = { memo: new Map(), checkouts, mayRace: () => undefined } as unknown as ProxyContext;
  const pay = async (json: unknown, afterMs: number) => {
    await new Promise((resolve) => setTimeout(resolve, afterMs));
    const request = { route: 'payCheckout', param: 'k1', json } as unknown as ProxyRequest;
    await transform.request?.(request, proxy);
    await transform.response?.(answer({ success: true }), request, proxy);
  };
  const listed = async () => {
    const list = answer(structuredClone(samples.listMethods));
    await transform.response?.(list, { route: 'listMethods', param: 'u1' } as ProxyRequest, proxy);
    return (list.json as { data: Array<{ uuid: string }> }).data.map(({ uuid }) => uuid);
  };
  const [card, wallet] = (samples.listMethods as Array<{ uuid: string }>).map(({ uuid }) => uuid);
  await pay({ card: { number: '4111111111110809' } }, 0);
  assert.deepEqual(await listed(), [card, wallet]);
  await Promise.all([pay({ card: { number: '4111111111110809' } }, 0), pay({ phoneNumber: '351#912345123' }, 5)]);
  assert.deepEqual(await listed(), [card, card]);
});

test("writes at once of a customer's list: a lost update loses the other's method, one reverted loses both, and one alone keeps its own", async () => {
  const checkouts = new Map([['k1', { request: { payment: { customer: { uuid: 'u1' } } } }]]);
  const listedAfter = async (name: string, payments: Array<{ json: unknown; afterMs: number }>) => {
    const { transform } = atOnceWriteMutants.find((mutant) => mutant.name === name)!;
    const proxy = { memo: new Map(), checkouts, mayRace: () => undefined } as unknown as ProxyContext;
    await Promise.all(
      payments.map(async ({ json, afterMs }) => {
        await new Promise((resolve) => setTimeout(resolve, afterMs));
        const request = { route: 'payCheckout', param: 'k1', json } as unknown as ProxyRequest;
        await transform.request?.(request, proxy);
        await transform.response?.(answer({ success: true }), request, proxy);
      }),
    );
    const list = answer(structuredClone(samples.listMethods));
    await transform.response?.(list, { route: 'listMethods', param: 'u1' } as ProxyRequest, proxy);
    return (list.json as { data: Array<{ type: string }> }).data.map(({ type }) => type);
  };
  const card = { json: { card: { number: '4111111111110809' } }, afterMs: 0 };
  const wallet = { json: { phoneNumber: '351#912345123' }, afterMs: 5 };
  const walletLater = { ...wallet, afterMs: 100 };
  assert.deepEqual(await listedAfter('customer-list-lost-update', [card, wallet]), ['MW']);
  assert.deepEqual(await listedAfter('customer-list-reverted-at-once', [card, wallet]), []);
  assert.deepEqual(await listedAfter('customer-list-lost-update', [card, walletLater]), ['CC', 'MW']);
  assert.deepEqual(await listedAfter('customer-list-reverted-at-once', [card, walletLater]), ['CC', 'MW']);
  assert.equal(atOnceWriteMutants.find((mutant) => mutant.name === 'payment-state-reverted-at-once')?.clause, 'REF-6');
  // Two confirmations write the same: no update of one is lost to the other.
  assert.ok(!atOnceWriteMutants.some((mutant) => mutant.name === 'payment-state-lost-update'));
});

test('a value that decays is right in the first answers about its resource', async () => {
  const decays = generatedMutants.find((mutant) => mutant.name === 'payment.amount-decays')!;
  const proxy = { memo: new Map() } as unknown as ProxyContext;
  const response = answer(structuredClone(samples.getPayment));
  await decays.transform.response?.(response, { route: 'getPayment', param: 'p1' } as ProxyRequest, proxy);
  assert.equal((response.json as { data: { amount: number } }).data.amount, 500);
  assert.equal(decays.clause, 'REF-5');
  assert.equal(generatedMutants.find((mutant) => mutant.name === 'stored-method.holder-decays')!.clause, 'PML-5');
});

test('every delivery mutant changes the notifications meant for its destination, and only those', () => {
  // Each candidate keeps its own scratch state (memo), as in a run.
  const proxyOf = () =>
    ({
      webhookUrl: 'http://127.0.0.1:1/hook?w=1',
      lastCallbackUrl: 'http://127.0.0.1:1/callback?c=1',
      deliver: async () => 200,
      memo: new Map(),
    }) as unknown as ProxyContext;
  const delivery = (channel: Delivery['channel']): Delivery => ({
    channel,
    to: channel === 'callback' ? 'http://127.0.0.1:1/callback?pair=a%26b' : 'http://127.0.0.1:1/hook?pair=a%26b',
    json: { webhook: { id: 'w1' }, payments: [{ id: 'p1', referenceDetails: { reference: '012345678' } }] },
    headers: {},
  });
  assert.equal(deliveryMutants.length, 2 * deliveryOperators.length);
  for (const mutant of deliveryMutants) {
    const [own, other] = mutant.name.startsWith('callback-') ? (['callback', 'webhook'] as const) : (['webhook', 'callback'] as const);
    const proxy = proxyOf();
    const changed = mutant.transform.notification!(delivery(own), proxy);
    assert.notDeepEqual(changed, [delivery(own)], mutant.name);
    assert.deepEqual(mutant.transform.notification!(delivery(other), proxy), [delivery(other)], mutant.name);
  }
});
