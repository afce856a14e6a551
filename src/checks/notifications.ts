import type { RecordedRequest } from '../core/evidence.ts';
import { show, type Problem } from './problem.ts';

/** Whether a text or number anywhere in the value is one `matches` takes. */
function holdsValue(node: unknown, matches: (value: string | number) => boolean): boolean {
  if (typeof node === 'string' || typeof node === 'number') return matches(node);
  if (Array.isArray(node)) return node.some((item) => holdsValue(item, matches));
  if (node && typeof node === 'object') return Object.values(node).some((value) => holdsValue(value, matches));
  return false;
}

/** What a notification may name a payment by. */
export interface PaymentNames {
  id: string;
  reference?: string;
}

/** A payment a notification may be about, with what the caller knows of it. */
export interface KnownPayment extends PaymentNames {
  /** Whether a payment of it was taken (a confirmation inside its window), as far as the caller knows. */
  paid?: boolean;
  /** Its validity window (ms since the epoch), where known: while it held its reference. */
  window?: { start: number; end: number };
}

/** A notification, with when the run's receiver took it where that is known. */
export type ReceivedNotification = RecordedRequest & { receivedAt?: number };

/** Every text and number a notification holds, in its body or its address's query, as text. */
function valuesHeld(notification: RecordedRequest): Set<string> {
  const held = new Set(new URL(notification.url, 'http://receiver').searchParams.values());
  holdsValue(notification.body, (value) => {
    held.add(String(value));
    return false;
  });
  return held;
}
// The final audit asks of every notification of the run which of the run's payments it is about.
const valuesHeldBy = new WeakMap<RecordedRequest, Set<string>>();

function heldBy(notification: RecordedRequest): Set<string> {
  if (!valuesHeldBy.has(notification)) valuesHeldBy.set(notification, valuesHeld(notification));
  return valuesHeldBy.get(notification)!;
}

/** Whether the payment held its reference when the notification came: its window then open, where both are known. */
const heldWhenCame = (payment: KnownPayment, receivedAt: number | undefined) =>
  !payment.window || receivedAt === undefined || (payment.window.start <= receivedAt && receivedAt <= payment.window.end);

/**
 * The payments a notification is about (EVT-3), of those given. One that carries a payment's id is
 * about that payment; one that carries only a reference is about the payment that held it when it
 * was paid, since a reference may be handed out again once every window that had it has ended
 * (REF-8). So for each reference it carries: the payments that had it whose id it carries too, else
 * those of them that were paid, else those whose window was open when it came. A payment whose
 * reference is not known is named by its id.
 *
 * `byIdAlone`: the others whose id it carries, their reference known and not what names them: an id
 * of a few digits may be any number of a notification about another payment (its amount, its own
 * event number), so that such a notification may be theirs, but is not known to be.
 */
export function attributeNotification<Payment extends KnownPayment>(
  notification: ReceivedNotification,
  payments: readonly Payment[],
): { about: Payment[]; byIdAlone: Payment[] } {
  const held = heldBy(notification);
  const holders = new Map<string, Payment[]>();
  for (const payment of payments) {
    if (payment.reference && held.has(payment.reference)) holders.set(payment.reference, [...(holders.get(payment.reference) ?? []), payment]);
  }
  const about = new Set<Payment>();
  for (const having of holders.values()) {
    const named = having.filter((payment) => held.has(payment.id));
    const paid = (named.length > 0 ? named : having).filter((payment) => payment.paid);
    const chosen = paid.length > 0 ? paid : named.length > 0 ? named : having.filter((payment) => heldWhenCame(payment, notification.receivedAt));
    for (const payment of chosen) about.add(payment);
  }
  for (const payment of payments) if (!payment.reference && held.has(payment.id)) about.add(payment);
  return { about: [...about], byIdAlone: payments.filter((payment) => !about.has(payment) && held.has(payment.id)) };
}

/**
 * Whether a notification may be about the payment, of those given (the payment alone where none
 * are): attributed to it, or naming it by its id alone.
 */
export function identifiesPayment(notification: ReceivedNotification, payment: KnownPayment, among: readonly KnownPayment[] = []): boolean {
  const { about, byIdAlone } = attributeNotification(notification, withPayment(among, payment));
  return [...about, ...byIdAlone].some(({ id }) => id === payment.id);
}

