/**
 * One bounded request before any spec, so that a target that cannot be tested is found in seconds
 * rather than once per test: a GET of an unknown payment. Any complete HTTP answer, whatever its
 * status or body, means the target can be tested (the checks judge the content); an answer that does
 * not start, does not end, breaks off, resets, or redirects without end within the time-out means
 * it cannot.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';

/** Joins a path to a base URL that may itself carry a path ("https://host/api"). */
export function targetUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** Enough of a body to know the target answers: the rest of a huge one is not waited for. */
const bodyReadBytes = 1024 * 1024;
/** Same-origin redirects followed before the target counts as redirecting without end. */
const maxRedirects = 5;

type Probe = { answered: true; location: string | null } | { answered: false; reason: string };

/**
 * Resolves to null when the target answered, else to the reason it cannot be tested. timeoutMs
 * bounds the whole preflight: connecting, the first byte and the last one, redirects included.
 */
export async function preflight(baseUrl: string, headers: Record<string, string>, timeoutMs: number): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  let url = new URL(targetUrl(baseUrl, `/payments/${randomUUID()}`));
  for (let redirects = 0; ; redirects++) {
    const probe = await get(url, headers, Math.max(deadline - Date.now(), 0), timeoutMs);
    if (!probe.answered) return `target ${baseUrl} ${probe.reason}`;
    if (probe.location === null) return null;
    const next = new URL(probe.location, url);
    // The run's credentials go to the target's own origin only: another origin's redirect is an answer.
    if (next.origin !== url.origin) return null;
    if (redirects === maxRedirects)
      return `target ${baseUrl} cannot be tested: it redirects without end (${maxRedirects} redirects, the last to ${next.pathname}${next.search})`;
    url = next;
  }
}

/** leftMs: what is left of the preflight's time-out, timeoutMs, which the messages name. */
function get(url: URL, headers: Record<string, string>, leftMs: number, timeoutMs: number): Promise<Probe> {
  return new Promise((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, { method: 'GET', headers: { accept: 'application/json', ...headers } });
    let settled = false;
    const settle = (probe: Probe) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(probe);
    };
    const timer = setTimeout(() => settle({ answered: false, reason: timedOut(request.socket, timeoutMs) }), leftMs);
    request.on('error', (error: NodeJS.ErrnoException) => settle({ answered: false, reason: `is unreachable: ${describeSocketError(error)}` }));
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const location = status >= 300 && status < 400 ? (response.headers.location ?? null) : null;
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= bodyReadBytes) settle({ answered: true, location });
      });
      response.on('end', () => settle({ answered: true, location }));
      response.on('error', () => {});
      response.on('close', () => {
        if (!response.complete)
          settle({
            answered: false,
            reason: `cannot be tested: its answer (status ${status}) broke off after ${received} bytes of body${announced(response)}`,
          });
      });
    });
    request.end();
  });
}

function timedOut(socket: Socket | null, timeoutMs: number): string {
  if (!socket || socket.connecting) return `is unreachable: no connection within ${timeoutMs} ms`;
  if (socket.bytesRead === 0) return `is unreachable: it accepted the connection but sent nothing within ${timeoutMs} ms`;
  return `cannot be tested: its answer did not end within ${timeoutMs} ms (${socket.bytesRead} bytes by then)`;
}

function announced(response: IncomingMessage): string {
  const length = response.headers['content-length'];
  return length ? ` (Content-Length ${length})` : '';
}

function describeSocketError(error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNRESET') return `the connection was reset (${error.message})`;
  return error.message;
}
