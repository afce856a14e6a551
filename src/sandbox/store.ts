import { randomFillSync, randomInt, randomUUID } from 'node:crypto';
import type { Database } from './db.ts';
import { createGroupCommit } from './group-commit.ts';
import type { Payment, StoredPaymentMethod } from '../../schemas/generated/types.ts';
import { isoWithOffset } from './time.ts';

export interface PaymentRow {
  id: number;
  amount: number;
  entity: string;
  reference: string;
  state: string;
  state_created_at: string;
  created_at: string;
  updated_at: string;
  valid_start: string;
  valid_end: string;
  valid_start_ms: number;
  valid_end_ms: number;
  available_methods: string;
  callback_url: string | null;
}

export interface CheckoutRow {
  id: string;
  payment_id: number;
  state: string;
  created_at: string;
  layout: string | null;
  language: string | null;
  method_code: string | null;
  amount: number;
  summary: string | null;
  customer_uuid: string | null;
  create_registration: number;
  allow_registration: number;
  action_url: string | null;
  request: string;
}

export interface NewPayment {
  amount: number;
  validStart: string;
  validEnd: string;
  availableMethods: { code: string; type: string; name: string }[];
  callbackUrl: string | null;
}

export type NewCheckout = Omit<CheckoutRow, 'id' | 'payment_id' | 'state'>;

export interface NotificationRow {
  id: number;
  payment_id: number;
  action: string;
  created_at: string;
  payment: string;
  url: string | null;
  tries_made: number;
  next_try_at_ms: number | null;
}

interface AttemptRow {
  id: number;
  notification_id: number;
  payment_id: number;
  url: string | null;
  attempt: number;
  status: number | null;
  error: string | null;
  body: string;
  headers: string;
  sent_at: string;
}

export interface AttemptRecord {
  notificationId: number;
  paymentId: number;
  url: string | null;
  attempt: number;
  status: number | null;
  error: string | null;
  body: string;
  headers: Record<string, string>;
  sentAt: string;
}

type StoredDetails = Omit<StoredPaymentMethod, 'type' | 'uuid'>;

/** Draws uniformly from 000000000..999999999, so references with leading zeros do occur. */
export const drawReference = () => String(randomInt(0, 1_000_000_000)).padStart(9, '0');

const checkoutIdAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const checkoutIdLength = 40;
// Random bytes drawn 256 ids at a time: one call to the generator per id costs more than the rest of the id.
const randomPool = Buffer.alloc(checkoutIdLength * 256);
let randomPoolUsed = randomPool.length;

/** 40 characters, like the service's checkout ids. */
function newCheckoutId(): string {
  if (randomPoolUsed === randomPool.length) {
    randomFillSync(randomPool);
    randomPoolUsed = 0;
  }
  let id = '';
  for (let i = randomPoolUsed; i < randomPoolUsed + checkoutIdLength; i++) id += checkoutIdAlphabet[randomPool[i] % checkoutIdAlphabet.length];
  randomPoolUsed += checkoutIdLength;
  return id;
}

function isReferenceInUse(error: unknown): boolean {
  return error instanceof Error && error.message === 'reference_in_use';
}

