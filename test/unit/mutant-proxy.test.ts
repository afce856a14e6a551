/**
 * The mutant proxy and the catalogue's transforms, against a stub upstream (fast, no sandbox needed);
 * the whole catalogue runs end to end against the real sandbox in catalogue/mutant-catalogue.test.ts.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { benignVariants, mutants } from '../../mutants/catalogue.ts';
import { atPlusOneHour } from '../../mutants/edits.ts';
import { routeOf, startProxy, type RunningProxy, type Transform } from '../../mutants/proxy.ts';

interface Received {
  method: string;
  path: string;
  json: any;
  headers: IncomingMessage['headers'];
}

interface Stub {
  url: string;
  received: Received[];
  server: Server;
}

type Answer = { status?: number; json?: unknown; text?: string; headers?: Record<string, string> };

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function readJson(request: IncomingMessage): Promise<any> {
  let text = '';
  for await (const chunk of request) text += chunk;
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/** An upstream that answers each request with `answerFor` and records what it received. */
async function startStub(answerFor: (request: Received, stub: Stub) => Answer): Promise<Stub> {
  const stub = { received: [] as Received[] } as Stub;
  stub.server = createServer(async (request, response) => {
    const received = { method: request.method!, path: request.url!, json: await readJson(request), headers: request.headers };
    stub.received.push(received);
    const answer = answerFor(received, stub);
    const body = answer.text ?? JSON.stringify(answer.json ?? {});
    response.writeHead(answer.status ?? 200, { 'content-type': answer.text ? 'text/html' : 'application/json', ...answer.headers });
    response.end(body);
  });
  stub.url = await listen(stub.server);
  return stub;
}

