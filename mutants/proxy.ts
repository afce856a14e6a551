/**
 * A transforming HTTP proxy in front of a real target (the reference sandbox): every mutant and
 * every benign variant is a Transform applied here, so no copy of the sandbox is ever made.
 *
 * The proxy also stands between the target and the suite's notification receiver: it rewrites
 * `callbackUrl` of reference requests and the webhook URL of PUT /test-helpers/webhook to its own
 * relay endpoints, and the relay forwards each (transformed) notification to where it was meant to
 * go. Absolute URLs of the target in response bodies and headers are rewritten to the proxy's
 * origin, so that browser traffic to the hosted pages passes the proxy too.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import { readText } from '../src/core/http.ts';
import { operationAt, operations, requestOf, type CallArguments, type OperationName } from '../src/core/operations.ts';
import type { Sandbox } from '../src/sandbox/index.ts';

/** The operation a request calls (src/core/operations.ts), or 'other' (pages, paths the documents do not give). */
export type Route = OperationName | 'other';

/** The operation a request calls, and its path parameter (checkout, customer or payment id). */
export function routeOf(method: string, path: string): { route: Route; param: string | null } {
  const called = operationAt(method, path);
  return called ? { route: called.operation.name, param: called.param } : { route: 'other', param: null };
}

export const apiRoutes: ReadonlySet<Route> = new Set(operations.filter((operation) => operation.ofReference).map((operation) => operation.name));

/** A call of an operation of the table to the target behind the proxy, untransformed. */
export function callOperation<Name extends OperationName>(proxy: ProxyContext, name: Name, ...options: CallArguments<Name>): Promise<ProxyResponse> {
  const { method, path } = requestOf(name, options[0]);
  return proxy.callUpstream(method, path, options[0]?.body);
}

export interface ProxyRequest {
  route: Route;
  /** The path parameter of the route, if it has one. */
  param: string | null;
  method: string;
  /** Path relative to the proxy's root, without the query. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** The header names as the client wrote them (headers has them in small letters). */
  headerNames: string[];
  /** The parsed body; undefined when the body is empty or not JSON. */
  json: unknown;
  /** The raw body, forwarded as is when `json` is undefined. */
  text: string;
}

export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  json: unknown;
  text: string;
}

export interface Delivery {
  /** Where the target meant to send it: the reference's callbackUrl or the configured webhook. */
  channel: 'callback' | 'webhook';
  to: string;
  json: unknown;
  headers: Record<string, string>;
}

export interface CheckoutRecord {
  id: string;
  paymentId: string;
  /** The request body the target received. */
  request: any;
  /** Path of checkoutUrl on the proxy: where the hosted page (or the embed script) is served. */
  pagePath: string;
}

export interface PaymentRecord {
  id: string;
  /** The request body the target received, with the suite's own callbackUrl. */
  request: any;
  callbackUrl: string | null;
}

/** What the proxy has learnt of the conversation, for transforms that need more than one exchange. */
export interface ProxyContext {
  origin: string;
  checkouts: Map<string, CheckoutRecord>;
  payments: Map<string, PaymentRecord>;
  /** Customer uuids seen in registrations and checkout requests, in small letters (a UUID is read without regard to letter case). */
  customers: Set<string>;
  /** The suite's webhook receiver, as the suite configured it. */
  webhookUrl: string | null;
  /** The suite's last callbackUrl. */
  lastCallbackUrl: string | null;
  /** Scratch state of the transform (the first id it saw, say). */
  memo: Map<string, unknown>;
  /** A request of the proxy's own to the target. */
  callUpstream(method: string, path: string, json?: unknown): Promise<ProxyResponse>;
  /** Sends a notification to the suite's receiver, untransformed; answers the receiver's status. */
  deliver(delivery: Delivery): Promise<number>;
  /** Posts a body to a URL in the background (the proxy waits for it on close). */
  postInBackground(url: string, json: unknown): void;
  checkoutOfPage(path: string): CheckoutRecord | undefined;
  /**
   * Says that this exchange came close enough to another that a race between them could meet it,
   * whether or not it did this time: the reach run (mutants/reach.ts) takes the test as reached, as
   * the race depends on timing that load moves. Elsewhere it does nothing.
   */
  mayRace(): void;
}

