/**
 * The state the reference implies, and how each operation changes it (pure: no I/O). What a target
 * must answer is judged by the checks of src/checks (src/model/judge.ts); this file only says what
 * is owed: which methods a customer's list must hold, which payments are confirmed, which
 * notifications must come and where, and which must not.
 */
import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import type { CheckoutRequest, ReferenceRequest } from '../../schemas/generated/types.ts';
import type { PaidWith } from '../checks/index.ts';
import { registrationAsked, type Registration } from '../core/checkout-rows.ts';

export interface CheckoutModel {
  id: string;
  paymentId: string | undefined;
  /** payment.customer.uuid, where the request named one. */
  customer: string | undefined;
  /** payment.paymentMethod.code as sent. */
  code: string | undefined;
  registration: Registration | null;
  paid: boolean;
  /** checkoutUrl, where the checkout is one a customer pays on its page (a storing row, or one like it). */
  pageUrl: string | undefined;
}

/** A payment (through the pay helper or on the hosted page), and what the reference makes of it. */
export interface Payment {
  checkout: CheckoutModel;
  paidWith: PaidWith | { method: 'MB' };
  /** refused: a payment of a checkout processed already, which the target refused. */
  outcome: 'success' | 'failure' | 'refused';
  /**
   * The customer's answer to the offer to store the method; absent where the pay helper's body gave
   * none. Neither the reference (section 3, TOK-2: stored where the customer consents, not where the
   * customer declines) nor the helpers' contract says what an absent answer is, so what such a
   * payment stores where the checkout offers storing is open (`storingOpen`).
   */
  storeConsent: boolean | undefined;
  /** When it was paid (ms), and until when its effects may still show (eventMs after its answer: a 202, or a late stored method). */
  at: number;
  settledBy: number;
  /** The helper did not take the payment (not 2xx): its effects are unknown. */
  unknown: boolean;
}

/** Section 3: a successful payment stores the method with createRegistration, or allowRegistration and consent. */
export function stores(payment: Payment): boolean {
  const { checkout, outcome, storeConsent, paidWith } = payment;
  if (outcome !== 'success' || !checkout.customer || (paidWith.method !== 'CC' && paidWith.method !== 'MW')) return false;
  return checkout.registration === 'createRegistration' || (checkout.registration === 'allowRegistration' && storeConsent === true);
}

/**
 * Whether the reference leaves open what the payment stores: a successful payment of a card or wallet
 * in a checkout whose allowRegistration offers storing (createRegistration not true), paid through
 * the pay helper with no storeConsent. A target may store the method or not; neither is judged.
 */
export function storingOpen(payment: Payment): boolean {
  const { checkout, outcome, storeConsent, paidWith } = payment;
  if (outcome !== 'success' || !checkout.customer || (paidWith.method !== 'CC' && paidWith.method !== 'MW')) return false;
  return checkout.registration === 'allowRegistration' && storeConsent === undefined;
}

/** The clause that owes a stored method: TOK-1 (createRegistration) or TOK-2 (consent). */
export const storingClause = (payment: Payment): 'TOK-1' | 'TOK-2' => (payment.checkout.registration === 'createRegistration' ? 'TOK-1' : 'TOK-2');

/** The clause a method stored by this payment would break, and why, where it must store nothing; null where it must store, or may. */
export function forbiddenBy(payment: Payment, customer: string): { clause: ClauseId; why: string } | null {
  if (payment.checkout.customer !== customer) return stores(payment) || storingOpen(payment) ? { clause: 'TOK-6', why: "of another customer's payment" } : null;
  if (stores(payment) || storingOpen(payment)) return null;
  if (payment.outcome === 'failure') return { clause: 'TOK-3', why: 'after a declined payment' };
  if (payment.outcome === 'refused') return { clause: 'TOK-3', why: 'after a payment refused, its checkout processed already' };
  if (payment.checkout.registration === 'allowRegistration') return { clause: 'TOK-2', why: 'where the customer declined to store it' };
  return { clause: 'TOK-4', why: 'after a payment without createRegistration or allowRegistration' };
}

export interface ReferenceModel {
  paymentId: string;
  /** The 9 digits, as GET /payments/{id} showed them before payment. */
  reference: string | undefined;
  /** The request of POST /payments/references, which the payment echoes; null for an MB checkout's reference, which the service made for it. */
  request: ReferenceRequest | null;
  /** The MB checkout whose reference it is, where it is one: paid through either, both are. */
  checkout: CheckoutModel | null;
  /** The receiver path of callbackUrl, where the request has one. */
  callbackPath: string | null;
  start: number;
  end: number;
  state: 'pending' | 'confirmed';
  /** A payment outside the window was tried: from then on, REF-7 owes that it stays unconfirmed. */
  paidOutside: boolean;
}

