import type { PayAnswer, PayRequest } from '../../schemas/generated/types.ts';
import { cardBrand, issuerDeclines, luhnValid } from '../core/cards.ts';
import { isJsonObject, refuse, validatedBody } from './errors.ts';
import type { Notifier } from './notifications.ts';
import { paymentResource, type CheckoutRow, type PaymentRow, type Store } from './store.ts';
import { isoWithOffset } from './time.ts';

export type PayMethod = PayRequest['method'];

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

const stripped = (value: unknown, pattern: RegExp) => (typeof value === 'string' ? value.replace(pattern, '') : value);
const separators = /[\s-]/g;

/**
 * The card or wallet as a customer types it into the hosted form, made plain for the schema: digits
 * without spaces or dashes, the country code without its "+", the holder without surrounding spaces.
 */
function typedPlainly(body: unknown): unknown {
  if (!isJsonObject(body)) return body;
  const { card, wallet } = body;
  return {
    ...body,
    ...(isJsonObject(card) && {
      card: {
        ...card,
        number: stripped(card.number, separators),
        holder: typeof card.holder === 'string' ? card.holder.trim() : card.holder,
        expireMonth: stripped(card.expireMonth, separators),
        expireYear: stripped(card.expireYear, separators),
      },
    }),
    ...(isJsonObject(wallet) && {
      wallet: { ...wallet, countryCode: stripped(stripped(wallet.countryCode, separators), /^\+/), number: stripped(wallet.number, separators) },
    }),
  };
}

/** Reads a pay request (the pay helper's body, or the hosted form's fields as one) and refuses what its schema or the Luhn check does. */
export function parsePayRequest(body: unknown): PayRequest {
  const request = validatedBody('payCheckout', typedPlainly(body));
  if (request.method === 'CC' && !luhnValid(request.card.number)) {
    throw refuse(422, 'card_invalid', 'card.number: fails the Luhn check', 'the Luhn check', 'card.number');
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
    const asked = checkout.create_registration === 1 || (checkout.allow_registration === 1 && request.storeConsent === true);
    if (!asked || checkout.customer_uuid === null) return;
    if (request.method === 'CC') {
      const { number, holder, expireMonth, expireYear } = request.card;
      store.storeMethod(
        checkout.customer_uuid,
        'CC',
        { brand: cardBrand(number), last4Digitis: number.slice(-4), holder, expireMonth, expireYear },
        checkout.id,
      );
    } else if (request.method === 'MW') {
      store.storeMethod(checkout.customer_uuid, 'MW', { countryCode: request.wallet.countryCode, last3Digitis: request.wallet.number.slice(-3) }, checkout.id);
    }
  }

  return {
    /** The customer pays a checkout (the pay helper and the hosted pages both come here). */
    payCheckout(checkoutId: string, request: PayRequest): PayAnswer {
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
      const succeeded = request.outcome !== 'failure' && !(request.method === 'CC' && issuerDeclines(request.card.number));
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
        throw refuse(409, 'outside_validity', 'the payment was made outside the validity window of the reference', 'paid inside validDate', 'paidAt', [
          'REF-7',
        ]);
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
