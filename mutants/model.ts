/**
 * Faults of interactions and of time, which no spec's own scenario meets and the model of the whole
 * service (specs/model.spec.ts) finds: several customers, references alive at once, the webhook set
 * while references wait, a payment after another. And the freedoms the model must allow.
 */
import { randomUUID } from 'node:crypto';
import { answer, consentAlwaysOnPage, editData, editRequest, memoSet, payerOf, paymentOfDelivery, succeeded, type Json } from './edits.ts';
import { callOperation, type ProxyContext, type Transform } from './proxy.ts';
import type { BenignVariant, Mutant } from './kinds.ts';
import { atOnceBenignVariants } from './at-once.ts';
import { redirectWithId } from '../src/sandbox/payments.ts';

async function storedMethods(proxy: ProxyContext, customer: string): Promise<Json[]> {
  const list = (await callOperation(proxy, 'listMethods', { param: customer })).json as Json;
  return Array.isArray(list?.data) ? list.data : [];
}

/** Customers in the order they first paid: the one who paid just after another leaks its methods to it. */
const leaksToEarlierPayer: Transform = {
  request(request, proxy) {
    const payer = payerOf(request, proxy);
    if (payer) memoSet<string>(proxy, 'payers').add(payer);
  },
  async response(response, request, proxy) {
    const data = (response.json as Json)?.data;
    if (request.route !== 'listMethods' || !Array.isArray(data) || !request.param) return;
    const payers = [...memoSet<string>(proxy, 'payers')];
    const customer = request.param.toLowerCase();
    const next = payers[payers.indexOf(customer) + 1];
    if (payers.includes(customer) && next) data.push(...(await storedMethods(proxy, next)));
  },
};

/** The id of the payment a notification is about (the sandbox's body: { webhook, payments: [payment] }). */

/** References created while no webhook was set: once one is, their notifications go there instead of to callbackUrl. */
const callbackMovedToLaterWebhook: Transform = {
  response(response, request, proxy) {
    const id = (response.json as Json)?.data?.id;
    if (request.route === 'createReference' && typeof id === 'string' && proxy.webhookUrl === null) memoSet<string>(proxy, 'createdWithoutWebhook').add(id);
  },
  notification(delivery, proxy) {
    const id = paymentOfDelivery(delivery.json);
    if (delivery.channel !== 'callback' || !proxy.webhookUrl || !id || !memoSet<string>(proxy, 'createdWithoutWebhook').has(id)) return [delivery];
    return [{ ...delivery, channel: 'webhook', to: proxy.webhookUrl }];
  },
};

/** A confirmation also notifies the newest other reference alive that nobody tried to pay, as if it had been paid. */
const notifiesAnother: Transform = {
  request(request, proxy) {
    if (request.route === 'confirmPayment' && request.param) memoSet<string>(proxy, 'tried').add(request.param);
  },
  async response(response, request, proxy) {
    if (request.route !== 'confirmPayment' || !succeeded(response)) return;
    const tried = memoSet<string>(proxy, 'tried');
    const other = [...proxy.payments.values()].reverse().find((payment) => !tried.has(payment.id));
    const to = other?.callbackUrl ?? proxy.webhookUrl;
    if (!other || !to) return;
    tried.add(other.id);
    const payment = ((await callOperation(proxy, 'getPayment', { param: other.id })).json as Json)?.data;
    const body = {
      webhook: { id: randomUUID(), action: 'payment_confirmed', createdAt: new Date().toISOString() },
      payments: [{ ...payment, stateDetails: { state: 'confirmed' } }],
    };
    await proxy.deliver({ channel: other.callbackUrl ? 'callback' : 'webhook', to, json: body, headers: {} });
  },
};

