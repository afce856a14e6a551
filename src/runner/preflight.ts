/**
 * One bounded request before any spec, so that a target that cannot be tested is found in seconds
 * rather than once per test: a GET of an unknown payment. Any complete HTTP answer, whatever its
 * status or body, means the target can be tested (the checks judge the content); an answer that does
 * not start, does not end, breaks off, resets, or redirects without end within the time-out means
 * it cannot.
 */
import { randomUUID } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { describeTransportFailure, dispatcherFor, KeptWaiting, requestThrough, spkiPin, type PlainAnswer } from '../core/transport.ts';
import type { Transport } from '../core/transport-options.ts';
import { pathOf } from '../core/operations.ts';

/** Joins a path to a base URL that may itself carry a path ("https://host/api"). */
export function targetUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** Enough of a body to know the target answers: the rest of a huge one is not waited for. */
const bodyReadBytes = 1024 * 1024;
/** Same-origin redirects followed before the target counts as redirecting without end. */
const maxRedirects = 5;

type Probe = { answered: true; location: string | null } | { answered: false; reason: string };

export interface Preflight {
  /** Why the target cannot be tested, or null. */
  failure: string | null;
  /** The public keys (spkiPin) of the certificates the target presented and the transport verified. */
  verifiedServerKeys: string[];
}

/**
 * The connections undici opens to one origin while the preflight runs, seen on its diagnostics
 * channel: what the target sent on them (none made: null), and the certificates that passed verification.
 */
function watchConnections(origin: URL) {
  const port = origin.port || (origin.protocol === 'https:' ? '443' : '80');
  const sockets: Socket[] = [];
  const onConnected = (message: unknown) => {
    const { connectParams, socket } = message as { connectParams: { hostname: string; port: string }; socket: Socket };
    if (connectParams.hostname === origin.hostname && String(connectParams.port || port) === port) sockets.push(socket);
  };
  subscribe('undici:client:connected', onConnected);
  return {
    /** null: no connection yet; else the bytes the target sent on its connections. */
    bytesRead: () => (sockets.length === 0 ? null : sockets.reduce((sum, socket) => sum + socket.bytesRead, 0)),
    verifiedServerKeys: () =>
      sockets.flatMap((socket) => {
        const certificate = socket instanceof TLSSocket && socket.authorized ? socket.getPeerX509Certificate() : undefined;
        return certificate ? [spkiPin(certificate)] : [];
      }),
    stop: () => unsubscribe('undici:client:connected', onConnected),
  };
}

/**
 * Resolves to the reason the target cannot be tested (null when it answered), through the run's
 * transport. timeoutMs bounds the whole preflight: connecting, the first byte and the last one,
 * redirects included, but for the waits the target asks for (a 429), which have their own bound.
 */
export async function preflight(baseUrl: string, headers: Record<string, string>, timeoutMs: number, transport: Transport): Promise<Preflight> {
  let deadline = Date.now() + timeoutMs;
  let url = new URL(targetUrl(baseUrl, pathOf('getPayment', randomUUID())));
  try {
    dispatcherFor(transport);
  } catch (error) {
    return { failure: (error as Error).message, verifiedServerKeys: [] };
  }
  const connections = watchConnections(url);
  const result = (failure: string | null): Preflight => ({ failure, verifiedServerKeys: failure ? [] : connections.verifiedServerKeys() });
  try {
    for (let redirects = 0; ; redirects++) {
      const probe = await get(url, headers, Math.max(deadline - Date.now(), 0), timeoutMs, transport, connections.bytesRead);
      deadline += probe.waitedMs;
      if (!probe.answered) return result(`target ${baseUrl} ${probe.reason}`);
      if (probe.location === null) return result(null);
      const next = new URL(probe.location, url);
      // The run's credentials go to the target's own origin only: another origin's redirect is an answer.
      if (next.origin !== url.origin) return result(null);
      if (redirects === maxRedirects)
        return result(`target ${baseUrl} cannot be tested: it redirects without end (${maxRedirects} redirects, the last to ${next.pathname}${next.search})`);
      url = next;
    }
  } finally {
    connections.stop();
  }
}

/**
 * leftMs: what is left of the preflight's time-out, timeoutMs, which the messages name; the waits the
 * target asks for are not in it (waitedMs).
 */
async function get(
  url: URL,
  headers: Record<string, string>,
  leftMs: number,
  timeoutMs: number,
  transport: Transport,
  bytesRead: () => number | null,
): Promise<Probe & { waitedMs: number }> {
  let answer: PlainAnswer | null = null;
  let received = 0;
  try {
    answer = await requestThrough(transport, url.href, () => ({ method: 'GET', headers: { accept: 'application/json', ...headers } }), { timeoutMs: leftMs });
    const location = answer.status >= 300 && answer.status < 400 ? (answer.headers.location ?? null) : null;
    for await (const chunk of answer.body) {
      received += chunk.length;
      if (received >= bodyReadBytes) break;
    }
    return { answered: true, location, waitedMs: answer.waitedMs };
  } catch (error) {
    const waitedMs = answer?.waitedMs ?? 0;
    if (error instanceof DOMException && error.name === 'TimeoutError') return { answered: false, reason: timedOut(bytesRead(), timeoutMs), waitedMs };
    if (error instanceof KeptWaiting) return { answered: false, reason: `cannot be tested: ${error.message}`, waitedMs };
    if (answer !== null)
      return {
        answered: false,
        reason: `cannot be tested: its answer (status ${answer.status}) broke off after ${received} bytes of body${announced(answer.headers)}`,
        waitedMs,
      };
    return {
      answered: false,
      reason: `is unreachable: ${describeTransportFailure(error, url.href, transport) ?? describeSocketError(error as NodeJS.ErrnoException)}`,
      waitedMs,
    };
  }
}

function timedOut(bytesRead: number | null, timeoutMs: number): string {
  if (bytesRead === null) return `is unreachable: no connection within ${timeoutMs} ms`;
  if (bytesRead === 0) return `is unreachable: it accepted the connection but sent nothing within ${timeoutMs} ms`;
  return `cannot be tested: its answer did not end within ${timeoutMs} ms (${bytesRead} bytes by then)`;
}

function announced(headers: Record<string, string>): string {
  const length = headers['content-length'];
  return length ? ` (Content-Length ${length})` : '';
}

function describeSocketError(error: NodeJS.ErrnoException): string {
  const cause = (error.cause as NodeJS.ErrnoException | undefined) ?? error;
  if (error.code === 'ECONNRESET' || cause.code === 'ECONNRESET') return `the connection was reset (${cause.message})`;
  return error.message;
}
