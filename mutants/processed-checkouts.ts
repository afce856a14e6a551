/**
 * A checkout once processed (paid or declined), met again: its payment tried a second time, its page
 * opened after its payment. A fault there, and a freedom the reference leaves there.
 */
import { answer, answerHtml, asksToStore, combine, memoSet, pageRequested, type Json } from './edits.ts';
import { callOperation, type ProxyContext, type ProxyRequest, type Transform } from './proxy.ts';
import type { BenignVariant, Mutant } from './kinds.ts';

const processedCheckouts = (proxy: ProxyContext) => memoSet<string>(proxy, 'processed-checkouts');

/** The checkout a payment was made for: the pay helper's, or the one whose hosted form was posted. */
function paidCheckoutId(request: ProxyRequest, proxy: ProxyContext): string | undefined {
  if (request.route === 'payCheckout' && request.param) return request.param;
  return request.method === 'POST' && request.route === 'other' ? proxy.checkoutOfPage(request.path)?.id : undefined;
}

/** Remembers the checkouts the target took a payment of, approved or declined. */
const rememberProcessed: Transform = {
  response(response, request, proxy) {
    const id = paidCheckoutId(request, proxy);
    if (id && response.status < 400) processedCheckouts(proxy).add(id);
  },
};

/**
 * A second payment of a processed checkout is refused with 409, but the method it was paid with is
 * stored first, as a handler that tokenizes the card before it looks at the checkout's state does.
 */
const refusedPaymentStores: Transform = combine(rememberProcessed, {
  async request(request, proxy) {
    if (request.route !== 'payCheckout' || !request.param || !processedCheckouts(proxy).has(request.param)) return;
    const asked = proxy.checkouts.get(request.param)?.request;
    const customer = asked?.payment?.customer?.uuid;
    const paid = request.json as Json;
    if (typeof customer !== 'string' || !asksToStore(asked) || (paid?.method !== 'CC' && paid?.method !== 'MW')) return;
    const storing = { payment: { amount: 100, customer: { uuid: customer }, paymentMethod: { code: paid.method, details: { createRegistration: true } } } };
    const created = (await callOperation(proxy, 'createCheckout', { body: storing })).json as Json;
    if (typeof created?.data?.id === 'string') await callOperation(proxy, 'payCheckout', { param: created.data.id, body: { ...paid, outcome: 'success' } });
    return answer(409, { success: false, error: 'already_processed' });
  },
});

/** The hosted page of a processed checkout answers 410: what a page shows once its checkout was paid is not shown. */
const processedPageGone: Transform = combine(rememberProcessed, {
  request(request, proxy) {
    const checkout = pageRequested(request, proxy);
    if (checkout && processedCheckouts(proxy).has(checkout.id))
      return answerHtml(410, '<main><h1>Link expired</h1><p>This payment link is no longer valid.</p></main>');
  },
});

export const processedCheckoutMutants: Mutant[] = [
  {
    name: 'refused-second-payment-stores',
    clause: 'TOK-3',
    description:
      'A second payment of a checkout already paid or declined is refused with 409, yet the card or wallet it was paid with is stored for the customer.',
    transform: refusedPaymentStores,
  },
];

export const processedCheckoutBenign: BenignVariant[] = [
  {
    name: 'processed-page-gone',
    description: 'The hosted page of a checkout already paid or declined answers 410 "link expired", with no form.',
    transform: processedPageGone,
  },
];