/** A notification receiver that hands out what it gets, in order. */
async function startReceiver() {
  const got: Received[] = [];
  const waiting: ((received: Received) => void)[] = [];
  const server = createServer(async (request, response) => {
    const received = { method: request.method!, path: request.url!, json: await readJson(request), headers: request.headers };
    response.writeHead(200).end();
    const waiter = waiting.shift();
    if (waiter) waiter(received);
    else got.push(received);
  });
  const url = await listen(server);
  return {
    url,
    server,
    next: () => (got.length ? Promise.resolve(got.shift()!) : new Promise<Received>((resolve) => waiting.push(resolve))),
    pending: () => got.length,
  };
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

const envelope = (data: unknown, apiVersion = true) => ({ ...(apiVersion ? { apiVersion: '1.0' } : {}), date: '2024-05-01T10:00:00Z', success: true, data });

const checkoutId = '6f1c2f0e-3b7a-4c1e-9a55-1d2e3f4a5b6c';
const paymentId = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
const customerA = '11111111-2222-4333-8444-555555555555';
const customerB = '99999999-8888-4777-8666-555555555555';

function sandboxLike(request: Received, stub: Stub): Answer {
  const { method, path } = request;
  const route = routeOf(method, path.split('?')[0]);
  switch (route.route) {
    case 'createCheckout':
      return {
        json: envelope({
          id: checkoutId,
          paymentId,
          createdAt: '2024-05-01 10:00:00',
          checkoutUrl: `${stub.url}/pay/${checkoutId}?page_layout=default`,
          stateDetails: { state: 'PaymentReady', timestamp: '2024-05-01T10:00:00+00:00' },
        }),
      };
    case 'createReference':
    case 'getPayment':
      return {
        json: envelope(
          {
            id: paymentId,
            type: 'payment',
            amount: 1234,
            referenceDetails: { entity: '12345', reference: '012345678' },
            stateDetails: { state: 'confirmed', createdAt: '2024-05-01T10:00:00Z' },
            createdAt: '2024-05-01T10:00:00Z',
            updatedAt: '2024-05-01T10:00:00Z',
            validDate: { start: '2024-05-01T00:00:00Z', end: '2024-05-02T00:00:00Z' },
            availableMethods: [{ code: 'MB', type: 'REALTIME', name: 'Multibanco' }],
          },
          false,
        ),
      };
    case 'listMethods': {
      const last = route.param === customerA ? '1111' : '2222';
      return { json: envelope([{ type: 'CC', uuid: route.param, brand: 'VISA', last4Digitis: last, holder: 'Ana', expireMonth: '07', expireYear: '2031' }]) };
    }
    case 'payCheckout':
      return { json: { checkoutId: route.param, state: 'paid', redirectUrl: `https://merchant.example/done?order=7&id=${route.param}` } };
    default:
      if (method === 'POST' && path.startsWith('/pay/'))
        return { status: 303, headers: { location: `https://merchant.example/done?order=7&id=${checkoutId}` }, text: 'see other' };
      if (path.startsWith('/pay/')) return { text: `<form action="${stub.url}/pay/${checkoutId}">Reference 012 345 678</form>` };
      return { json: { uuid: customerA } };
  }
}

describe('mutant proxy against a stub upstream', () => {
  let stub: Stub;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const proxies: RunningProxy[] = [];

  before(async () => {
    stub = await startStub(sandboxLike);
    receiver = await startReceiver();
  });
  after(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await closeServer(stub.server);
    await closeServer(receiver.server);
  });

  async function proxyWith(transform?: Transform): Promise<RunningProxy> {
    const proxy = await startProxy({ upstream: stub.url, transform });
    proxies.push(proxy);
    return proxy;
  }

  const transformOf = (name: string): Transform => {
    const found = [...mutants, ...benignVariants].find((candidate) => candidate.name === name);
    assert.ok(found, `no mutant or variant ${name}`);
    return found.transform;
  };

  async function call(proxy: RunningProxy, method: string, path: string, json?: unknown) {
    const response = await fetch(proxy.url + path, {
      method,
      redirect: 'manual',
      headers: json === undefined ? {} : { 'content-type': 'application/json' },
      body: json === undefined ? undefined : typeof json === 'string' ? json : JSON.stringify(json),
    });
    const text = await response.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: response.status, headers: response.headers, body };
  }

  const lastReceived = () => stub.received[stub.received.length - 1];

  test('without a transform it forwards both ways and points checkoutUrl and page links at itself', async () => {
    const proxy = await proxyWith();
    const created = await call(proxy, 'POST', '/checkouts', { payment: { amount: 500 }, page: { layout: 'default' } });
    assert.equal(created.status, 200);
    assert.deepEqual(lastReceived().json, { payment: { amount: 500 }, page: { layout: 'default' } });
    assert.equal(created.body.data.checkoutUrl, `${proxy.url}/pay/${checkoutId}?page_layout=default`);
    const page = await call(proxy, 'GET', `/pay/${checkoutId}`);
    assert.match(page.body, new RegExp(`action="${proxy.url}/pay/`));
    const broken = await call(proxy, 'POST', '/checkouts', '{not json');
    assert.equal(lastReceived().json, '{not json');
    assert.equal(broken.status, 200);
    await call(proxy, 'DELETE', '/test-helpers/webhook');
    assert.equal(lastReceived().headers['content-type'], undefined, 'a request without a body is forwarded without one');
  });

  test('request mutants change what the target receives', async () => {
    const embed = await proxyWith(transformOf('embed-without-action-accepted'));
    await call(embed, 'POST', '/checkouts', { payment: { amount: 500 }, page: { layout: 'embed' } });
    assert.deepEqual(lastReceived().json.redirects, [{ type: 'action', url: 'https://merchant.example/added-by-mutant' }]);

    const sanitised = await proxyWith(transformOf('broken-field-types-accepted'));
    await call(sanitised, 'POST', '/checkouts', { payment: { amount: 5.5, customer: { uuid: 'nope', email: 'x' }, billingAddress: { country: 'PRT' } } });
    const repaired = lastReceived().json.payment;
    assert.equal(repaired.amount, 500);
    assert.match(repaired.customer.uuid, /^[0-9a-f-]{36}$/);
    assert.equal(repaired.customer.email, 'customer@example.com');
    assert.equal(repaired.billingAddress.country, 'PT');

    const crash = await proxyWith(transformOf('non-object-body-crashes'));
    assert.equal((await call(crash, 'POST', '/checkouts', '[1,2]')).status, 500);
    assert.equal((await call(crash, 'POST', '/checkouts', { payment: {} })).status, 200);

    const versioned = await proxyWith(transformOf('paths-only-under-v1'));
    assert.equal((await call(versioned, 'GET', `/payments/${paymentId}`)).status, 404);
    assert.equal((await call(versioned, 'GET', `/v1/payments/${paymentId}`)).status, 200);
    assert.equal(lastReceived().path, `/payments/${paymentId}`);
  });

  test('response mutants change what the suite sees', async () => {
    const spelled = await proxyWith(transformOf('last4Digits-spelled-correctly'));
    const list = await call(spelled, 'GET', `/customers/${customerA}/paymentMethods`);
    assert.equal(list.body.data[0].last4Digits, '1111');
    assert.equal('last4Digitis' in list.body.data[0], false);

    const zeros = await proxyWith(transformOf('reference-leading-zeros-dropped'));
    assert.equal((await call(zeros, 'GET', `/payments/${paymentId}`)).body.data.referenceDetails.reference, '12345678');

    const noLayout = await proxyWith(transformOf('default-layout-without-page_layout'));
    const created = await call(noLayout, 'POST', '/checkouts', { page: { layout: 'default' } });
    assert.equal(created.body.data.checkoutUrl, `${noLayout.url}/pay/${checkoutId}`);

    const leak = await proxyWith(transformOf('methods-leak-across-customers'));
    await call(leak, 'POST', '/checkouts', { payment: { customer: { uuid: customerB } } });
    const leaked = await call(leak, 'GET', `/customers/${customerA}/paymentMethods`);
    assert.deepEqual(
      leaked.body.data.map((method: any) => method.last4Digitis),
      ['1111', '2222'],
    );

    assert.equal((await call(await proxyWith(transformOf('reference-refusals-crash')), 'POST', '/payments/references', { type: 'payment' })).status, 200);
    const refusingStub = await startStub(() => ({ status: 422, json: { error: 'bad' } }));
    const crashing = await startProxy({ upstream: refusingStub.url, transform: transformOf('reference-refusals-crash') });
    assert.equal((await call(crashing, 'POST', '/payments/references', { type: 'other' })).status, 500);
    await crashing.close();
    await closeServer(refusingStub.server);

    const page = await proxyWith(transformOf('atm-page-reference-cut'));
    await call(page, 'POST', '/checkouts', { payment: { paymentMethod: { code: 'MB' } }, page: { layout: 'web' } });
    assert.match((await call(page, 'GET', `/pay/${checkoutId}`)).body, /Reference 012 345 67</);
  });

  test('redirect mutants rewrite the pay helper redirectUrl and the hosted page Location', async () => {
    const withoutId = await proxyWith(transformOf('redirect-without-id'));
    const paid = await call(withoutId, 'POST', `/test-helpers/checkouts/${checkoutId}/pay`, { outcome: 'success' });
    assert.equal(paid.body.redirectUrl, 'https://merchant.example/done?order=7');
    const submitted = await call(withoutId, 'POST', `/pay/${checkoutId}`, 'card=4111');
    assert.equal(submitted.status, 303);
    assert.equal(submitted.headers.get('location'), 'https://merchant.example/done?order=7');

    const lostQuery = await proxyWith(transformOf('redirect-loses-query'));
    assert.equal((await call(lostQuery, 'POST', `/pay/${checkoutId}`, 'x')).headers.get('location'), `https://merchant.example/done?id=${checkoutId}`);

    assert.equal(transformOf('deep-link-mangled').redirect!('myshop://paid?id=1', undefined as never, undefined as never), 'myshop:/paid?id=1');
  });

  test('pay and confirm helpers are rewritten with what the proxy learnt', async () => {
    const declined = await proxyWith(transformOf('stores-on-declined-payment'));
    await call(declined, 'POST', '/checkouts', { payment: { paymentMethod: { code: 'CC', details: { createRegistration: true } } } });
    await call(declined, 'POST', `/test-helpers/checkouts/${checkoutId}/pay`, { outcome: 'failure' });
    assert.equal(lastReceived().json.outcome, 'success');

    const window = await proxyWith(transformOf('confirmation-outside-window-accepted'));
    await call(window, 'POST', '/payments/references', { type: 'payment', validDate: { start: '2024-05-01T00:00:00Z', end: '2024-05-02T00:00:00Z' } });
    await call(window, 'POST', `/test-helpers/payments/${paymentId}/confirm`, { paidAt: '2030-01-01T00:00:00Z' });
    assert.equal(lastReceived().json.paidAt, '2024-05-01T12:00:00.000Z');
  });

  test('notifications pass the relay: delivered, dropped, misrouted, stripped, duplicated', async () => {
    const notify = (proxy: RunningProxy) => {
      const relay = stub.received.find((received) => received.path.startsWith('/payments/references'))!.json.callbackUrl;
      return fetch(relay, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ webhook: { id: 'w1' }, payments: [{ id: paymentId }] }),
      }).then((response) => assert.equal(response.status, 200, `relay of ${proxy.url}`));
    };
    const createWithCallback = async (proxy: RunningProxy) => {
      stub.received.length = 0;
      const created = await call(proxy, 'POST', '/payments/references', { type: 'payment', callbackUrl: `${receiver.url}/callback?shop=1` });
      assert.match(lastReceived().json.callbackUrl, new RegExp(`^${proxy.url}/__relay/callback`));
      assert.equal(JSON.stringify(created.body).includes('__relay'), false);
    };

    const plain = await proxyWith();
    await createWithCallback(plain);
    await notify(plain);
    const delivered = await receiver.next();
    assert.equal(delivered.path, '/callback?shop=1');
    assert.equal(delivered.json.payments[0].id, paymentId);

    const stripped = await proxyWith(transformOf('callback-notification-unidentified'));
    await createWithCallback(stripped);
    await notify(stripped);
    assert.deepEqual((await receiver.next()).json, { webhook: {}, payments: [{}] });

    const twice = await proxyWith(transformOf('duplicate-notifications'));
    await createWithCallback(twice);
    await notify(twice);
    assert.deepEqual((await receiver.next()).json, (await receiver.next()).json);

    const misrouted = await proxyWith(transformOf('callback-notification-misaddressed'));
    await call(misrouted, 'PUT', '/test-helpers/webhook', { url: `${receiver.url}/hook` });
    assert.match(lastReceived().json.url, /__relay\/webhook/);
    await createWithCallback(misrouted);
    await notify(misrouted);
    assert.equal((await receiver.next()).path, '/hook');

    const dropped = await proxyWith(transformOf('callback-notification-dropped'));
    await createWithCallback(dropped);
    await notify(dropped);
    assert.equal(receiver.pending(), 0);

    const unpaid = await proxyWith(transformOf('notification-for-unpaid-reference'));
    await createWithCallback(unpaid);
    const early = await receiver.next();
    assert.equal(early.path, '/callback?shop=1');
    assert.equal(early.json.payments[0].stateDetails.state, 'confirmed');
  });

  test('benign variants: upper-case UUIDs map back, offsets keep the instant, statuses and refusals change', async () => {
    const upper = await proxyWith(transformOf('upper-case-uuids'));
    const created = await call(upper, 'POST', '/checkouts', { payment: {} });
    assert.equal(created.body.data.id, checkoutId.toUpperCase());
    await call(upper, 'POST', `/test-helpers/checkouts/${checkoutId.toUpperCase()}/pay`, { outcome: 'success' });
    assert.equal(lastReceived().path, `/test-helpers/checkouts/${checkoutId}/pay`);

    assert.equal(atPlusOneHour('2024-05-01T23:30:00Z'), '2024-05-02T00:30:00+01:00');
    assert.equal(Date.parse(atPlusOneHour('2024-05-01T23:30:00.123+00:00')), Date.parse('2024-05-01T23:30:00.123Z'));
    const shifted = await proxyWith(transformOf('offset-plus-one-hour'));
    const payment = await call(shifted, 'GET', `/payments/${paymentId}`);
    assert.equal(payment.body.data.validDate.start, '2024-05-01T01:00:00+01:00');

    assert.equal((await call(await proxyWith(transformOf('created-201')), 'POST', '/checkouts', {})).status, 201);

    const extra = await call(await proxyWith(transformOf('extra-fields-everywhere')), 'GET', `/payments/${paymentId}`);
    assert.ok(extra.body.vendorExtension && extra.body.data.validDate.vendorExtension && extra.body.data.availableMethods[0].vendorExtension);

    const localhost = await proxyWith(transformOf('checkoutUrl-on-localhost'));
    const onLocalhost = await call(localhost, 'POST', '/checkouts', {});
    assert.match(onLocalhost.body.data.checkoutUrl, /^http:\/\/localhost:/);
    assert.equal((await fetch(onLocalhost.body.data.checkoutUrl)).status, 200);
  });

  test("blame mutants: a page with no way to pay, another customer's malformed methods, paths answered by a redirect", async () => {
    const notFound = await proxyWith(transformOf('hosted-page-not-found'));
    await call(notFound, 'POST', '/checkouts', { payment: { paymentMethod: { code: 'CC' } }, page: { layout: 'basic' } });
    const page = await call(notFound, 'GET', `/pay/${checkoutId}`);
    assert.equal(page.status, 200);
    assert.match(page.body, /Not found/);
    assert.doesNotMatch(page.body, /<input/);

    const leak = await proxyWith(transformOf('foreign-methods-malformed'));
    await call(leak, 'POST', '/checkouts', { payment: { customer: { uuid: customerB } } });
    const leaked = (await call(leak, 'GET', `/customers/${customerA}/paymentMethods`)).body.data;
    assert.equal(leaked.length, 2);
    assert.equal(leaked[1].last4Digits, '2222');
    assert.equal(leaked[1].uuid, customerB.replace(/-/g, ''));

    const redirected = await proxyWith(transformOf('paths-redirect-to-v1'));
    const answered = await call(redirected, 'GET', `/payments/${paymentId}?x=1`);
    assert.equal(answered.status, 308);
    assert.equal(answered.headers.get('location'), `${redirected.url}/v1/payments/${paymentId}?x=1`);
    assert.equal((await call(redirected, 'GET', `/v1/payments/${paymentId}`)).status, 200);
  });

  test('freedom variants: 404 for an empty list, closed windows refused, credentials required, signed events', async () => {
    const emptyStub = await startStub(() => ({ json: envelope([]) }));
    const empty = await startProxy({ upstream: emptyStub.url, transform: transformOf('empty-list-404') });
    assert.equal((await call(empty, 'GET', `/customers/${customerA}/paymentMethods`)).status, 404);
    await empty.close();
    await closeServer(emptyStub.server);
    assert.equal(
      (await call(await proxyWith(transformOf('empty-list-404')), 'GET', `/customers/${customerA}/paymentMethods`)).status,
      200,
      'a list with a method stays',
    );

    const windows = await proxyWith(transformOf('closed-windows-refused'));
    const closed = await call(windows, 'POST', '/payments/references', {
      type: 'payment',
      validDate: { start: '2024-05-01T00:00:00Z', end: '2024-05-02T00:00:00Z' },
    });
    assert.equal(closed.status, 422);
    assert.equal(closed.headers.get('content-type'), 'application/problem+json');
    assert.equal(
      (await call(windows, 'POST', '/payments/references', { type: 'payment', validDate: { start: '2024-05-01T00:00:00Z', end: '2099-01-01T00:00:00Z' } }))
        .status,
      200,
    );

    const credentials = await proxyWith(transformOf('credentials-required'));
    assert.equal((await call(credentials, 'POST', '/checkouts', {})).status, 401);
    const authorised = await fetch(`${credentials.url}/checkouts`, {
      method: 'POST',
      headers: { authorization: 'Basic eDp5', 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(authorised.status, 200);
    assert.equal((await call(credentials, 'POST', '/test-helpers/customers', {})).status, 200, 'the helpers are no operation of the reference');

    const events = await proxyWith(transformOf('notifications-as-signed-events'));
    stub.received.length = 0;
    await call(events, 'POST', '/payments/references', { type: 'payment', callbackUrl: `${receiver.url}/callback` });
    const relay = lastReceived().json.callbackUrl;
    await fetch(relay, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'paypay-signature': 'hash=00,ts=1' },
      body: JSON.stringify({ webhook: { id: 'w1' }, payments: [{ id: paymentId }] }),
    });
    const event = await receiver.next();
    assert.equal(event.json.data.object.id, paymentId);
    assert.match(String(event.headers['webhook-signature']), /^v1,/);
    assert.equal(event.headers['paypay-signature'], undefined);
  });

  test('the proxy counts the effects of its transform: none where it changed nothing', async () => {
    const plain = await proxyWith();
    await call(plain, 'POST', '/checkouts', { payment: {} });
    assert.equal(plain.effects(), 0);

    const unmatched = await proxyWith(transformOf('closed-windows-refused'));
    await call(unmatched, 'POST', '/checkouts', { payment: {} });
    await call(unmatched, 'POST', '/payments/references', { type: 'payment', validDate: { start: '2024-05-01T00:00:00Z', end: '2099-01-01T00:00:00Z' } });
    assert.equal(unmatched.effects(), 0, 'a predicate that never held');
    await call(unmatched, 'POST', '/payments/references', { type: 'payment', validDate: { start: '2024-05-01T00:00:00Z', end: '2024-05-02T00:00:00Z' } });
    assert.equal(unmatched.effects(), 1, 'an answer of its own');

    const unchanged = await proxyWith(transformOf('reference-leading-zeros-dropped'));
    await call(unchanged, 'GET', `/customers/${customerA}/paymentMethods`);
    assert.equal(unchanged.effects(), 0, 'a response edit of another operation');
    await call(unchanged, 'GET', `/payments/${paymentId}`);
    assert.equal(unchanged.effects(), 1, 'a response edit');

    const redirect = await proxyWith(transformOf('redirect-without-id'));
    await call(redirect, 'POST', `/test-helpers/checkouts/${checkoutId}/pay`, { outcome: 'success' });
    assert.equal(redirect.effects(), 1, 'a redirect rewritten');

    const slow = await proxyWith(transformOf('slow-answers'));
    await call(slow, 'GET', `/payments/${paymentId}`);
    assert.equal(slow.effects(), 1, 'a delay');
  });
});
