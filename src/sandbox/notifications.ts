import { createHmac } from 'node:crypto';
import type { NotificationRow, Store } from './store.ts';
import { isoWithOffset } from './time.ts';

/** The receiver's answers that count as delivered; anything else, redirects included, is a failure. */
const deliveredStatuses = new Set([200, 201, 202, 204]);
const requestTimeoutMs = 10_000;

/** `{ webhook: { id, action, createdAt }, payments: [payment] }`, the same bytes on every try. */
export function notificationBody(row: NotificationRow): string {
  return JSON.stringify({
    webhook: { id: String(row.id), action: row.action, createdAt: row.created_at },
    payments: [JSON.parse(row.payment)],
  });
}

/** `hash=<hex>,ts=<unix seconds>`: HMAC-SHA256 keyed with the secret over the raw body followed by ts. */
export function signature(secret: string, body: string, unixSeconds: number): string {
  const hash = createHmac('sha256', secret)
    .update(body + String(unixSeconds))
    .digest('hex');
  return `hash=${hash},ts=${unixSeconds}`;
}

/**
 * Delivers notifications in the background and retries failed ones after each delay of
 * `retryDelaysMs` (so `retryDelaysMs.length + 1` tries in all). Every try is recorded; what is due
 * when the sandbox stops is tried again when it starts on the same database.
 */
export function createNotifier(store: Store, secret: string, retryDelaysMs: number[]) {
  const timers = new Set<NodeJS.Timeout>();
  const deliveries = new Set<Promise<void>>();
  const stopping = new AbortController();

  function schedule(notificationId: number, dueAtMs: number) {
    if (stopping.signal.aborted) return;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        const delivery = tryOnce(notificationId).finally(() => deliveries.delete(delivery));
        deliveries.add(delivery);
      },
      Math.max(0, dueAtMs - Date.now()),
    );
    timers.add(timer);
  }

  async function post(url: string, body: string, headers: Record<string, string>) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(requestTimeoutMs)]),
      });
      await response.body?.cancel();
      const error = deliveredStatuses.has(response.status) ? null : `the receiver answered ${response.status}`;
      return { status: response.status, error };
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      return { status: null, error: cause ?? (error as Error).message };
    }
  }

  async function tryOnce(notificationId: number) {
    const row = store.notification(notificationId);
    if (!row || row.next_try_at_ms === null) return;
    const attempt = row.tries_made + 1;
    const body = notificationBody(row);
    const sentAt = isoWithOffset();
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    let outcome: { status: number | null; error: string | null };
    if (row.url === null) {
      outcome = { status: null, error: 'nothing sent: the payment has no callbackUrl and no webhook is configured' };
    } else {
      headers['PayPay-Signature'] = signature(secret, body, Math.floor(Date.now() / 1000));
      outcome = await post(row.url, body, headers);
      // Stopped in the middle of the try: it is not recorded, and is made again on the next start.
      if (stopping.signal.aborted) return;
    }
    const retryDelay = row.url !== null && outcome.error !== null ? retryDelaysMs[attempt - 1] : undefined;
    const nextTryAtMs = retryDelay === undefined ? null : Date.now() + retryDelay;
    store.recordTry({ notificationId, paymentId: row.payment_id, url: row.url, attempt, ...outcome, body, headers, sentAt }, nextTryAtMs);
    if (nextTryAtMs !== null) schedule(notificationId, nextTryAtMs);
  }

  return {
    schedule,
    /** Schedules every notification still due in the database (after a restart). */
    resume() {
      for (const row of store.dueNotifications()) schedule(row.id, row.next_try_at_ms ?? 0);
    },
    async close() {
      stopping.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...deliveries]);
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
