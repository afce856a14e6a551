/**
 * The suite's own HTTP receiver: it takes notifications (callbackUrl, webhook), serves the merchant
 * page of the embed check (PAGE-2) and answers the action redirects (PAGE-3/7), recording every
 * request so that a test can wait for one, or make sure none came.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { RecordedRequest } from '../core/evidence.ts';
import { readText, recordedBody } from '../core/http.ts';
import { merchantPage, merchantPageForms, type MerchantPageForm } from '../generators/merchant-pages.ts';

export interface ReceivedRequest extends RecordedRequest {
  path: string;
  rawBody: string;
  receivedAt: number;
}

export interface Receiver {
  /** The address the target must call: the public callback URL where one is given. */
  readonly url: string;
  /** A fresh path of this receiver, so that one test's requests are told from another's; `tail` is more path after it (a form of address). */
  newPath(prefix: string, tail?: string): string;
  urlOf(path: string): string;
  /** A merchant page holding form.paymentWidgets (as `form` writes it, by default the first of merchantPageForms) and a script whose src is the checkoutUrl (PAGE-2). */
  merchantPageUrl(checkoutUrl: string, form?: MerchantPageForm): string;
  received(path: string): ReceivedRequest[];
  /** The first request (already received or still to come) that satisfies the predicate, or undefined after timeoutMs. */
  waitFor(predicate: (request: ReceivedRequest) => boolean, timeoutMs: number): Promise<ReceivedRequest | undefined>;
  close(): Promise<void>;
}

function parse(text: string, contentType: string | undefined): unknown {
  if (contentType?.includes('x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  return recordedBody(text);
}

export async function startReceiver(options: { host: string; publicUrl: string | null; onReceived?: (request: ReceivedRequest) => void }): Promise<Receiver> {
  const all: ReceivedRequest[] = [];
  const waiters = new Set<(request: ReceivedRequest) => void>();

  const server = createServer(async (request, response) => {
    const rawBody = (await readText(request)).text;
    const url = new URL(request.url ?? '/', 'http://receiver');
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    const received: ReceivedRequest = {
      method: request.method ?? 'GET',
      url: `${url.pathname}${url.search}`,
      path: url.pathname,
      headers,
      body: parse(rawBody, request.headers['content-type']),
      rawBody,
      receivedAt: Date.now(),
    };
    all.push(received);
    options.onReceived?.(received);
    for (const waiter of waiters) waiter(received);
    if (url.pathname === '/merchant/embed') {
      const form = merchantPageForms[Number(url.searchParams.get('form'))] ?? merchantPageForms[0];
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(merchantPage(url.searchParams.get('checkoutUrl') ?? '', form));
    } else if (received.method === 'GET') {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>Merchant</title><p data-testid="merchant-landing">Back at the merchant</p>');
    } else {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, options.host, resolve));
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = (options.publicUrl ?? `http://${host}:${port}`).replace(/\/$/, '');

  return {
    url,
    newPath: (prefix, tail = '') => `/${prefix}/${randomUUID()}${tail}`,
    urlOf: (path) => `${url}${path}`,
    merchantPageUrl: (checkoutUrl, form = merchantPageForms[0]) =>
      `${url}/merchant/embed?checkoutUrl=${encodeURIComponent(checkoutUrl)}&form=${merchantPageForms.indexOf(form)}`,
    received: (path) => all.filter((request) => request.path === path),
    waitFor(predicate, timeoutMs) {
      const already = all.find(predicate);
      if (already) return Promise.resolve(already);
      return new Promise((resolve) => {
        const done = (found: ReceivedRequest | undefined) => {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(found);
        };
        const waiter = (request: ReceivedRequest) => {
          if (predicate(request)) done(request);
        };
        const timer = setTimeout(() => done(undefined), timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