/** A declined payment of a customer hides the methods the customer had stored before it. */
const declineForgetsStored: Transform = {
  async request(request, proxy) {
    const payer = payerOf(request, proxy);
    if (!payer || (request.json as Json)?.outcome !== 'failure') return;
    const hidden = memoSet<string>(proxy, 'hidden');
    for (const method of await storedMethods(proxy, payer)) hidden.add(method?.uuid);
  },
  response: editData(['listMethods'], (data, proxy) => {
    const hidden = memoSet<string>(proxy, 'hidden');
    if (Array.isArray(data)) data.splice(0, data.length, ...data.filter((method) => !hidden.has(method?.uuid)));
  }).response,
};

/** Every reference created closes the windows of those created before it: their confirmation is refused as outside the window. */
const laterReferenceClosesWindows: Transform = {
  request(request, proxy) {
    if (request.route === 'createReference') for (const id of proxy.payments.keys()) memoSet<string>(proxy, 'closed').add(id);
    if (request.route === 'confirmPayment' && request.param && memoSet<string>(proxy, 'closed').has(request.param)) {
      return answer(409, { success: false, error: 'outside_validity' });
    }
  },
};

/** A reference created while a webhook was set is notified there even after the webhook moved to another address. */
const webhookFixedAtCreation: Transform = {
  response(response, request, proxy) {
    const id = (response.json as Json)?.data?.id;
    if (request.route === 'createReference' && typeof id === 'string' && proxy.webhookUrl) proxy.memo.set(`webhookAt:${id}`, proxy.webhookUrl);
  },
  notification(delivery, proxy) {
    const id = paymentOfDelivery(delivery.json);
    const atCreation = id ? (proxy.memo.get(`webhookAt:${id}`) as string | undefined) : undefined;
    if (delivery.channel !== 'webhook' || !atCreation || atCreation === delivery.to) return [delivery];
    return [{ ...delivery, to: atCreation }];
  },
};

/** A confirmation of a reference already confirmed is taken as a reversal: the payment reads pending again. */
const secondConfirmationReverts: Transform = {
  request(request, proxy) {
    if (request.route === 'confirmPayment' && request.param && memoSet<string>(proxy, 'confirmed').has(request.param))
      memoSet<string>(proxy, 'reverted').add(request.param);
  },
  response(response, request, proxy) {
    const data = (response.json as Json)?.data;
    if (request.route === 'confirmPayment' && request.param && succeeded(response)) memoSet<string>(proxy, 'confirmed').add(request.param);
    if (request.route === 'getPayment' && data?.stateDetails && memoSet<string>(proxy, 'reverted').has(data.id)) data.stateDetails.state = 'pending';
  },
};

export const mutants: Mutant[] = [
  {
    name: 'stored-method-leaks-to-earlier-payer',
    clause: 'TOK-6',
    description: "A customer's list also holds the methods stored by the customer who paid next after them.",
    transform: leaksToEarlierPayer,
  },
  {
    name: 'callback-moved-to-later-webhook',
    clause: 'EVT-1',
    description: 'A reference with callbackUrl created while no webhook was set is notified at the webhook, once one is set, instead of at its callbackUrl.',
    transform: callbackMovedToLaterWebhook,
  },
  {
    name: 'confirmation-notifies-another-reference',
    clause: 'EVT-4',
    description: 'Confirming one reference also sends a confirmation notification of the newest other reference alive, which nobody paid.',
    transform: notifiesAnother,
  },
  {
    name: 'declined-payment-forgets-stored-methods',
    clause: 'TOK-1',
    // A method stored with consent is forgotten the same way.
    disturbs: ['TOK-2'],
    description: 'A declined payment of a customer removes the methods the customer had stored before from their list.',
    transform: declineForgetsStored,
  },
  {
    name: 'page-stores-without-consent',
    clause: 'TOK-2',
    description:
      'The hosted page stores the method where the customer declined the offer to store it (the pay helper honours the answer): only a payment on the page shows it.',
    transform: consentAlwaysOnPage,
  },
  {
    name: 'webhook-fixed-at-creation',
    clause: 'EVT-2',
    description: 'A reference without callbackUrl created while a webhook was set is notified at that address even after the webhook moved to another.',
    transform: webhookFixedAtCreation,
  },
  {
    name: 'second-confirmation-reverts',
    clause: 'REF-6',
    description: 'Confirming a reference that is already confirmed is taken as a reversal: the payment reads pending again.',
    transform: secondConfirmationReverts,
  },
  {
    name: 'later-reference-closes-windows',
    clause: 'REF-6',
    description: 'Creating a reference closes the validity windows of every reference created before it: paying them inside their window is refused.',
    transform: laterReferenceClosesWindows,
  },
];

