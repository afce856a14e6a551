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

/** Every text and number a notification holds, in its body or its address's query, as text. */
function valuesHeld(notification: RecordedRequest): Set<string> {
  const held = new Set(new URL(notification.url, 'http://receiver').searchParams.values());
  holdsValue(notification.body, (value) => {
    held.add(String(value));
    return false;
  });
  return held;
}
// The final audit asks of every notification of the run whether it names each reference of the run.
const valuesHeldBy = new WeakMap<RecordedRequest, Set<string>>();

/** Whether a notification names the payment (its id or its reference) anywhere in its body or its address. */
export function identifiesPayment(notification: RecordedRequest, payment: PaymentNames): boolean {
  if (!valuesHeldBy.has(notification)) valuesHeldBy.set(notification, valuesHeld(notification));
  const held = valuesHeldBy.get(notification)!;
  return held.has(payment.id) || (Boolean(payment.reference) && held.has(payment.reference!));
}

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
 * made. At an address shared by several payments (the webhook), only those naming `about` count:
 * by its 9-digit reference where it is known, since ids are small numbers that a notification about
 * another payment may hold too (its own id, an amount); by its id where the reference is not known.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: the webhook after a payment outside the window; a window that closes unpaid (windows
 * valid now end an hour or more after their creation).
 */
export function checkNotNotified(received: readonly RecordedRequest[], context: { why: string; about?: PaymentNames }): Problem[] {
  const { about } = context;
  const names = about && (about.reference ? { id: about.reference, reference: about.reference } : about);
  const notifications = names ? received.filter((notification) => identifiesPayment(notification, names)) : received;
  return notifications.map((notification) => ({
    clause: 'EVT-4',
    message: `notification ${notification.method} ${notification.url}: expected none ${context.why}, got ${show(notification.body)}`,
  }));
}
