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
  /** Stops the server, the pending notification tries and the database. */
  close(): Promise<void>;
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
    async close() {
      await app.close();
      await notifier.close();
      db.close();
    },
  };
}
