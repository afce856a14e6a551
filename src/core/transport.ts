/**
 * How the suite reaches the target: a private CA trusted besides the system's, a client certificate
 * (mutual TLS), verification skipped (--insecure), an HTTP proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY
 * or --proxy). One undici dispatcher carries them for every request the suite's own code sends (the
 * preflight, the probes, the specs' client); browserContextTransport and chromiumTransportArgs give
 * the hosted-page browser the same. The run config holds file paths, never key material.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, getCACertificates, rootCertificates, setDefaultCACertificates } from 'node:tls';
import { pipeline, Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';
import { directTransport, proxyFor, shownProxy, type AskedToWait, type Transport } from './transport-options.ts';
import type { Dispatcher, RequestInit, Response } from 'undici';

let loadedUndici: typeof import('undici') | undefined;
/** undici, loaded at the first request: it takes about 50 ms to load, and Playwright's process, listing the tests, sends none. */
const undici = () => (loadedUndici ??= createRequire(import.meta.url)('undici') as typeof import('undici'));

interface TlsMaterial {
  ca?: string[];
  cert?: Buffer;
  key?: Buffer;
  rejectUnauthorized: boolean;
}

function readOption(option: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new Error(`${option} ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** Every PEM certificate in text. */
function pemCertificates(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/** The system's certificate authorities, as Node trusts them (with NODE_EXTRA_CA_CERTS and --use-system-ca). */
const systemCertificates = (): string[] => (typeof getCACertificates === 'function' ? getCACertificates('default') : [...rootCertificates]);

/**
 * The files read and checked, each problem a one-line error naming its option: unreadable, no PEM
 * certificate, a key that is not the certificate's.
 */
export function tlsMaterial(transport: Transport): TlsMaterial {
  const material: TlsMaterial = { rejectUnauthorized: !transport.insecure };
  if (transport.extraCaCertsFile) {
    const extra = pemCertificates(readOption('--ssl-extra-ca-certs', transport.extraCaCertsFile).toString('utf8'));
    if (extra.length === 0) throw new Error(`--ssl-extra-ca-certs ${transport.extraCaCertsFile} holds no PEM certificate`);
    material.ca = [...systemCertificates(), ...extra];
  }
  if (transport.clientCertFile && transport.clientKeyFile) {
    material.cert = readOption('--ssl-client-cert', transport.clientCertFile);
    material.key = readOption('--ssl-client-key', transport.clientKeyFile);
    try {
      createSecureContext({ cert: material.cert, key: material.key });
    } catch (error) {
      const why = (error as Error).message;
      if (/key values mismatch/i.test(why))
        throw new Error(`--ssl-client-key ${transport.clientKeyFile} is not the key of --ssl-client-cert ${transport.clientCertFile}`);
      throw new Error(
        `--ssl-client-cert ${transport.clientCertFile} with --ssl-client-key ${transport.clientKeyFile} is no usable PEM certificate and key (${why})`,
      );
    }
  }
  return material;
}

const dispatchers = new Map<string, Dispatcher>();

/**
 * The process's dispatcher for a transport, made once: it keeps connections alive between requests,
 * unless asked for connections of their own (one per request).
 */
export function dispatcherFor(transport: Transport = directTransport, keepAlive = true): Dispatcher {
  const key = JSON.stringify({ transport, keepAlive });
  let dispatcher = dispatchers.get(key);
  if (!dispatcher) {
    const tls = tlsMaterial(transport);
    dispatcher = new (undici().EnvHttpProxyAgent)({
      httpProxy: transport.httpProxy,
      httpsProxy: transport.httpsProxy,
      noProxy: transport.noProxy,
      connect: tls,
      requestTls: tls,
      ...(!keepAlive && { pipelining: 0 }),
    });
    dispatchers.set(key, dispatcher);
  }
  return dispatcher;
}

/**
 * A request whose connection closed before any answer goes once more, on a connection of its own,
 * as browsers resend it: a server may close a kept-alive connection for idleness just as a request
 * travels on it, however conformant. initOf gives the request anew (a stream body is sent once).
 */
async function sentWithOneResend<Init extends { signal?: AbortSignal | null }, Answer>(
  transport: Transport | undefined,
  initOf: () => Init,
  send: (init: Init, dispatcher: Dispatcher) => Promise<Answer>,
  onResent?: (why: string) => void,
): Promise<Answer> {
  try {
    return await send(initOf(), dispatcherFor(transport));
  } catch (error) {
    const resend = initOf();
    if (!closedBeforeAnswer(rootCause(error)) || resend.signal?.aborted) throw error;
    onResent?.(`the connection closed before any answer (${rootCause(error).message}): sent again on a new connection`);
    return send(resend, dispatcherFor(transport, false));
  }
}

/** How a request is sent, beside what it carries. */
export interface Sending {
  /**
   * Each attempt's time-out, from its sending to the last byte of its answer: the waits the target
   * asks for between attempts are not in it (they have a bound of their own, askedWaitPatienceMs).
   */
  timeoutMs?: number;
  /** Hears why the request went again: its connection closed before any answer, or the target asked to wait. */
  onResent?: (why: string) => void;
}

/**
 * The most one request waits, in all, where the target asks it to (429, or 503 with Retry-After), and
 * the longest a target may ask every request to wait without answering any: then the request fails.
 */
export const askedWaitPatienceMs = 60_000;
/** The first wait of a 429 without Retry-After; each one after it doubles, up to maxBackOffMs. */
const firstBackOffMs = 1000;
const maxBackOffMs = 16_000;

/**
 * How long an answer asks the client to wait before it sends the request again, or null where it is
 * an answer: a 429 (too many requests), or a 503 with Retry-After (unavailable for that long), is the
 * target asking to wait, never its answer to the request. Retry-After in seconds or as an HTTP date;
 * a 429 without one backs off exponentially from 1 s (askedBefore: how many times this request was
 * asked already), half of the wait drawn at random, so that requests sent together do not all come back together.
 */
export function askedWaitMs(status: number, retryAfter: string | undefined, askedBefore: number, now = Date.now(), random = Math.random): number | null {
  if (status !== 429 && !(status === 503 && retryAfter !== undefined)) return null;
  const given = retryAfter?.trim() ?? '';
  if (/^\d+$/.test(given)) return Number(given) * 1000;
  const date = Date.parse(given);
  if (given !== '' && Number.isFinite(date)) return Math.max(0, date - now);
  const backOff = Math.min(maxBackOffMs, firstBackOffMs * 2 ** askedBefore);
  return Math.round(backOff / 2 + (random() * backOff) / 2);
}

/** What the target asked this process so far; waitedMs: how long some request of it was waiting (overlapping waits count once). */
const askedToWait: AskedToWait = { answers: 0, waitedMs: 0 };
/** The end of the latest wait under way: waits that overlap count once. */
let waitingUntil = 0;
const waitListeners = new Set<(addedMs: number) => void>();
/**
 * By origin: when this process's requests may leave for it again (one of them was asked to wait until
 * then), and since when it has asked them to wait without answering any (null: its last answer was one).
 */
const origins = new Map<string, { resumeAt: number; askingSince: number | null }>();
const stateOf = (origin: string) => origins.get(origin) ?? origins.set(origin, { resumeAt: 0, askingSince: null }).get(origin)!;

export const askedToWaitSoFar = (): AskedToWait => ({ ...askedToWait });

/** Hears each wait the target asks for, as the time it adds to the process's waiting (overlapping waits count once); answers how to stop. */
export function onAskedToWait(listener: (addedMs: number) => void): () => void {
  waitListeners.add(listener);
  return () => waitListeners.delete(listener);
}

/** Waits until `until`, counted in the process's waiting; an abort of the request ends the wait. */
async function waitAsAsked(until: number, signal: AbortSignal | null | undefined): Promise<void> {
  const now = Date.now();
  if (until <= now) return;
  const addedMs = until - Math.max(now, waitingUntil);
  if (addedMs > 0) {
    waitingUntil = until;
    askedToWait.waitedMs += addedMs;
    for (const listener of waitListeners) listener(addedMs);
  }
  await sleep(until - now, undefined, { signal: signal ?? undefined });
}

/** The target went on asking to wait for longer than askedWaitPatienceMs. */
export class KeptWaiting extends Error {}

/**
 * The one path every request of the suite's own code takes (the preflight, the probes, the specs'
 * client and every module that sends through them): each attempt with a time-out of its own, sent
 * once more where its connection closed unanswered (sentWithOneResend), and again after the wait the
 * target asks for (askedWaitMs), which holds back this process's other requests to that origin too,
 * as a client of a rate-limited API does. statusOf and retryAfterOf read an answer; discard frees one
 * that is not kept.
 */
async function sentAsAsked<Init extends { signal?: AbortSignal | null }, Answer>(
  transport: Transport | undefined,
  url: string,
  initOf: () => Init,
  send: (init: Init, dispatcher: Dispatcher) => Promise<Answer>,
  read: { statusOf: (answer: Answer) => number; retryAfterOf: (answer: Answer) => string | undefined; discard: (answer: Answer) => Promise<void> },
  { timeoutMs, onResent }: Sending,
): Promise<{ answer: Answer; waitedMs: number }> {
  const origin = stateOf(new URL(url).origin);
  const callerSignal = initOf().signal;
  const started = Date.now();
  let waitedMs = 0;
  for (let asked = 0; ; asked++) {
    const waitStarted = Date.now();
    await waitAsAsked(origin.resumeAt, callerSignal);
    waitedMs += Date.now() - waitStarted;
    const attemptOf = () => {
      const init = initOf();
      if (timeoutMs === undefined) return init;
      const timeout = AbortSignal.timeout(timeoutMs);
      return { ...init, signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout };
    };
    const answer = await sentWithOneResend(transport, attemptOf, send, onResent);
    const status = read.statusOf(answer);
    const waitMs = askedWaitMs(status, read.retryAfterOf(answer), asked);
    if (waitMs === null) {
      origin.askingSince = null;
      return { answer, waitedMs };
    }
    askedToWait.answers += 1;
    await read.discard(answer);
    const now = Date.now();
    origin.askingSince ??= now;
    if (waitedMs + waitMs > askedWaitPatienceMs || now + waitMs - origin.askingSince > askedWaitPatienceMs)
      throw new KeptWaiting(
        `the target answered ${status} asking to wait ${waitMs} ms more, after ${asked + 1} such answers to this request, ${waitedMs} ms of waiting for it (${now - started} ms in all), and ${now - origin.askingSince} ms since it last answered one: more than the ${askedWaitPatienceMs} ms the suite waits`,
      );
    onResent?.(`answered ${status} (${status === 429 ? 'too many requests' : 'unavailable'}): sent again after ${waitMs} ms, as it asked`);
    origin.resumeAt = Math.max(origin.resumeAt, now + waitMs);
  }
}

/**
 * fetch() through the transport, as sentAsAsked sends it: again where the connection closed before
 * any answer, and after the waits the target asks for.
 */
export async function fetchThrough(
  transport: Transport | undefined,
  url: string,
  init: RequestInit | (() => RequestInit) = {},
  sending: Sending = {},
): Promise<Response> {
  const { answer } = await sentAsAsked(
    transport,
    url,
    typeof init === 'function' ? init : () => init,
    (sent, dispatcher) => undici().fetch(url, { ...sent, dispatcher }),
    {
      statusOf: (response) => response.status,
      retryAfterOf: (response) => response.headers.get('retry-after') ?? undefined,
      discard: (response) => response.body?.cancel() ?? Promise.resolve(),
    },
    sending,
  );
  return answer;
}

export interface PlainRequest {
  method: string;
  headers: Record<string, string>;
  /** Text, or chunks sent with Transfer-Encoding: chunked. */
  body?: string | AsyncIterable<Uint8Array>;
  signal?: AbortSignal;
}

export interface PlainAnswer {
  status: number;
  /** By lower-case name, repeated fields joined by ", ". */
  headers: Record<string, string>;
  /** Decoded of its content codings, as fetch() gives it. */
  body: AsyncIterable<Uint8Array>;
  /** How long the request waited before its last attempt, because the target asked it to (sentAsAsked). */
  waitedMs: number;
}

/** What fetch() adds to a request unasked: added here too, so that a target sees the same requests whichever client sent them. */
const fetchDefaultHeaders: Record<string, string> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'undici',
  'accept-encoding': 'gzip, deflate',
};

/**
 * A request through the transport as fetchThrough sends it, on undici's request(): it takes a third
 * of fetch()'s CPU (no WHATWG streams and Headers), which the thousands of requests of a run feel.
 * Redirects are answers, not followed.
 */
export async function requestThrough(transport: Transport | undefined, url: string, initOf: () => PlainRequest, sending: Sending = {}): Promise<PlainAnswer> {
  const { answer, waitedMs } = await sentAsAsked(
    transport,
    url,
    initOf,
    async ({ method, headers, body, signal }, dispatcher) => {
      const named = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
      const unasked = Object.fromEntries(Object.entries(fetchDefaultHeaders).filter(([name]) => !named.has(name)));
      const answer = await undici().request(url, {
        method: method as Dispatcher.HttpMethod,
        headers: { ...headers, ...unasked },
        body: typeof body === 'object' ? Readable.from(body) : body,
        signal,
        dispatcher,
      });
      const answerHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers))
        if (value !== undefined) answerHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
      return { status: answer.statusCode, headers: answerHeaders, raw: answer.body };
    },
    {
      statusOf: (answer) => answer.status,
      retryAfterOf: (answer) => answer.headers['retry-after'],
      discard: async (answer) => void (await answer.raw.dump().catch(() => undefined)),
    },
    sending,
  );
  return { status: answer.status, headers: answer.headers, body: decoded(answer.raw, answer.headers['content-encoding']), waitedMs };
}

/** The decoder of a content coding fetch() decodes, as leniently as it does (a body cut short gives what came); null for others. */
function decoderOf(coding: string): Transform | null {
  const lenient = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (coding === 'gzip' || coding === 'x-gzip') return zlib.createGunzip(lenient);
  if (coding === 'deflate') return zlib.createInflate(lenient);
  if (coding === 'br') return zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  return null;
}

/** A body decoded of its content codings, the last applied first; as it came where one is not known (as fetch() gives it). */
function decoded(body: Readable, contentEncoding: string | undefined): AsyncIterable<Uint8Array> {
  const codings = (contentEncoding ?? '')
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  const decoders = codings.map(decoderOf);
  if (decoders.length === 0 || decoders.includes(null)) return body;
  // The pipeline destroys every stage with the first error, which the last one's reader then meets.
  return pipeline([body, ...(decoders as Transform[])], () => undefined) as unknown as AsyncIterable<Uint8Array>;
}

/** OpenSSL's names for a certificate no trusted authority vouches for. */
const untrusted = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

type Failure = Error & { code?: string; cause?: unknown };

/** The innermost error of a chain of causes (fetch wraps the socket's). */
function rootCause(error: unknown): Failure {
  let current = error as Failure;
  while (current?.cause instanceof Error) current = current.cause as Failure;
  return current;
}

/**
 * Why a connection to url failed, in one line that names the option to use, where the transport
 * is the cause (the certificate, the client certificate, the proxy); else null.
 */
export function describeTransportFailure(error: unknown, url: string, transport: Transport = directTransport): string | null {
  const cause = rootCause(error);
  const code = cause?.code ?? '';
  const message = cause?.message ?? '';
  if (untrusted.has(code)) {
    const trusted = transport.extraCaCertsFile ? `neither the system's CAs nor --ssl-extra-ca-certs ${transport.extraCaCertsFile}` : "the system's CAs";
    return `the target's certificate is not trusted by ${trusted} (${code}): give its CA with --ssl-extra-ca-certs FILE (or skip verification with --insecure)`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `the target's certificate is not for ${new URL(url).hostname} (${message})`;
  if (code === 'CERT_HAS_EXPIRED') return `the target's certificate has expired (${code})`;
  if (/^ERR_SSL_.*ALERT/.test(code) || /alert (certificate required|handshake failure|bad certificate|unknown ca)/i.test(message)) {
    const alert = /(?:tlsv1\d? |sslv3 )?alert [a-z ]+/i.exec(message)?.[0].trim() ?? message;
    return transport.clientCertFile
      ? `the target refused the TLS handshake with the client certificate --ssl-client-cert ${transport.clientCertFile} (${alert})`
      : `the target refused the TLS handshake (${alert}): if it requires a client certificate, give --ssl-client-cert FILE with --ssl-client-key FILE`;
  }
  if (new URL(url).protocol === 'https:' && closedUnanswered(cause)) {
    // Under TLS 1.3 a server checks the client certificate after the client's half of the handshake: its refusal is a closed connection.
    return transport.clientCertFile
      ? `the target closed the TLS connection without an answer (${message}): it may refuse the client certificate --ssl-client-cert ${transport.clientCertFile}`
      : `the target closed the TLS connection without an answer (${message}): if it requires a client certificate, give --ssl-client-cert FILE with --ssl-client-key FILE`;
  }
  const proxy = proxyFor(url, transport);
  if (!proxy) return null;
  const tunnel = /Proxy response \((\d+)\) !== 200/.exec(message);
  if (tunnel) return `the proxy ${shownProxy(proxy)} refused to connect to the target (it answered ${tunnel[1]} to CONNECT)`;
  const { hostname, port } = new URL(proxy);
  const proxyPort = port || (proxy.startsWith('https:') ? '443' : '80');
  if (message.includes(`${hostname}:${proxyPort}`) || code === 'ENOTFOUND') return `the proxy ${shownProxy(proxy)} is unreachable (${message})`;
  return null;
}

/** The peer closed or reset the connection before a byte of its answer. */
function closedUnanswered(cause: Failure & { socket?: { bytesRead?: number } }): boolean {
  return (cause.code === 'UND_ERR_SOCKET' && cause.socket?.bytesRead === 0) || cause.code === 'ECONNRESET';
}

const closedBeforeAnswer = (cause: Failure) => ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'].includes(cause.code ?? '');

/** A public key as Chromium's --ignore-certificate-errors-spki-list names it: base64 of the SHA-256 of its SubjectPublicKeyInfo. */
export function spkiPin(certificate: X509Certificate): string {
  return createHash('sha256')
    .update(certificate.publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64');
}

/**
 * Chromium verifies certificates itself, against its own roots, and takes no CA file. Where the run
 * trusts a private CA, it accepts the keys that the run verified: those of the CA file's certificates
 * (for servers that present their chain up to them) and of the target's certificate as the
 * preflight saw it, verified against that CA. Any other certificate stays an error.
 */
export function chromiumTransportArgs(transport: Transport | undefined, verifiedServerKeys: readonly string[]): string[] {
  if (!transport?.extraCaCertsFile || transport.insecure) return [];
  const caKeys = pemCertificates(readFileSync(transport.extraCaCertsFile, 'utf8')).map((pem) => spkiPin(new X509Certificate(pem)));
  return [`--ignore-certificate-errors-spki-list=${[...new Set([...caKeys, ...verifiedServerKeys])].join(',')}`];
}

/**
 * With a client certificate, Playwright opens the target's TLS connections itself, in the worker,
 * trusting Node's default CAs: the private CA joins them there (Node 22.19 and later, 24.5 and later).
 */
export function trustExtraCaInThisProcess(transport: Transport | undefined): void {
  if (!transport?.extraCaCertsFile || typeof setDefaultCACertificates !== 'function') return;
  const { ca } = tlsMaterial(transport);
  if (ca) setDefaultCACertificates(ca);
}

/**
 * A browser context's share of the transport. The client certificate goes to the target's origin
 * only: hosted pages elsewhere are for customers' browsers, which have none. Loopback addresses of
 * the suite's own receiver (bypass) never go through the proxy.
 */
export function browserContextTransport(transport: Transport | undefined, baseUrl: string, bypass: readonly string[]) {
  if (!transport) return {};
  const proxy = proxyFor(baseUrl, transport);
  const proxyUrl = proxy ? new URL(proxy) : null;
  return {
    ...(transport.insecure && { ignoreHTTPSErrors: true }),
    ...(transport.clientCertFile &&
      transport.clientKeyFile && {
        clientCertificates: [{ origin: new URL(baseUrl).origin, certPath: transport.clientCertFile, keyPath: transport.clientKeyFile }],
      }),
    ...(proxyUrl && {
      proxy: {
        server: `${proxyUrl.protocol}//${proxyUrl.host}`,
        bypass: [...transport.noProxy.split(/[,\s]+/).filter(Boolean), ...bypass].join(','),
        ...(proxyUrl.username && { username: decodeURIComponent(proxyUrl.username), password: decodeURIComponent(proxyUrl.password) }),
      },
    }),
  };
}
