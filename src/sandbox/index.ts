import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from './app.ts';
import type { PageStyleName } from './context.ts';
import { openDatabase } from './db.ts';
import { createNotifier } from './notifications.ts';
import { createPaymentProcessor } from './payments.ts';
import { createStore } from './store.ts';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** ':memory:' or a file path (its folder is created); default '.sandbox/sandbox.db'. */
  db?: string;
  /** Entity number of the ATM references. */
  entity?: string;
  /** Key of the PayPay-Signature HMAC of notifications. */
  notificationSecret?: string;
  /** Delays between tries of a failed notification; default three tries thirty minutes apart. */
  retryDelaysMs?: number[];
  /** The markup of the hosted pages and the widget: 'plain' (data-testid hooks) or 'portal' (see portal.ts). */
  pageStyle?: PageStyleName;
  /** Every request is answered this much later (a hosted sandbox's round trip), for measuring the suite against one. */
  latencyMs?: number;
}

export interface Sandbox {
  /** `{base_url}`: http://127.0.0.1:<port> */
  url: string;
  /** Answers a request in this process, as it would over the wire, without a socket: the mutant catalogue's proxies, hundreds in one process, call it so. */
  answer(request: InProcessRequest): Promise<InProcessAnswer>;
  /** Stops the server, the pending notification tries and the database. */
  close(): Promise<void>;
}

export interface InProcessRequest {
  method: string;
  /** The path and query. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface InProcessAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export const defaultSandboxOptions = {
  port: 0,
  db: '.sandbox/sandbox.db',
  entity: '12345',
  notificationSecret: 'sandbox-notification-secret',
  retryDelaysMs: [1_800_000, 1_800_000],
  pageStyle: 'plain',
  latencyMs: 0,
} satisfies Required<SandboxOptions>;

/** Starts the reference sandbox on 127.0.0.1. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const settings = { ...defaultSandboxOptions, ...options };
  const db = openDatabase(settings.db);
  const store = createStore(db, settings.entity);
  const notifier = createNotifier(store, settings.notificationSecret, settings.retryDelaysMs);
  const processor = createPaymentProcessor(store, notifier);
  let url = '';
  const app = buildApp({ store, processor, baseUrl: () => url, pageStyle: settings.pageStyle });
  if (settings.latencyMs > 0) app.addHook('onRequest', () => sleep(settings.latencyMs));
  try {
    await app.listen({ host: '127.0.0.1', port: settings.port });
  } catch (error) {
    db.close();
    throw error;
  }
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  notifier.resume();
  return {
    url,
    async answer({ method, url: path, headers, body }) {
      const answered = await app.inject({ method: method as 'GET', url: path, headers, ...(body !== undefined && { payload: body }) });
      const answerHeaders = Object.fromEntries(
        Object.entries(answered.headers).flatMap(([name, value]) =>
          value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : String(value)]],
        ),
      );
      return { status: answered.statusCode, headers: answerHeaders, text: answered.body };
    },
    async close() {
      await app.close();
      await notifier.close();
      db.close();
    },
  };
}
