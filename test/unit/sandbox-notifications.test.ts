import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { validateResource } from '../../src/core/schemas.ts';
import { call } from '../../src/sandbox/client.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { isoWithOffset } from '../../src/sandbox/time.ts';

const secret = 'test-secret';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A merchant's notification endpoint on 127.0.0.1:0 answering the statuses queued for each path. */
async function startReceiver() {
  const received: Received[] = [];
  const statuses = new Map<string, number[]>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url!, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = statuses.get(request.url!)?.shift() ?? 200;
      response.writeHead(status, status === 302 ? { location: '/elsewhere' } : {}).end();
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    answer: (path: string, ...codes: number[]) => statuses.set(path, codes),
    /** Resolves once `count` requests in all have arrived. */
    until: (count: number) => new Promise<void>((resolve) => (received.length >= count ? resolve() : waiters.push({ count, resolve }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let sandbox: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const api = (method: string, path: string, body?: unknown) => call(sandbox.url, method, path, body);
const hour = 3_600_000;

async function reference(callbackUrl?: string) {
  const validDate = { start: isoWithOffset(Date.now() - hour), end: isoWithOffset(Date.now() + hour) };
  const answer = await api('POST', '/payments/references', {
    type: 'payment',
    amount: 700,
    availableMethods: [{ code: 'MB' }],
    validDate,
    ...(callbackUrl && { callbackUrl }),
  });
  return answer.body.data as { id: string };
}

const confirm = (paymentId: string) => api('POST', `/test-helpers/payments/${paymentId}/confirm`, {});

/** The recorded attempts of a payment, once there are `count` of them (recording follows the receiver's answer). */
async function attempts(paymentId: string, count: number) {
  for (;;) {
    const listed = (await api('GET', `/test-helpers/notifications?paymentId=${paymentId}`)).body.notifications as any[];
    if (listed.length >= count) return listed;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

before(async () => {
  sandbox = await startSandbox({ db: ':memory:', notificationSecret: secret, retryDelaysMs: [10, 10] });
  receiver = await startReceiver();
});
after(async () => {
  await sandbox.close();
  await receiver.close();
});

describe('notifications', () => {
  test('confirmation posts the signed payment to callbackUrl', async () => {
    const payment = await reference(`${receiver.url}/callback?shop=1`);
    const start = receiver.received.length;
    assert.equal((await confirm(payment.id)).status, 200);
    await receiver.until(start + 1);
    const delivered = receiver.received[start];
    assert.equal(delivered.path, '/callback?shop=1');
    assert.match(String(delivered.headers['content-type']), /^application\/json/);
    const body = JSON.parse(delivered.body);
    assert.equal(body.webhook.action, 'payment_confirmed');
    assert.equal(typeof body.webhook.id, 'string');
    assert.equal(validateResource('envelope.schema.json#/$defs/timestampWithOffset', body.webhook.createdAt).length, 0);
    const shown = (await api('GET', `/payments/${payment.id}`)).body.data;
    assert.deepEqual(body.payments, [shown]);
    assert.equal(shown.stateDetails.state, 'confirmed');
    const [, hash, ts] = /^hash=([0-9a-f]{64}),ts=([0-9]+)$/.exec(String(delivered.headers['paypay-signature']))!;
    assert.equal(
      hash,
      createHmac('sha256', secret)
        .update(delivered.body + ts)
        .digest('hex'),
    );
    const [recorded] = await attempts(payment.id, 1);
    assert.deepEqual(
      { webhookId: recorded.webhookId, url: recorded.url, attempt: recorded.attempt, status: recorded.status, error: recorded.error },
      { webhookId: body.webhook.id, url: `${receiver.url}/callback?shop=1`, attempt: 1, status: 200, error: null },
    );
    assert.deepEqual(recorded.body, body);
  });

  test('without callbackUrl it goes to the configured webhook; with none, the attempt says nothing was sent', async () => {
    assert.equal((await api('PUT', '/test-helpers/webhook', { url: `${receiver.url}/hook` })).status, 200);
    assert.equal((await api('PUT', '/test-helpers/webhook', { url: 'not a url' })).status, 422);
    const payment = await reference();
    const start = receiver.received.length;
    await confirm(payment.id);
    await receiver.until(start + 1);
    assert.equal(receiver.received[start].path, '/hook');
    assert.equal(JSON.parse(receiver.received[start].body).payments[0].id, payment.id);

    assert.equal((await api('DELETE', '/test-helpers/webhook')).status, 200);
    const unsent = await reference();
    await confirm(unsent.id);
    const [recorded, ...more] = await attempts(unsent.id, 1);
    assert.equal(more.length, 0);
    assert.equal(recorded.url, null);
    assert.equal(recorded.status, null);
    assert.match(recorded.error, /no webhook/);
  });

  test('failed deliveries (5xx, redirects) are retried with the same webhook.id, three tries in all', async () => {
    receiver.answer('/flaky', 500, 302, 204);
    receiver.answer('/down', 503, 500, 502, 500);
    const flaky = await reference(`${receiver.url}/flaky`);
    const down = await reference(`${receiver.url}/down`);
    await confirm(flaky.id);
    await confirm(down.id);
    const flakyTries = await attempts(flaky.id, 3);
    assert.deepEqual(
      flakyTries.map((a) => [a.attempt, a.status]),
      [
        [1, 500],
        [2, 302],
        [3, 204],
      ],
    );
    assert.equal(new Set(flakyTries.map((a) => a.webhookId)).size, 1);
    assert.equal(new Set(flakyTries.map((a) => JSON.stringify(a.body))).size, 1);
    const downTries = await attempts(down.id, 3);
    assert.deepEqual(
      downTries.map((a) => a.status),
      [503, 500, 502],
    );
    assert.equal(receiver.received.filter((r) => r.path === '/down').length, 3);
  });

  test('an unreachable receiver is a failed try, recorded with its error', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const payment = await reference(`http://127.0.0.1:${port}/gone`);
    await confirm(payment.id);
    const tries = await attempts(payment.id, 3);
    assert.ok(tries.every((a) => a.status === null && typeof a.error === 'string'));
  });

  test('nothing is sent for an unpaid reference, nor ever to the action redirect', async () => {
    const unpaid = await reference(`${receiver.url}/unpaid`);
    await api('PUT', '/test-helpers/webhook', { url: `${receiver.url}/hook` });
    const created = await api('POST', '/checkouts', {
      payment: { amount: 100, paymentMethod: { code: 'CC' } },
      page: { layout: 'default' },
      redirects: [{ type: 'action', url: `${receiver.url}/action` }],
    });
    const start = receiver.received.length;
    await api('POST', `/test-helpers/checkouts/${created.body.data.id}/pay`, {
      method: 'CC',
      card: { number: '4111111111111111', holder: 'A', expireMonth: '01', expireYear: '2030' },
    });
    await receiver.until(start + 1);
    assert.equal(receiver.received[start].path, '/hook', 'the checkout payment is notified to the webhook');
    await attempts(created.body.data.paymentId, 1);
    assert.ok(!receiver.received.some((r) => r.path.startsWith('/action') || r.path === '/unpaid'));
    assert.deepEqual(await attempts(unpaid.id, 0), []);
  });

  test('close() stops pending retries at once', async () => {
    const own = await startSandbox({ db: ':memory:', retryDelaysMs: [60_000, 60_000] });
    receiver.answer('/slow-retry', 500);
    const validDate = { start: isoWithOffset(Date.now() - hour), end: isoWithOffset(Date.now() + hour) };
    const created = await call(own.url, 'POST', '/payments/references', {
      type: 'payment',
      amount: 1,
      availableMethods: [{ code: 'MB' }],
      validDate,
      callbackUrl: `${receiver.url}/slow-retry`,
    });
    const start = receiver.received.length;
    await call(own.url, 'POST', `/test-helpers/payments/${created.body.data.id}/confirm`, {});
    await receiver.until(start + 1);
    const began = Date.now();
    await own.close();
    assert.ok(Date.now() - began < 5_000);
  });
});