/**
 * One mutant or variant. `request` and `response` change the exchange in place; `request` may
 * instead answer by itself, and then nothing is forwarded.
 */
export interface Transform {
  request?(request: ProxyRequest, proxy: ProxyContext): ProxyResponse | void | Promise<ProxyResponse | void>;
  response?(response: ProxyResponse, request: ProxyRequest, proxy: ProxyContext): void | Promise<void>;
  /** The URL a customer is sent to after paying: Location of a hosted page, redirectUrl of the pay helper (the request that answered it). */
  redirect?(location: string, proxy: ProxyContext, request: ProxyRequest): string;
  /** What reaches the receiver for one notification of the target: none, one or several. */
  notification?(delivery: Delivery, proxy: ProxyContext): Delivery[];
  /** Added to every answer. */
  delayMs?: number;
}

export interface RunningProxy {
  url: string;
  context: ProxyContext;
  /**
   * How many times the transform did something: answered a request itself, changed a request, an
   * answer, a redirect or a notification, delayed an answer, or posted or delivered something of its
   * own. A candidate whose transform never fired proved nothing.
   */
  effects(): number;
  close(): Promise<void>;
}

const relayPath = '/__relay/';
/** The size of each chunk of an answer a transform asks to send in chunks. */
const answerChunkBytes = 64;
const hopByHop = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding', 'expect', 'content-encoding']);

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function bodyOf(message: { json: unknown; text: string }): string {
  return message.json === undefined ? message.text : JSON.stringify(message.json);
}

/** Headers by lower-case name; those of the connection (hop-by-hop) left out, unless kept: a request's, as the target receives them. */
function plainHeaders(headers: Headers | IncomingMessage['headers'], keepHopByHop = false): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined && (keepHopByHop || !hopByHop.has(name.toLowerCase()))) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** What a transform may change of a message, as text, to tell whether it changed anything. */
/** A message as one string, to tell whether a step changed it (a request's query, a URLSearchParams, as its text: without a replacer, which costs the reach run more than the rest of its comparison). */
export const snapshot = (message: object) =>
  JSON.stringify('query' in message && message.query instanceof URLSearchParams ? { ...message, query: message.query.toString() } : message);

function isExternal(location: string, origin: string): boolean {
  try {
    return new URL(location, origin).origin !== origin;
  } catch {
    return true;
  }
}

/**
 * A proxy in front of `upstream`: a URL, or a sandbox of this process, which it then calls without a
 * socket (the catalogue's hundreds of proxies and sandboxes share one process: half its CPU went to
 * the loopback hop between them).
 */
