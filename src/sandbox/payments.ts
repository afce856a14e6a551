import { cardBrand, issuerDeclines, luhnValid } from '../cards.ts';
import { refuse } from './errors.ts';
import type { Notifier } from './notifications.ts';
import { paymentResource, type CheckoutRow, type PaymentRow, type Store } from './store.ts';
import { isoWithOffset } from './time.ts';

export type PayMethod = 'CC' | 'MW' | 'MB';

/** How the customer pays: the body of the pay test helper, also built from the hosted form. */
export interface PayRequest {
  outcome: 'success' | 'failure';
  method: PayMethod;
  card?: { number: string; holder: string; expireMonth: string; expireYear: string };
  wallet?: { countryCode: string; number: string };
  storeConsent: boolean;
}

export const methodNames: Record<PayMethod, string> = { CC: 'Cartão de crédito/débito', MW: 'MB WAY', MB: 'Multibanco' };

/** The methods a checkout can be paid with: its paymentMethod.code, or card and wallet without one. */
export function offeredMethods(methodCode: string | null): PayMethod[] {
  return methodCode === 'CC' || methodCode === 'MW' || methodCode === 'MB' ? [methodCode] : ['CC', 'MW'];
}

/** Appends `id` to the action redirect, keeping its own query (and fragment), custom schemes included. */
export function redirectWithId(actionUrl: string, checkoutId: string): string {
  const hashAt = actionUrl.indexOf('#');
  const [base, fragment] = hashAt < 0 ? [actionUrl, ''] : [actionUrl.slice(0, hashAt), actionUrl.slice(hashAt)];
  const separator = !base.includes('?') ? '?' : /[?&]$/.test(base) ? '' : '&';
  return `${base}${separator}id=${encodeURIComponent(checkoutId)}${fragment}`;
}

function text(value: unknown, field: string, pattern: RegExp, expected: string): string {
  const normalized = typeof value === 'string' ? value.replace(/[\s-]/g, '') : value;
  if (typeof normalized !== 'string' || !pattern.test(normalized)) {
    throw refuse(422, 'invalid_field', `${field}: expected ${expected}`, `expected ${expected}`, field);
  }
  return normalized;
}

/** Reads and checks a pay request; refuses (422) anything it cannot make sense of. */
export function parsePayRequest(body: unknown): PayRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw refuse(400, 'not_an_object', 'the body must be a JSON object', 'the body is a JSON object', '');
  }
  const input = body as Record<string, any>;
  const outcome = input.outcome ?? 'success';
  if (outcome !== 'success' && outcome !== 'failure') {
    throw refuse(422, 'invalid_field', 'outcome: expected "success" or "failure"', 'one of ["success","failure"]', 'outcome');
  }
  const method = input.method;
  if (method !== 'CC' && method !== 'MW' && method !== 'MB') {
    throw refuse(422, 'invalid_field', 'method: expected "CC", "MW" or "MB"', 'one of ["CC","MW","MB"]', 'method');
  }
  if (input.storeConsent !== undefined && typeof input.storeConsent !== 'boolean') {
    throw refuse(422, 'invalid_field', 'storeConsent: expected a boolean', 'a boolean', 'storeConsent');
  }
  const request: PayRequest = { outcome, method, storeConsent: input.storeConsent === true };
  if (method === 'CC') {
    const card = input.card ?? {};
    const number = text(card.number, 'card.number', /^[0-9]{12,19}$/, 'a card number of 12 to 19 digits');
    if (!luhnValid(number)) throw refuse(422, 'card_invalid', 'card.number: fails the Luhn check', 'the Luhn check', 'card.number');
    const holder = typeof card.holder === 'string' ? card.holder.trim() : '';
    if (!holder) throw refuse(422, 'invalid_field', 'card.holder: expected the card holder name', 'a non-empty string', 'card.holder');
    const expireMonth = text(card.expireMonth, 'card.expireMonth', /^(0?[1-9]|1[0-2])$/, 'a month 01 to 12').padStart(2, '0');
    const expireYear = text(card.expireYear, 'card.expireYear', /^[0-9]{4}$/, 'a four-digit year');
    request.card = { number, holder, expireMonth, expireYear };
  }
  if (method === 'MW') {
    const wallet = input.wallet ?? {};
    const countryCode = text(wallet.countryCode, 'wallet.countryCode', /^\+?[0-9]{1,4}$/, 'a telephone country code').replace('+', '');
    const number = text(wallet.number, 'wallet.number', /^[0-9]{6,15}$/, 'a telephone number of 6 to 15 digits');
    request.wallet = { countryCode, number };
  }
  return request;
}