export const windowOf = (request: ReferenceRequest) => ({ start: Date.parse(request.validDate.start), end: Date.parse(request.validDate.end) });

/** Section 8: a reference is payable between validDate.start and validDate.end. */
export const insideWindow = (reference: Pick<ReferenceModel, 'start' | 'end'>, paidAt: number) => paidAt >= reference.start && paidAt <= reference.end;

export interface Webhook {
  path: string;
  url: string;
}

/** A notification the reference owes: section 6, to callbackUrl (EVT-1), else to the webhook (EVT-2). */
export interface OwedNotification {
  reference: ReferenceModel;
  clause: 'EVT-1' | 'EVT-2';
  /** Where it may arrive: callbackUrl's path, or every webhook path set since the confirmation. */
  paths: string[];
  address: string;
  /** False once the webhook changed before it came: it may then come to either address, or to none. */
  required: boolean;
  dueBy: number;
}

export interface ModelState {
  customers: string[];
  /** Customers registered out of band (a target without helpers): what they have stored is not known. */
  outOfBand: Set<string>;
  checkouts: CheckoutModel[];
  payments: Payment[];
  references: ReferenceModel[];
  webhook: Webhook | null;
  owed: OwedNotification[];
  /** Paths of the receiver where this sequence's notifications may arrive. */
  paths: Set<string>;
  /** The last instant a notification may still come for what was done (a confirmation tried). */
  quietAfter: number;
}

export const emptyState = (): ModelState => ({
  customers: [],
  outOfBand: new Set(),
  checkouts: [],
  payments: [],
  references: [],
  webhook: null,
  owed: [],
  paths: new Set(),
  quietAfter: 0,
});

/** The checkout a request creates, as the model keeps it: its customer, where the request names one, as the model knows the customer (the request may write the UUID in another letter case). */
export function checkoutFrom(
  request: CheckoutRequest,
  created: { id: string; paymentId?: string; checkoutUrl?: string },
  options: { onPage: boolean; customer: string | undefined },
): CheckoutModel {
  const pageUrl = options.onPage ? created.checkoutUrl : undefined;
  return {
    id: created.id,
    paymentId: created.paymentId,
    customer: request.payment?.customer?.uuid === undefined ? undefined : options.customer,
    code: request.payment?.paymentMethod?.code,
    registration: registrationAsked(request.payment?.paymentMethod?.details),
    paid: false,
    pageUrl,
  };
}

/** What a customer's list must hold: the methods of the payments that stored one. */
export const owedMethods = (state: ModelState, customer: string) =>
  state.payments.filter((payment) => !payment.unknown && payment.checkout.customer === customer && stores(payment));

/** Whether the customer's stored methods are known: not for a customer registered out of band, nor after a payment the helper did not take. */
export const listKnown = (state: ModelState, customer: string) =>
  !state.outOfBand.has(customer) && !state.payments.some((payment) => payment.unknown && payment.checkout.customer === customer);

/** A confirmation inside the window: the reference is confirmed, and its notification owed by `dueBy` (null: none owed). */
export function confirmed(state: ModelState, reference: ReferenceModel, dueBy: number | null): void {
  reference.state = 'confirmed';
  if (reference.checkout) reference.checkout.paid = true;
  if (dueBy === null) return;
  if (reference.request?.callbackUrl && reference.callbackPath) {
    state.owed.push({ reference, clause: 'EVT-1', paths: [reference.callbackPath], address: reference.request.callbackUrl, required: true, dueBy });
  } else if (state.webhook) {
    state.owed.push({ reference, clause: 'EVT-2', paths: [state.webhook.path], address: state.webhook.url, required: true, dueBy });
  }
}

/** The webhook set, changed or removed: a notification still on its way may go to the old address, the new one, or nowhere. */
export function webhookChanged(state: ModelState, webhook: Webhook | null, isReceived: (owed: OwedNotification) => boolean): void {
  for (const owed of state.owed) {
    if (owed.clause !== 'EVT-2' || !owed.required || isReceived(owed)) continue;
    owed.required = false;
    if (webhook) owed.paths.push(webhook.path);
  }
  state.webhook = webhook;
  if (webhook) {
    state.paths.add(webhook.path);
    for (const owed of state.owed) if (owed.clause === 'EVT-2' && !owed.paths.includes(webhook.path)) owed.paths.push(webhook.path);
  }
}