const withPayment = (among: readonly KnownPayment[], payment: KnownPayment) => (among.some(({ id }) => id === payment.id) ? among : [...among, payment]);

/**
 * EVT-3: the notification identifies the payment it is about, so the merchant can query it.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkNotificationIdentifies(notification: RecordedRequest, context: PaymentNames): Problem[] {
  if (identifiesPayment(notification, context)) return [];
  return [
    {
      clause: 'EVT-3',
      message: `notification ${notification.method} ${notification.url}: expected the payment id ${show(context.id)}${context.reference ? ` or its reference ${show(context.reference)}` : ''} in it, got ${show(notification.body)}`,
    },
  ];
}

/** Whether a request came to the address with every query parameter of that address kept. */
function keepsQuery(received: RecordedRequest, address: string): boolean {
  const got = new URL(received.url, 'http://receiver').searchParams;
  return [...new URL(address).searchParams].every(([name, value]) => got.getAll(name).includes(value));
}

/**
 * EVT-1 (callbackUrl) or EVT-2 (the webhook), on the requests received at that address's path after
 * the confirmation: a notification came within the time allowed, to the address with its own query
 * kept; EVT-3: one of them names the payment (at the webhook, which hears of every payment, one of
 * those that name no other reference: else none came about it, EVT-2).
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkNotified(
  received: readonly RecordedRequest[],
  context: { payment: PaymentNames; clause: 'EVT-1' | 'EVT-2'; where: string; address: string; withinMs: number },
): Problem[] {
  if (received.length === 0) {
    return [{ clause: context.clause, message: `notification: expected one at ${context.where} within ${context.withinMs} ms of the confirmation, got none` }];
  }
  const atAddress = received.filter((notification) => keepsQuery(notification, context.address));
  if (atAddress.length === 0) {
    return [
      {
        clause: context.clause,
        message: `notification: expected it at ${context.where} ${context.address}, its query kept, got ${received.map((n) => `${n.method} ${n.url}`).join(', ')}`,
      },
    ];
  }
  if (atAddress.some((notification) => identifiesPayment(notification, context.payment))) return [];
  // The webhook hears of every payment without callbackUrl: one naming another reference is another
  // payment's, not this one's without what identifies it.
  const maybeThis = context.clause === 'EVT-2' ? atAddress.filter((notification) => !namesAnotherReference(notification, context.payment)) : atAddress;
  if (maybeThis.length === 0) {
    return [
      {
        clause: context.clause,
        message: `notification: expected one at ${context.where} within ${context.withinMs} ms of the confirmation, got ${atAddress.length} about other payments only (naming other references than ${show(context.payment.reference)})`,
      },
    ];
  }
  return checkNotificationIdentifies(maybeThis[0], context.payment);
}

/** Whether a notification names a reference (9 digits) other than the payment's own, where the payment's is known. */
function namesAnotherReference(notification: RecordedRequest, payment: PaymentNames): boolean {
  const own = payment.reference;
  return own !== undefined && holdsValue(notification.body, (value) => typeof value === 'string' && /^[0-9]{9}$/.test(value) && value !== own);
}

/**
 * EVT-4, on the requests received at a notification address: none about a payment that was not
 * made. At an address shared by several payments (the webhook), only those attributed to `about`
 * count (attributeNotification, among the payments given, `about` alone where none are): never by
 * its id alone where its reference is known, since ids are small numbers that a notification about
 * another payment may hold too (its own id, an amount).
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: the webhook after a payment outside the window; a window that closes unpaid (windows
 * valid now end an hour or more after their creation).
 */
export function checkNotNotified(
  received: readonly ReceivedNotification[],
  context: { why: string; about?: KnownPayment; among?: readonly KnownPayment[] },
): Problem[] {
  const { about } = context;
  const notifications = about
    ? received.filter((notification) => attributeNotification(notification, withPayment(context.among ?? [], about)).about.some(({ id }) => id === about.id))
    : received;
  return notifications.map((notification) => ({
    clause: 'EVT-4',
    message: `notification ${notification.method} ${notification.url}: expected none ${context.why}, got ${show(notification.body)}`,
  }));
}