/** Within eventMs after a customer's payment, the list does not show what it stored yet. */
const storedMethodsShowLate: Transform = {
  async request(request, proxy) {
    const payer = payerOf(request, proxy);
    if (!payer) return;
    const known = new Set((await storedMethods(proxy, payer)).map((method) => method?.uuid));
    proxy.memo.set(`known:${payer}`, { known, until: Date.now() + 1000 });
  },
  response: editData(['listMethods'], (data, proxy, request) => {
    const late = proxy.memo.get(`known:${request.param?.toLowerCase()}`) as { known: Set<string>; until: number } | undefined;
    if (!Array.isArray(data) || !late || Date.now() > late.until) return;
    data.splice(0, data.length, ...data.filter((method) => late.known.has(method?.uuid)));
  }).response,
};

/**
 * The pay helper, asked to pay an MB checkout (method MB), takes the customer's payment and answers
 * 200, but its reference stays pending until the interbank network confirms it (the confirm helper),
 * and nothing is notified before: as sections 1 and 6 tell it, the network confirms a reference and
 * the service then notifies. Paying it again answers 409, as the helpers' contract says.
 */
const mbCheckoutPaidAwaitsNetwork: Transform = {
  async request(request, proxy) {
    const body = request.json as Json;
    if (request.route !== 'payCheckout' || !request.param || body?.method !== 'MB' || body?.outcome === 'failure') return;
    const checkout = proxy.checkouts.get(request.param);
    if (!checkout) return;
    const taken = memoSet<string>(proxy, 'mb-checkouts-paid');
    if (taken.has(checkout.id)) return answer(409, { success: false, error: 'already_processed' });
    // A checkout whose reference is confirmed already (or declined), the target answers itself.
    const payment = ((await callOperation(proxy, 'getPayment', { param: String(checkout.paymentId) })).json as Json)?.data;
    if (payment?.stateDetails?.state !== 'pending') return;
    taken.add(checkout.id);
    const action = checkout.request?.redirects?.find((redirect: Json) => redirect?.type === 'action')?.url;
    return answer(200, { checkoutId: checkout.id, state: 'PaymentPending', redirectUrl: action ? redirectWithId(action, checkout.id) : null });
  },
};

export const benignVariants: BenignVariant[] = [
  {
    name: 'lists-in-reverse-order',
    description: 'Stored-method lists come newest first (the reference shows no order).',
    transform: editData(['listMethods'], (data) => Array.isArray(data) && data.reverse()),
  },
  {
    name: 'stored-methods-show-late',
    description: "A method stored by a payment shows in the customer's list a second after the payment, within the profile's eventMs.",
    transform: storedMethodsShowLate,
  },
  {
    name: 'pay-helper-no-answer-taken-as-consent',
    description:
      "A pay helper body without storeConsent is taken as the customer consenting: where the checkout has allowRegistration true, the method is stored (the helpers' contract does not say what an absent answer is).",
    transform: editRequest('payCheckout', (body) => body.storeConsent === undefined && (body.storeConsent = true)),
  },
  {
    name: 'mb-checkout-paid-awaits-network',
    description:
      'Paying an MB checkout through the pay helper answers 200, but its reference stays pending, unnotified, until the interbank network confirms it (the confirm helper); paid again, 409.',
    transform: mbCheckoutPaidAwaitsNetwork,
  },
  ...atOnceBenignVariants,
];
