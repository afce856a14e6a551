/** The transport: the proxy a URL takes, the options resolved with the environment, the one-line reasons, the browser's share, the resend, the waits the target asks for, the plain client's requests and answers. */
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { test } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { readText } from '../../src/core/http.ts';
import {
  askedToWaitSoFar,
  askedWaitMs,
  browserContextTransport,
  describeTransportFailure,
  fetchThrough,
  KeptWaiting,
  onAskedToWait,
  requestThrough,
} from '../../src/core/transport.ts';
import { directTransport, proxyFor, resolveTransport, transportSecrets, type Transport } from '../../src/core/transport-options.ts';

const noOptions = { extraCaCertsFile: null, clientCertFile: null, clientKeyFile: null, insecure: false, proxy: null };
const proxied = (noProxy = ''): Transport => ({
  ...directTransport,
  httpProxy: 'http://proxy.corp:3128',
  httpsProxy: 'http://user:s%40cret@proxy.corp:3128',
  noProxy,
});

test('the environment names the proxies (either case), --proxy overrides them and NO_PROXY', () => {
  const env = { HTTPS_PROXY: 'http://a:1', http_proxy: 'http://b:2', NO_PROXY: 'internal' };
  assert.deepEqual(resolveTransport(noOptions, env), { ...directTransport, httpsProxy: 'http://a:1', httpProxy: 'http://b:2', noProxy: 'internal' });
  assert.deepEqual(resolveTransport({ ...noOptions, proxy: 'http://c:3' }, env), { ...directTransport, httpsProxy: 'http://c:3', httpProxy: 'http://c:3' });
});

test('NO_PROXY: hosts, domain suffixes, ports and "*"', () => {
  assert.equal(proxyFor('https://api.example/x', proxied()), 'http://user:s%40cret@proxy.corp:3128');
  assert.equal(proxyFor('http://api.example/x', proxied()), 'http://proxy.corp:3128');
  assert.equal(proxyFor('https://api.example/x', proxied('example')), null);
  assert.equal(proxyFor('https://api.example/x', proxied('.example')), null);
  assert.equal(proxyFor('https://notexample/x', proxied('example')), 'http://user:s%40cret@proxy.corp:3128');
  assert.equal(proxyFor('https://api.example:8443/x', proxied('api.example:443')), 'http://user:s%40cret@proxy.corp:3128');
  assert.equal(proxyFor('https://api.example/x', proxied('api.example:443')), null);
  assert.equal(proxyFor('http://127.0.0.1:8080/x', proxied('*')), null);
  assert.equal(proxyFor('https://api.example/x', directTransport), null);
});

test("a proxy's password is a secret; its address is shown without credentials", () => {
  assert.deepEqual(transportSecrets(proxied()), ['s@cret']);
  const reason = describeTransportFailure(
    new Error('fetch failed', { cause: new Error('Proxy response (407) !== 200 when HTTP Tunneling') }),
    'https://api.example/x',
    proxied(),
  );
  assert.equal(reason, 'the proxy http://proxy.corp:3128 refused to connect to the target (it answered 407 to CONNECT)');
});

