/**
 * The forwarding half of "observe": a loopback HTTP proxy that streams every request to the
 * upstream and every answer back, untouched, while it keeps a copy of each body (up to a cap) for
 * judging. The copy is handed over only once the answer has been sent to the client.
 */
import { createServer, Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Exchange } from '../checks/problem.ts';
import { recordedBody } from '../core/http.ts';
import { describeTransportFailure, tlsMaterial } from '../core/transport.ts';
import type { Transport } from '../core/transport-options.ts';

export interface ForwardedExchange {
  /** Path and query as the client asked, relative to the upstream's base URL. */
  path: string;
  /** The request as forwarded and the answer as the client got it (the proxy's own 502 where the upstream failed). */
  exchange: Exchange;
  /** Why the exchange cannot be judged (a body over the cap, no answer from the upstream), else null. */
  unjudged: string | null;
}

export interface ForwardingProxyOptions {
  upstream: string;
  /** 0 picks a free port. */
  port: number;
  /** The most of one body kept for judging; the forwarded body is never cut. */
  bodyCapBytes: number;
  /** An upstream silent for this long (no headers, no body bytes) is given up: the client gets a 502 or a closed connection. */
  upstreamTimeoutMs: number;
  /** Its TLS material is the upstream's (the CA, the client certificate, --insecure); its proxy does not apply. */
  transport: Transport;
  onExchange(forwarded: ForwardedExchange): void;
}

export interface ForwardingProxy {
  url: string;
  close(): Promise<void>;
}

/** Headers that belong to one connection, not to the message (RFC 9110 7.6.1), and Host, which names the upstream. */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

function forwardable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name)));
}

/** Headers as evidence records them: one string per name. */
function flat(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** Keeps the first capBytes of what a stream carries, without slowing it. */
function copyOf(stream: Readable, capBytes: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    if (size < capBytes) chunks.push(chunk.subarray(0, capBytes - size));
    size += chunk.length;
  });
  return { bytes: () => Buffer.concat(chunks), cut: () => size > capBytes };
}

function decoded(bytes: Buffer, encoding: string | undefined, capBytes: number): string {
  const options = { maxOutputLength: capBytes };
  const plain =
    encoding === 'gzip'
      ? gunzipSync(bytes, options)
      : encoding === 'deflate'
        ? inflateSync(bytes, options)
        : encoding === 'br'
          ? brotliDecompressSync(bytes, options)
          : bytes;
  return plain.toString('utf8');
}

export async function startForwardingProxy(options: ForwardingProxyOptions): Promise<ForwardingProxy> {
  const upstream = new URL(options.upstream);
  const basePath = upstream.pathname.replace(/\/$/, '');
  const secure = upstream.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true, ...tlsMaterial(options.transport) }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  const inFlight = new Set<Promise<void>>();

  function forward(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const startedAt = performance.now();
    const path = incoming.url ?? '/';
    const url = `${upstream.origin}${basePath}${path}`;
    const method = incoming.method ?? 'GET';
    const requestCopy = copyOf(incoming, options.bodyCapBytes);
    const requestHeaders = forwardable(incoming.headers);
    let responseCopy: ReturnType<typeof copyOf> | null = null;
    // The headers as sent: getHeaders() does not see those given to writeHead(status, headers).
    let responseHeaders: IncomingHttpHeaders = {};
    let failure: string | null = null;

    const upstreamRequest = send(url, { method, headers: { ...requestHeaders, host: upstream.host }, agent });
    upstreamRequest.setTimeout(options.upstreamTimeoutMs, () => upstreamRequest.destroy(new Error(`no answer for ${options.upstreamTimeoutMs} ms`)));
    upstreamRequest.on('response', (answer) => {
      responseCopy = copyOf(answer, options.bodyCapBytes);
      responseHeaders = forwardable(answer.headers);
      outgoing.writeHead(answer.statusCode ?? 502, answer.statusMessage, responseHeaders);
      pipeline(answer, outgoing, (error) => {
        if (error && !outgoing.writableFinished) failure ??= `the upstream's answer broke off: ${error.message}`;
      });
    });
    upstreamRequest.on('error', (error) => {
      failure ??= `the upstream failed: ${describeTransportFailure(error, url, options.transport) ?? error.message}`;
      if (!outgoing.headersSent) {
        responseHeaders = { 'content-type': 'text/plain; charset=utf-8' };
        outgoing.writeHead(502, responseHeaders).end(`checkout-conformance observe: ${failure}\n`);
      } else {
        outgoing.destroy();
      }
    });
    pipeline(incoming, upstreamRequest, () => {});
    // A client that leaves early takes its upstream request with it.
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) upstreamRequest.destroy();
    });

    return new Promise<void>((resolve) => {
      outgoing.on('close', () => {
        // The answer is sent (or the connection is gone): judging starts from here, off the response path.
        setImmediate(() => {
          resolve();
          const answered = responseCopy !== null && failure === null;
          const cut = requestCopy.cut() || (responseCopy?.cut() ?? false);
          let responseText = '';
          let unjudged = !answered
            ? (failure ?? 'the client left before the answer')
            : cut
              ? `a body over ${options.bodyCapBytes} bytes (cut for judging)`
              : null;
          if (answered && !cut) {
            try {
              responseText = decoded(responseCopy!.bytes(), responseHeaders['content-encoding']?.toString(), options.bodyCapBytes);
            } catch (error) {
              unjudged = `an answer body that could not be decoded: ${(error as Error).message}`;
            }
          }
          options.onExchange({
            path,
            exchange: {
              request: { method, url, headers: flat(incoming.headers), body: recordedBody(requestCopy.bytes().toString('utf8')) },
              response: {
                status: answered ? outgoing.statusCode : 502,
                headers: flat(responseHeaders),
                body: answered ? recordedBody(responseText) : failure,
                durationMs: Math.round(performance.now() - startedAt),
              },
            },
            unjudged,
          });
        });
      });
    });
  }

  const server = createServer({ keepAliveTimeout: 72_000 }, (incoming, outgoing) => {
    const done = forward(incoming, outgoing);
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Exchanges under way get a moment to finish; a silent upstream does not hold the stop.
      await Promise.race([Promise.all(inFlight), sleep(1000)]);
      server.closeAllConnections();
      agent.destroy();
      await closed;
      await Promise.all(inFlight);
    },
  };
}