function isInsideWindow(payment: PaymentRow, instantMs: number) {
  return payment.valid_start_ms <= instantMs && instantMs <= payment.valid_end_ms;
}

/** Paying checkouts and confirming references: the one place where payments change state. */
export function createPaymentProcessor(store: Store, notifier: Notifier) {
  /** Inside a transaction: marks the payment confirmed and queues its notification. */
  function confirm(payment: PaymentRow, paidAtMs: number): number {
    const now = isoWithOffset();
    store.setPaymentState(payment.id, 'confirmed', isoWithOffset(paidAtMs), now);
    const confirmed = paymentResource(store.payment(payment.id)!);
    return store.addNotification(confirmed, 'payment_confirmed', payment.callback_url ?? store.webhookUrl(), now, Date.now());
  }

  function storeMethodIfAsked(checkout: CheckoutRow, request: PayRequest) {
    const asked = checkout.create_registration === 1 || (checkout.allow_registration === 1 && request.storeConsent);
    if (!asked || checkout.customer_uuid === null) return;
    if (request.card) {
      const { number, holder, expireMonth, expireYear } = request.card;
      store.storeMethod(checkout.customer_uuid, 'CC', { brand: cardBrand(number), last4Digitis: number.slice(-4), holder, expireMonth, expireYear }, checkout.id);
    } else if (request.wallet) {
      store.storeMethod(checkout.customer_uuid, 'MW', { countryCode: request.wallet.countryCode, last3Digitis: request.wallet.number.slice(-3) }, checkout.id);
    }
  }

  return {
    /** The customer pays a checkout (the pay helper and the hosted pages both come here). */
    payCheckout(checkoutId: string, request: PayRequest) {
      const checkout = store.checkout(checkoutId);
      if (!checkout) throw refuse(404, 'not_found', `no checkout with id ${checkoutId}`, 'an existing checkout id', 'checkoutId');
      if (!offeredMethods(checkout.method_code).includes(request.method)) {
        throw refuse(422, 'method_not_offered', `method: this checkout is not paid with ${request.method}`, 'a method the checkout offers', 'method');
      }
      if (checkout.state !== 'PaymentReady') {
        throw refuse(409, 'already_processed', 'this checkout has already been paid or declined', 'a checkout is processed once');
      }
      const payment = store.payment(checkout.payment_id)!;
      if (!isInsideWindow(payment, Date.now())) {
        throw refuse(409, 'outside_validity', 'this checkout can no longer be paid (outside its validity window)', 'paid inside validDate');
      }
      const succeeded = request.outcome === 'success' && !(request.card && issuerDeclines(request.card.number));
      const state = succeeded ? 'PaymentConfirmed' : 'PaymentDeclined';
      const notificationId = store.transaction(() => {
        store.setCheckoutState(checkout.id, state);
        if (!succeeded) {
          store.setPaymentState(payment.id, 'declined', isoWithOffset(), isoWithOffset());
          return null;
        }
        storeMethodIfAsked(checkout, request);
        return confirm(payment, Date.now());
      });
      if (notificationId !== null) notifier.schedule(notificationId, Date.now());
      return { checkoutId, state, redirectUrl: checkout.action_url === null ? null : redirectWithId(checkout.action_url, checkoutId) };
    },

    /** The interbank network confirms that a reference was paid at `paidAtMs`. */
    confirmPayment(paymentId: number, paidAtMs: number) {
      const payment = store.payment(paymentId);
      if (!payment) throw refuse(404, 'not_found', `no payment with id ${paymentId}`, 'an existing payment id', 'paymentId');
      if (payment.state !== 'pending') {
        throw refuse(409, 'not_pending', `this payment is ${payment.state}, not pending`, 'only a pending payment is confirmed');
      }
      if (!isInsideWindow(payment, paidAtMs)) {
        throw refuse(409, 'outside_validity', 'the payment was made outside the validity window of the reference', 'paid inside validDate', 'paidAt', ['REF-7']);
      }
      const notificationId = store.transaction(() => {
        const checkout = store.checkoutOfPayment(payment.id);
        if (checkout?.state === 'PaymentReady') store.setCheckoutState(checkout.id, 'PaymentConfirmed');
        return confirm(payment, paidAtMs);
      });
      notifier.schedule(notificationId, Date.now());
      return paymentResource(store.payment(paymentId)!);
    },
  };
}

export type PaymentProcessor = ReturnType<typeof createPaymentProcessor>;