test('each transport failure names the option to use; other failures are left to the caller', () => {
  const failure = (code: string, message = code) => new Error('fetch failed', { cause: Object.assign(new Error(message), { code }) });
  assert.match(
    describeTransportFailure(failure('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), 'https://api.example/')!,
    /not trusted by the system's CAs .*--ssl-extra-ca-certs FILE/,
  );
  assert.match(
    describeTransportFailure(failure('SELF_SIGNED_CERT_IN_CHAIN'), 'https://api.example/', { ...directTransport, extraCaCertsFile: 'ca.pem' })!,
    /neither the system's CAs nor --ssl-extra-ca-certs ca\.pem/,
  );
  assert.match(
    describeTransportFailure(
      failure('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'error:0A000410:SSL routines::sslv3 alert handshake failure'),
      'https://api.example/',
    )!,
    /^the target refused the TLS handshake \(sslv3 alert handshake failure\): if it requires a client certificate, give --ssl-client-cert FILE with --ssl-client-key FILE$/,
  );
  assert.match(
    describeTransportFailure(failure('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.1:3128'), 'https://api.example/', {
      ...proxied(),
      httpsProxy: 'http://10.0.0.1:3128',
    })!,
    /^the proxy http:\/\/10\.0\.0\.1:3128 is unreachable/,
  );
  assert.equal(describeTransportFailure(failure('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.2:443'), 'https://api.example/'), null);
});

test("the browser's share: the client certificate for the target's origin only, the proxy with the receiver bypassed, --insecure", () => {
  assert.deepEqual(browserContextTransport(undefined, 'https://api.example/v1', []), {});
  const transport: Transport = { ...proxied('internal'), clientCertFile: 'client.pem', clientKeyFile: 'client.key', insecure: true };
  assert.deepEqual(browserContextTransport(transport, 'https://api.example/v1', ['127.0.0.1:4000']), {
    ignoreHTTPSErrors: true,
    clientCertificates: [{ origin: 'https://api.example', certPath: 'client.pem', keyPath: 'client.key' }],
    proxy: { server: 'http://proxy.corp:3128', bypass: 'internal,127.0.0.1:4000', username: 'user', password: 's@cret' },
  });
});

/** A server that answers a connection's first request, then meets the next one on that connection as told. */
async function closingServer(onSecond: (socket: Socket) => void): Promise<{ url: string; connections: () => number; close: () => void }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    let requests = 0;
    socket.on('data', () => {
      if (++requests === 1) socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nkeep-alive: timeout=5\r\n\r\nok');
      else onSecond(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, connections: () => connections, close: () => server.close() };
}

test('a request that meets a kept-alive connection closing goes once more on a new connection, and says so', async () => {
  for (const close of [(socket: Socket) => socket.end(), (socket: Socket) => socket.resetAndDestroy()]) {
    const server = await closingServer(close);
    try {
      assert.equal(await (await fetchThrough(directTransport, server.url)).text(), 'ok');
      await setTimeout(20); // the connection goes back to the pool once its answer has been read
      const resent: string[] = [];
      const answer = await fetchThrough(directTransport, server.url, () => ({ method: 'POST', body: '{}' }), { onResent: (why) => resent.push(why) });
      assert.equal(await answer.text(), 'ok');
      assert.equal(server.connections(), 2);
      assert.match(resent.join(), /^the connection closed before any answer \(.+\): sent again on a new connection$/);
    } finally {
      server.close();
    }
  }
});

test('a target that closes every connection unanswered fails on the resend as well', async () => {
  const server = createServer((socket) => socket.on('data', () => socket.end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    let resends = 0;
    await assert.rejects(fetchThrough(directTransport, `http://127.0.0.1:${port}/`, {}, { onResent: () => resends++ }), /fetch failed/);
    assert.equal(resends, 1);
  } finally {
    server.close();
  }
});

test('requestThrough sends what fetch() sends, a body in chunks without a length, and reads the answer decoded as fetch() does', async () => {
  const seen: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];
  const encoders: Record<string, (text: string) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
  const server = createHttpServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    seen.push({ headers: request.headers, body: Buffer.concat(chunks).toString() });
    const coding = new URL(request.url ?? '/', 'http://x').searchParams.get('coding') ?? '';
    const body = '{"données":"ç"}';
    response.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'], ...(coding && { 'content-encoding': coding }) });
    response.end(encoders[coding]?.(body) ?? body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    for (const coding of ['', 'gzip', 'deflate', 'br']) {
      const answer = await requestThrough(directTransport, `http://127.0.0.1:${port}/?coding=${coding}`, () => ({
        method: 'GET',
        headers: { Accept: 'application/json' },
      }));
      assert.equal((await readText(answer.body)).text, '{"données":"ç"}', coding);
      assert.equal(answer.headers['set-cookie'], 'a=1, b=2');
    }
    assert.deepEqual(
      [seen[0].headers.accept, seen[0].headers['user-agent'], seen[0].headers['accept-encoding']],
      ['application/json', 'undici', 'gzip, deflate'],
    );
    async function* chunks() {
      yield new TextEncoder().encode('{"a":');
      yield new TextEncoder().encode('1}');
    }
    await readText((await requestThrough(directTransport, `http://127.0.0.1:${port}/`, () => ({ method: 'POST', headers: {}, body: chunks() }))).body);
    const chunked = seen.at(-1)!;
    assert.deepEqual([chunked.body, chunked.headers['transfer-encoding'], chunked.headers['content-length']], ['{"a":1}', 'chunked', undefined]);
  } finally {
    server.close();
  }
});

test('a 429 or a 503 with Retry-After asks to wait, in seconds or until a date; a 429 without one backs off, doubling, half of it at random; any other answer is one', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  assert.equal(askedWaitMs(429, '2', 0, now), 2000);
  assert.equal(askedWaitMs(503, ' 0 ', 0, now), 0);
  assert.equal(askedWaitMs(429, 'Sun, 01 Jun 2025 12:00:03 GMT', 0, now), 3000);
  assert.equal(askedWaitMs(503, 'Sun, 01 Jun 2025 11:59:00 GMT', 0, now), 0, 'a date gone by: at once');
  assert.equal(
    askedWaitMs(429, undefined, 0, now, () => 0),
    500,
  );
  assert.equal(
    askedWaitMs(429, undefined, 0, now, () => 1),
    1000,
  );
  assert.equal(
    askedWaitMs(429, 'soon', 2, now, () => 1),
    4000,
    'a Retry-After that is neither: the back-off',
  );
  assert.equal(
    askedWaitMs(429, undefined, 10, now, () => 1),
    16_000,
    'the back-off stops doubling',
  );
  for (const [status, retryAfter] of [
    [503, undefined],
    [500, '1'],
    [200, '1'],
    [404, undefined],
  ] as const)
    assert.equal(askedWaitMs(status, retryAfter, 0, now), null, `${status} ${retryAfter}`);
});

/** A server whose answers to each request path are given in turn (the last one again once they run out); when each request came. */
async function answeringInTurn(answers: Record<string, Array<{ status: number; headers?: Record<string, string>; delayMs?: number }>>) {
  const arrivals: Array<{ path: string; at: number }> = [];
  const served = new Map<string, number>();
  const server = createHttpServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    arrivals.push({ path, at: Date.now() });
    const turn = served.get(path) ?? 0;
    served.set(path, turn + 1);
    const list = answers[path];
    const { status, headers = {}, delayMs = 0 } = list[Math.min(turn, list.length - 1)];
    await setTimeout(delayMs);
    response.writeHead(status, { 'content-type': 'text/plain', ...headers });
    response.end(String(status));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, arrivals, close: () => server.close() };
}

test('a request the target asks to wait goes again after the wait, on either client, and says so; the answer tells how long it waited', async () => {
  const server = await answeringInTurn({
    '/seconds': [{ status: 429, headers: { 'retry-after': '1' } }, { status: 200 }],
    '/unavailable': [{ status: 503, headers: { 'retry-after': '0' } }, { status: 201 }],
    '/down': [{ status: 503 }],
  });
  try {
    const resent: string[] = [];
    const started = Date.now();
    const answer = await requestThrough(directTransport, `${server.url}/seconds`, () => ({ method: 'POST', headers: {}, body: '{}' }), {
      onResent: (why) => resent.push(why),
    });
    assert.equal(answer.status, 200);
    assert.equal((await readText(answer.body)).text, '200');
    assert.ok(Date.now() - started >= 1000 && answer.waitedMs >= 990, `waited ${answer.waitedMs} ms`);
    assert.deepEqual(resent, ['answered 429 (too many requests): sent again after 1000 ms, as it asked']);
    assert.equal((await fetchThrough(directTransport, `${server.url}/unavailable`)).status, 201);
    assert.equal((await fetchThrough(directTransport, `${server.url}/down`)).status, 503, 'a 503 without Retry-After is an answer');
    assert.deepEqual(
      server.arrivals.map(({ path }) => path),
      ['/seconds', '/seconds', '/unavailable', '/unavailable', '/down'],
    );
  } finally {
    server.close();
  }
});

test("each attempt has its own time-out, the waits not in it; the other requests to the origin wait too; the process's waiting counts overlapping waits once", async () => {
  const server = await answeringInTurn({
    '/limited': [
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 200, delayMs: 300 },
    ],
    '/other': [{ status: 200 }],
  });
  const heard: number[] = [];
  const stop = onAskedToWait((addedMs) => heard.push(addedMs));
  try {
    const before = askedToWaitSoFar();
    const limited = requestThrough(directTransport, `${server.url}/limited`, () => ({ method: 'GET', headers: {} }), { timeoutMs: 600 });
    await setTimeout(200);
    const other = await fetchThrough(directTransport, `${server.url}/other`, {}, { timeoutMs: 600 });
    assert.equal(other.status, 200);
    assert.equal((await limited).status, 200, 'a second of waiting and 300 ms of answer within a time-out of 600 ms');
    const [first] = server.arrivals;
    const otherArrival = server.arrivals.find(({ path }) => path === '/other')!;
    assert.ok(otherArrival.at - first.at >= 990, `the other request left ${otherArrival.at - first.at} ms after the 429`);
    const after = askedToWaitSoFar();
    assert.equal(after.answers - before.answers, 1);
    assert.ok(after.waitedMs - before.waitedMs >= 990 && after.waitedMs - before.waitedMs <= 1100, `waited ${after.waitedMs - before.waitedMs} ms`);
    assert.equal(
      heard.reduce((sum, ms) => sum + ms, 0),
      after.waitedMs - before.waitedMs,
      'the listeners hear the waiting as it is counted',
    );
  } finally {
    stop();
    server.close();
  }
});

test('a request the target asks to wait longer than a request waits fails, naming what it asked', async () => {
  const server = await answeringInTurn({ '/': [{ status: 429, headers: { 'retry-after': '3600' } }] });
  try {
    const started = Date.now();
    await assert.rejects(
      requestThrough(directTransport, `${server.url}/`, () => ({ method: 'GET', headers: {} })),
      (error: Error) => error instanceof KeptWaiting && /answered 429 asking to wait 3600000 ms more, after 1 such answers to this request/.test(error.message),
    );
    assert.ok(Date.now() - started < 1000, 'without waiting for nothing');
  } finally {
    server.close();
  }
});