/** All SQL of the sandbox, behind named operations. */
export function createStore(db: Database, entity: string, nextReference: () => string = drawReference) {
  const statements = {
    insertPayment: db.prepare(`INSERT INTO payments
      (amount, entity, reference, state, state_created_at, created_at, updated_at, valid_start, valid_end, valid_start_ms, valid_end_ms, available_methods, callback_url)
      VALUES (@amount, @entity, @reference, 'pending', @now, @now, @now, @validStart, @validEnd, @validStartMs, @validEndMs, @availableMethods, @callbackUrl)`),
    insertCheckout: db.prepare(`INSERT INTO checkouts
      (id, payment_id, state, created_at, layout, language, method_code, amount, summary, customer_uuid, create_registration, allow_registration, action_url, request)
      VALUES (@id, @payment_id, 'PaymentReady', @created_at, @layout, @language, @method_code, @amount, @summary, @customer_uuid, @create_registration, @allow_registration, @action_url, @request)`),
    payment: db.prepare<[number], PaymentRow>('SELECT * FROM payments WHERE id = ?'),
    checkout: db.prepare<[string], CheckoutRow>('SELECT * FROM checkouts WHERE id = ?'),
    checkoutOfPayment: db.prepare<[number], CheckoutRow>('SELECT * FROM checkouts WHERE payment_id = ?'),
    setPaymentState: db.prepare('UPDATE payments SET state = ?, state_created_at = ?, updated_at = ? WHERE id = ?'),
    setCheckoutState: db.prepare('UPDATE checkouts SET state = ? WHERE id = ?'),
    insertStoredMethod: db.prepare('INSERT INTO stored_methods (uuid, customer_uuid, type, details, checkout_id, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
    storedMethods: db.prepare<[string], { uuid: string; type: 'CC' | 'MW'; details: string }>(
      'SELECT uuid, type, details FROM stored_methods WHERE customer_uuid = ? ORDER BY created_at, rowid',
    ),
    insertCustomer: db.prepare('INSERT INTO customers (uuid, customer_id, created_at) VALUES (?, ?, ?)'),
    setting: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
    putSetting: db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    deleteSetting: db.prepare('DELETE FROM settings WHERE key = ?'),
    insertNotification: db.prepare('INSERT INTO notifications (payment_id, action, created_at, payment, url, next_try_at_ms) VALUES (?, ?, ?, ?, ?, ?)'),
    notification: db.prepare<[number], NotificationRow>('SELECT * FROM notifications WHERE id = ?'),
    dueNotifications: db.prepare<[], NotificationRow>('SELECT * FROM notifications WHERE next_try_at_ms IS NOT NULL'),
    afterTry: db.prepare('UPDATE notifications SET tries_made = ?, next_try_at_ms = ? WHERE id = ?'),
    insertAttempt: db.prepare(`INSERT INTO notification_attempts
      (notification_id, payment_id, url, attempt, status, error, body, headers, sent_at)
      VALUES (@notificationId, @paymentId, @url, @attempt, @status, @error, @body, @headers, @sentAt)`),
    attempts: db.prepare<[], AttemptRow>('SELECT * FROM notification_attempts ORDER BY id'),
    attemptsOfPayment: db.prepare<[number], AttemptRow>('SELECT * FROM notification_attempts WHERE payment_id = ? ORDER BY id'),
  };

  function insertPayment(payment: NewPayment, now: string): number {
    const row = {
      amount: payment.amount,
      entity,
      now,
      validStart: payment.validStart,
      validEnd: payment.validEnd,
      validStartMs: Date.parse(payment.validStart),
      validEndMs: Date.parse(payment.validEnd),
      availableMethods: JSON.stringify(payment.availableMethods),
      callbackUrl: payment.callbackUrl,
    };
    for (let draw = 0; ; draw++) {
      try {
        return Number(statements.insertPayment.run({ ...row, reference: nextReference() }).lastInsertRowid);
      } catch (error) {
        if (!isReferenceInUse(error) || draw >= 100) throw error;
      }
    }
  }

  const commitSoon = createGroupCommit(db);

  return {
    transaction: <T>(work: () => T): T => db.transaction(work),
    /** Settles once the checkout and its payment are committed. */
    createCheckout: (checkout: NewCheckout, payment: NewPayment, now: string): Promise<CheckoutRow> =>
      commitSoon(() => {
        const row = { ...checkout, id: newCheckoutId(), payment_id: insertPayment(payment, now) };
        statements.insertCheckout.run(row);
        return { ...row, state: 'PaymentReady' };
      }),
    /** Settles with the payment's id once it is committed. */
    createReference: (payment: NewPayment, now: string): Promise<number> => commitSoon(() => insertPayment(payment, now)),
    payment: (id: number) => statements.payment.get(id),
    checkout: (id: string) => statements.checkout.get(id),
    checkoutOfPayment: (paymentId: number) => statements.checkoutOfPayment.get(paymentId),
    setPaymentState(id: number, state: string, stateSince: string, now: string) {
      statements.setPaymentState.run(state, stateSince, now, id);
    },
    setCheckoutState(id: string, state: string) {
      statements.setCheckoutState.run(state, id);
    },
    storeMethod(customerUuid: string, type: 'CC' | 'MW', details: StoredDetails, checkoutId: string) {
      statements.insertStoredMethod.run(randomUUID(), customerUuid, type, JSON.stringify(details), checkoutId, isoWithOffset());
    },
    storedMethods: (customerUuid: string): StoredPaymentMethod[] =>
      statements.storedMethods.all(customerUuid).map(({ uuid, type, details }) => ({ type, uuid, ...JSON.parse(details) })),
    registerCustomer(customerId: string | null): string {
      const uuid = randomUUID();
      statements.insertCustomer.run(uuid, customerId, isoWithOffset());
      return uuid;
    },
    webhookUrl: () => statements.setting.get('webhook_url')?.value ?? null,
    setWebhookUrl(url: string | null) {
      if (url === null) statements.deleteSetting.run('webhook_url');
      else statements.putSetting.run('webhook_url', url);
    },
    addNotification(payment: Payment, action: string, url: string | null, now: string, dueAtMs: number): number {
      const row = statements.insertNotification.run(Number(payment.id), action, now, JSON.stringify(payment), url, dueAtMs);
      return Number(row.lastInsertRowid);
    },
    notification: (id: number) => statements.notification.get(id),
    dueNotifications: () => statements.dueNotifications.all(),
    recordTry(attempt: AttemptRecord, nextTryAtMs: number | null) {
      db.transaction(() => {
        statements.insertAttempt.run({ ...attempt, headers: JSON.stringify(attempt.headers) });
        statements.afterTry.run(attempt.attempt, nextTryAtMs, attempt.notificationId);
      });
    },
    attempts(paymentId?: number) {
      const rows = paymentId === undefined ? statements.attempts.all() : statements.attemptsOfPayment.all(paymentId);
      return rows.map((row) => ({
        id: String(row.id),
        webhookId: String(row.notification_id),
        paymentId: String(row.payment_id),
        url: row.url,
        attempt: row.attempt,
        status: row.status,
        error: row.error,
        body: JSON.parse(row.body),
        headers: JSON.parse(row.headers),
        sentAt: row.sent_at,
      }));
    },
  };
}

export type Store = ReturnType<typeof createStore>;

/** The payment as GET /payments/{id} shows it (2.6). */
export function paymentResource(row: PaymentRow): Payment {
  return {
    id: String(row.id),
    type: 'payment',
    referenceDetails: { entity: row.entity, reference: row.reference },
    stateDetails: { state: row.state, createdAt: row.state_created_at },
    amount: row.amount,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    validDate: { start: row.valid_start, end: row.valid_end },
    availableMethods: JSON.parse(row.available_methods),
  };
}