export async function startProxy(options: { upstream: string | Pick<Sandbox, 'url' | 'answer'>; transform?: Transform; host?: string }): Promise<RunningProxy> {
  const transform = options.transform ?? {};
  const inProcess = typeof options.upstream === 'string' ? null : options.upstream;
  const upstream = (typeof options.upstream === 'string' ? options.upstream : options.upstream.url).replace(/\/$/, '');
  const upstreamOrigin = new URL(upstream).origin;
  const background = new Set<Promise<unknown>>();
  /** relay URL → the suite's own URL, to hide the relay from the suite in responses. */
  const relayed = new Map<string, string>();
  let effects = 0;
  /** Runs a step of the transform on a message and counts an effect where the message changed. */
  const counted = async <T>(message: object, step: () => T | Promise<T>): Promise<T> => {
    const before = snapshot(message);
    const result = await step();
    if (snapshot(message) !== before) effects++;
    return result;
  };

  const track = (work: Promise<unknown>) => {
    const settled = work.catch(() => undefined).finally(() => background.delete(settled));
    background.add(settled);
  };

  async function callUpstream(method: string, path: string, headers: Record<string, string>, body?: string): Promise<ProxyResponse> {
    const sent = { method, headers: plainHeaders(headers), body: method === 'GET' || method === 'HEAD' || body === '' ? undefined : body };
    const answer = inProcess
      ? await inProcess.answer({ ...sent, url: path })
      : await fetch(upstream + path, { ...sent, redirect: 'manual' }).then(async (fetched) => ({
          status: fetched.status,
          headers: fetched.headers,
          text: await fetched.text(),
        }));
    let text = answer.text.replaceAll(upstreamOrigin, context.origin);
    for (const [relay, original] of relayed) text = text.replaceAll(relay, original);
    const responseHeaders = plainHeaders(answer.headers);
    if (responseHeaders.location) responseHeaders.location = responseHeaders.location.replaceAll(upstreamOrigin, context.origin);
    return { status: answer.status, headers: responseHeaders, json: parseJson(text), text };
  }

  async function deliver(delivery: Delivery): Promise<number> {
    const answer = await fetch(delivery.to, {
      method: 'POST',
      headers: { ...delivery.headers, 'content-type': 'application/json' },
      body: JSON.stringify(delivery.json),
      redirect: 'manual',
    });
    await answer.arrayBuffer();
    return answer.status;
  }

  const context: ProxyContext = {
    origin: '',
    checkouts: new Map(),
    payments: new Map(),
    customers: new Set(),
    webhookUrl: null,
    lastCallbackUrl: null,
    memo: new Map(),
    mayRace: () => undefined,
    callUpstream: (method, path, json) =>
      json === undefined ? callUpstream(method, path, {}) : callUpstream(method, path, { 'content-type': 'application/json' }, JSON.stringify(json)),
    deliver: (delivery) => {
      effects++;
      return deliver(delivery);
    },
    postInBackground: (url, json) => {
      effects++;
      track(fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) }).then((r) => r.arrayBuffer()));
    },
    checkoutOfPage: (path) => [...context.checkouts.values()].find((checkout) => checkout.pagePath === path),
  };

  function relayUrl(channel: Delivery['channel'], to: string): string {
    const url = `${context.origin}${relayPath}${channel}?to=${encodeURIComponent(to)}`;
    relayed.set(url, to);
    return url;
  }

  /**
   * Points the target's notifications at the relay, and remembers where the suite wanted them.
   * Answers the suite's callbackUrl of a reference request, if it has one.
   */
  function routeNotificationsThroughRelay(request: ProxyRequest): string | null {
    const body = request.json as Record<string, unknown> | undefined;
    if (request.route === 'createReference' && typeof body?.callbackUrl === 'string') {
      const callbackUrl = body.callbackUrl;
      context.lastCallbackUrl = callbackUrl;
      body.callbackUrl = relayUrl('callback', callbackUrl);
      return callbackUrl;
    }
    if (request.route === 'setWebhook' && typeof body?.url === 'string') {
      context.webhookUrl = body.url;
      body.url = relayUrl('webhook', body.url);
    }
    if (request.route === 'removeWebhook') context.webhookUrl = null;
    return null;
  }

  function remember(request: ProxyRequest, response: ProxyResponse, callbackUrl: string | null): void {
    if (response.status < 200 || response.status > 299) return;
    const data = (response.json as { data?: any } | undefined)?.data;
    const customer = (request.json as any)?.payment?.customer?.uuid;
    if (request.route === 'createCheckout' && data && typeof data.id === 'string') {
      if (typeof customer === 'string') context.customers.add(customer.toLowerCase());
      const pagePath = typeof data.checkoutUrl === 'string' ? new URL(data.checkoutUrl, context.origin).pathname : '';
      context.checkouts.set(data.id, { id: data.id, paymentId: data.paymentId, request: request.json, pagePath });
    }
    if (request.route === 'createReference' && data && typeof data.id === 'string') {
      context.payments.set(data.id, { id: data.id, request: { ...(request.json as object), callbackUrl: callbackUrl ?? undefined }, callbackUrl });
    }
    const registered = (response.json as { uuid?: unknown } | undefined)?.uuid;
    if (request.route === 'registerCustomer' && typeof registered === 'string') context.customers.add(registered.toLowerCase());
  }

  function applyRedirect(response: ProxyResponse, request: ProxyRequest): void {
    if (!transform.redirect) return;
    const location = response.headers.location;
    const redirected = (url: string) => {
      const changed = transform.redirect!(url, context, request);
      if (changed !== url) effects++;
      return changed;
    };
    if (location && response.status >= 300 && response.status < 400 && isExternal(location, context.origin)) {
      response.headers.location = redirected(location);
    }
    const body = response.json as { redirectUrl?: unknown } | undefined;
    if (request.route === 'payCheckout' && typeof body?.redirectUrl === 'string') body.redirectUrl = redirected(body.redirectUrl);
  }

  async function relay(channel: Delivery['channel'], url: URL, incoming: IncomingMessage, text: string): Promise<ProxyResponse> {
    const received: Delivery = { channel, to: url.searchParams.get('to') ?? '', json: parseJson(text), headers: plainHeaders(incoming.headers) };
    const untouched = snapshot(received);
    const deliveries = transform.notification ? transform.notification(received, context) : [received];
    if (deliveries.length !== 1 || snapshot(deliveries[0]) !== untouched) effects++;
    let status = 200;
    for (const [index, delivery] of deliveries.entries()) {
      const answered = await deliver(delivery).catch(() => 502);
      if (index === 0) status = answered;
    }
    return { status, headers: {}, json: undefined, text: '' };
  }

  async function handle(incoming: IncomingMessage): Promise<ProxyResponse> {
    const url = new URL(incoming.url ?? '/', context.origin);
    const text = (await readText(incoming)).text;
    const method = incoming.method ?? 'GET';
    if (url.pathname.startsWith(relayPath)) {
      return relay(url.pathname.endsWith('/webhook') ? 'webhook' : 'callback', url, incoming, text);
    }
    const request: ProxyRequest = {
      ...routeOf(method, url.pathname),
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: plainHeaders(incoming.headers, true),
      headerNames: incoming.rawHeaders.filter((_, at) => at % 2 === 0),
      json: parseJson(text),
      text,
    };
    const answeredByTransform = await counted(request, () => transform.request?.(request, context));
    if (answeredByTransform) {
      effects++;
      return answeredByTransform;
    }
    Object.assign(request, routeOf(request.method, request.path));
    const callbackUrl = routeNotificationsThroughRelay(request);
    const query = request.query.toString();
    const response = await callUpstream(request.method, request.path + (query ? `?${query}` : ''), request.headers, bodyOf(request));
    remember(request, response, callbackUrl);
    await counted(response, () => transform.response?.(response, request, context));
    applyRedirect(response, request);
    return response;
  }

  async function serve(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    try {
      const response = await handle(incoming);
      if (transform.delayMs) {
        effects++;
        await sleep(transform.delayMs);
      }
      const text = bodyOf(response);
      const body = response.headers['content-encoding'] === 'gzip' ? gzipSync(text) : Buffer.from(text);
      if (response.headers['transfer-encoding'] === 'chunked') {
        // Node codes the body in chunks itself where the answer says so: one chunk per write.
        outgoing.writeHead(response.status, response.headers);
        for (let at = 0; at < body.length; at += answerChunkBytes) outgoing.write(body.subarray(at, at + answerChunkBytes));
        outgoing.end();
        return;
      }
      outgoing.writeHead(response.status, { ...response.headers, 'content-length': body.length });
      outgoing.end(body);
    } catch (error) {
      outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`mutant proxy: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // Node's 5 s keep-alive, against a client that reuses the socket as the proxy closes it, is a race
  // that a busy machine loses ("other side closed"); Fastify's 72 s, as the sandbox has.
  const server = createServer({ keepAliveTimeout: 72_000 }, (incoming, outgoing) => void serve(incoming, outgoing));
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  context.origin = `http://${options.host ?? '127.0.0.1'}:${port}`;

  return {
    url: context.origin,
    context,
    effects: () => effects,
    async close() {
      await Promise.all(background);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
