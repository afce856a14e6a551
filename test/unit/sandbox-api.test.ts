import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { anyValidCheckout, brokenCheckouts, brokenReferences, validReference, type BrokenCase } from '../../src/generators/index.ts';
import { testHelperSchema, validateResource, validateResponse } from '../../src/core/schemas.ts';
import { call } from '../../src/sandbox/client.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { specificationFile } from '../../src/core/specification.ts';

const realdata = specificationFile('realdata');
const publishedCheckoutRequests = readdirSync(realdata)
  .filter((file) => file.startsWith('checkout-request--'))
  .map((file) => ({ file, payload: JSON.parse(readFileSync(new URL(file, realdata), 'utf8')).payload }));

const offsetTimestamp = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$/;

let sandbox: Sandbox;
const api = (method: string, path: string, body?: unknown) => call(sandbox.url, method, path, body);

function assertRefusal(answer: { status: number; body: any }, status: number | number[]) {
  const statuses = Array.isArray(status) ? status : [status];
  assert.ok(statuses.includes(answer.status), `status ${answer.status}, expected ${statuses.join('|')}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.body.success, false);
  assert.match(answer.body.date, offsetTimestamp);
  for (const reason of [answer.body.error, ...answer.body.errors]) {
    assert.equal(typeof reason.code, 'string');
    assert.equal(typeof reason.message, 'string');
    assert.equal(typeof reason.rule, 'string');
    assert.ok(reason.field === null || typeof reason.field === 'string');
    assert.ok(Array.isArray(reason.clauses));
  }
}

/** Every sample of every one-rule-broken case is refused, naming the case's clause. */
async function refusesEveryBrokenCase(path: string, cases: readonly BrokenCase[], seed: number) {
  for (const broken of cases) {
    await fc.assert(
      fc.asyncProperty(broken.arbitrary, async (request) => {
        const answer = await api('POST', path, request);
        assertRefusal(answer, [400, 422]);
        assert.ok(
          answer.body.errors.some((reason: any) => reason.clauses.includes(broken.clause)),
          `${broken.name}: ${JSON.stringify(answer.body)}`,
        );
      }),
      { seed, numRuns: 15 },
    );
  }
}

before(async () => {
  sandbox = await startSandbox({ db: ':memory:' });
});
after(() => sandbox.close());

describe('POST /checkouts', () => {
  test('accepts every published checkout request and answers per 2.1/2.3', async () => {
    for (const { file, payload } of publishedCheckoutRequests) {
      const answer = await api('POST', '/checkouts', payload);
      assert.equal(answer.status, 201, file);
      assert.deepEqual(validateResponse('createCheckout', answer.body), [], file);
      assert.equal(answer.body.apiVersion, '1.0');
    }
  });

  test('every valid checkout of every variant is created, its response and payment valid (property)', async () => {
    await fc.assert(
      fc.asyncProperty(anyValidCheckout, async (request) => {
        const created = await api('POST', '/checkouts', request);
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.deepEqual(validateResponse('createCheckout', created.body), []);
        const { checkoutUrl, paymentId, createdAt, stateDetails } = created.body.data;
        assert.match(createdAt, /^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$/);
        assert.equal(stateDetails.state, 'PaymentReady');
        assert.ok(checkoutUrl.startsWith(sandbox.url));
        if (request.page?.layout === 'default') assert.equal(new URL(checkoutUrl).searchParams.get('page_layout'), 'default');
        const payment = await api('GET', `/payments/${paymentId}`);
        assert.equal(payment.status, 200);
        assert.deepEqual(validateResponse('getPayment', payment.body), []);
        assert.equal(payment.body.apiVersion, undefined);
        assert.equal(payment.body.data.amount, request.payment?.amount ?? 0);
        assert.equal(payment.body.data.stateDetails.state, 'pending');
        if (request.payment?.paymentMethod?.code === 'MB')
          assert.deepEqual(
            payment.body.data.availableMethods.map((m: any) => m.code),
            ['MB'],
          );
      }),
      { seed: 31, numRuns: 120 },
    );
  });

  test('two checkouts get different ids and payment ids', async () => {
    const request = { payment: { amount: 500, paymentMethod: { code: 'CC' } }, page: { layout: 'web' } };
    const [first, second] = [(await api('POST', '/checkouts', request)).body.data, (await api('POST', '/checkouts', request)).body.data];
    assert.notEqual(first.id, second.id);
    assert.notEqual(first.paymentId, second.paymentId);
  });

  test('refuses every request that breaks one rule or type, naming field, rule and clause (property)', () =>
    refusesEveryBrokenCase('/checkouts', brokenCheckouts, 32));
});

describe('stored payment methods', () => {
  test('a customer with nothing stored has an empty list', async () => {
    const answer = await api('GET', '/customers/0b6b9ad4-5a9b-4cf4-9d1e-4c7d2a0f3e11/paymentMethods');
    assert.equal(answer.status, 200);
    assert.deepEqual(validateResponse('listMethods', answer.body), []);
    assert.deepEqual(answer.body.data, []);
  });

  test('a uuid that is not a UUID is refused', async () => {
    assertRefusal(await api('GET', '/customers/not-a-uuid/paymentMethods'), 400);
  });
});

describe('POST /payments/references and GET /payments/{id}', () => {
  test('answers the pending payment, which GET then shows alike (property)', async () => {
    await fc.assert(
      fc.asyncProperty(validReference(), async (request) => {
        const created = await api('POST', '/payments/references', request);
        assert.equal(created.status, 201);
        assert.deepEqual(validateResponse('getPayment', created.body), []);
        const payment = created.body.data;
        assert.equal(payment.stateDetails.state, 'pending');
        assert.match(payment.referenceDetails.reference, /^[0-9]{9}$/);
        assert.equal(payment.amount, request.amount);
        assert.deepEqual(payment.validDate, request.validDate);
        const shown = await api('GET', `/payments/${payment.id}`);
        assert.equal(shown.status, 200);
        assert.deepEqual(shown.body.data, payment);
      }),
      { seed: 33, numRuns: 60 },
    );
  });

  test('references keep and produce leading zeros', async () => {
    const references = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const created = await api('POST', '/payments/references', {
        type: 'payment',
        amount: 100,
        availableMethods: [{ code: 'MB' }],
        validDate: { start: '2030-01-01T00:00:00+00:00', end: '2030-02-01T00:00:00+01:00' },
      });
      references.add(created.body.data.referenceDetails.reference);
    }
    assert.ok([...references].some((reference) => reference.startsWith('0')));
    assert.equal(references.size, 200);
  });

  test('refuses broken reference requests (property)', () => refusesEveryBrokenCase('/payments/references', brokenReferences, 34));

  test('an unknown payment id is 404', async () => {
    assertRefusal(await api('GET', '/payments/999999999'), 404);
    assertRefusal(await api('GET', '/payments/abc'), 404);
  });
});

describe('test-helper bodies, checked against test-helpers.schema.json', () => {
  test("a registered customer, with or without the merchant's number, is answered as the schema says", async () => {
    for (const body of [{}, { customerId: 'c-1' }]) {
      const answer = await api('POST', '/test-helpers/customers', body);
      assert.equal(answer.status, 201);
      assert.deepEqual(validateResource(testHelperSchema('registerCustomerAnswer'), answer.body), []);
    }
  });

  test('400 for a body that is not an object, 422 naming the field the schema refuses', async () => {
    const helpers: [method: string, path: string, badField: object, field: string][] = [
      ['POST', '/test-helpers/customers', { customerId: 5 }, 'customerId'],
      [
        'POST',
        '/test-helpers/checkouts/no-such-checkout/pay',
        { method: 'CC', card: { number: '4111111111111111', holder: 'Ana', expireMonth: '7', expireYear: '2031' } },
        'card.expireMonth',
      ],
      ['POST', '/test-helpers/payments/99999999/confirm', { paidAt: '2030-01-01' }, 'paidAt'],
      ['PUT', '/test-helpers/webhook', { url: 'ftp://merchant.example/hook' }, 'url'],
    ];
    for (const [method, path, badField, field] of helpers) {
      assertRefusal(await api(method, path, []), 400);
      const refused = await api(method, path, badField);
      assertRefusal(refused, 422);
      assert.ok(
        refused.body.errors.every((reason: { field: string }) => reason.field === field),
        `${path}: ${JSON.stringify(refused.body)}`,
      );
    }
  });
});

describe('bad input gets a clear answer and changes nothing', () => {
  async function raw(path: string, contentType: string | undefined, body: string | undefined, method = 'POST') {
    const response = await fetch(sandbox.url + path, { method, headers: contentType ? { 'content-type': contentType } : {}, body });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  test('malformed bodies, media types, sizes, paths and methods', async () => {
    const before = Number((await api('POST', '/checkouts', {})).body.data.paymentId);
    for (const path of ['/checkouts', '/payments/references']) {
      assertRefusal(await raw(path, 'application/json', '{"payment":'), 400);
      assertRefusal(await raw(path, 'application/json', ''), 400);
      for (const notAnObject of ['[]', '"text"', '42', 'null', 'true']) assertRefusal(await raw(path, 'application/json', notAnObject), [400, 422]);
      assertRefusal(await raw(path, undefined, undefined), [400, 415]);
      assertRefusal(await raw(path, 'text/plain', '{}'), 415);
      assertRefusal(await raw(path, 'application/x-www-form-urlencoded', 'a=1'), 415);
      assertRefusal(await raw(path, 'application/json', JSON.stringify({ padding: 'x'.repeat(1024 * 1024) })), 413);
    }
    assertRefusal(await raw('/nothing-here', undefined, undefined, 'GET'), 404);
    assertRefusal(await raw('/v1/checkouts', 'application/json', '{}'), 404);
    const wrongMethod = await raw('/checkouts', undefined, undefined, 'GET');
    assertRefusal(wrongMethod, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'POST');
    assertRefusal(await raw('/payments/1', 'application/json', '{}', 'DELETE'), 405);
    assertRefusal(await raw('/customers/0b6b9ad4-5a9b-4cf4-9d1e-4c7d2a0f3e11/paymentMethods', 'application/json', '{}', 'POST'), 405);
    const after = Number((await api('POST', '/checkouts', {})).body.data.paymentId);
    assert.equal(after, before + 1, 'no refused request stored a payment');
  });

  test('the sandbox keeps serving after a flood of bad requests', async () => {
    await Promise.all(Array.from({ length: 50 }, () => raw('/checkouts', 'application/json', '{')));
    assert.equal((await api('POST', '/checkouts', {})).status, 201);
  });
});
