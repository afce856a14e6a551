/**
 * First-sight candidates of 2026-11-29: departures and freedoms imagined from the reference alone,
 * each as a transform of the proxy in front of the reference sandbox. Every departure fires on one
 * class of input, state or path to an outcome, as the bug it stands for would, and leaves the rest
 * of the conversation as the sandbox answers it.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenignVariant, Mutant } from '../kinds.ts';
import {
  answer,
  answerHtml,
  asksToStore,
  checkoutOfPayPath,
  customerOf,
  detailsOf,
  editBody,
  editData,
  editRequest,
  editStoredMethods,
  escapeAttribute,
  fabricatedConfirmation,
  isCustomScheme,
  isUuid,
  layoutOf,
  memoMap,
  memoSet,
  nowIso,
  pageRequested,
  paidCheckout,
  paymentOfDelivery,
  refusal,
  rule3Holds,
  setDetail,
  succeeded,
  type Json,
  editNotifiedPayments,
  isObject,
  sandboxSecret,
  withBody,
} from '../edits.ts';
import { callOperation, type CheckoutRecord, type ProxyContext, type ProxyRequest, type ProxyResponse, type Transform } from '../proxy.ts';
import { formatAmount } from '../../src/sandbox/html.ts';
import { signature } from '../../src/sandbox/notifications.ts';
import { redirectWithId } from '../../src/sandbox/payments.ts';

/** The checkout whose payment this is, if a checkout made it. */
const checkoutOfPayment = (proxy: ProxyContext, paymentId: unknown): CheckoutRecord | undefined =>
  paymentId === undefined || paymentId === null
    ? undefined
    : [...proxy.checkouts.values()].find((checkout) => String(checkout.paymentId) === String(paymentId));

const methodCodeOf = (body: Json): unknown => body?.payment?.paymentMethod?.code;

/** The url of the body's first redirect of type action. */
const actionUrlOf = (body: Json): string | undefined => {
  const redirects = body?.redirects;
  if (!Array.isArray(redirects)) return undefined;
  const url = redirects.find((redirect: Json) => redirect?.type === 'action' && typeof redirect.url === 'string')?.url;
  return typeof url === 'string' ? url : undefined;
};

/** The checkout whose page (GET of the hosted page or the widget, or the hosted form's answer) this is. */
function checkoutOfAnyPage(request: ProxyRequest, proxy: ProxyContext): CheckoutRecord | undefined {
  return pageRequested(request, proxy) ?? (request.method === 'POST' && request.route === 'other' ? checkoutOfPayPath(request.path, proxy) : undefined);
}

/** The consent offer of the hosted page (plain or portal markup), also as the widget's script writes it (quotes escaped). */
const consentOffer = /<label class=(\\?)"(?:sbx|portal)-consent\1"[\s\S]*?<\/label>/g;

/**
 * The checkout a payment declined: the pay helper answered PaymentDeclined, or the hosted form was
 * posted with a card the sandbox's issuer declines (ending in 0002) and answered without an error.
 */
function declinedCheckout(request: ProxyRequest, response: ProxyResponse, proxy: ProxyContext): CheckoutRecord | undefined {
  if (request.route === 'payCheckout' && request.param && succeeded(response)) {
    return (response.json as Json)?.state === 'PaymentDeclined' ? proxy.checkouts.get(request.param) : undefined;
  }
  if (request.method !== 'POST' || request.route !== 'other' || request.json !== undefined || response.status >= 400) return undefined;
  const checkout = checkoutOfPayPath(request.path, proxy);
  const form = new URLSearchParams(request.text);
  const number = (form.get('cardNumber') ?? '').replace(/[\s-]/g, '');
  return checkout && form.get('method') === 'CC' && number.endsWith('0002') ? checkout : undefined;
}

// ---------------------------------------------------------------------------------------------
// Envelope
// ---------------------------------------------------------------------------------------------

/** The payment query takes its envelope date from the database's now()::text, as PostgreSQL writes a timestamptz. */
const paymentDateAsPostgresText: Transform = editBody(['getPayment'], (body) => {
  if (typeof body.date !== 'string' || Number.isNaN(Date.parse(body.date))) return;
  const now = Date.now();
  const iso = new Date(Date.parse(body.date)).toISOString();
  const microseconds = String((now % 1000) * 1000 + Math.floor(Math.random() * 1000)).padStart(6, '0');
  body.date = `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${microseconds}+00`;
});

// ---------------------------------------------------------------------------------------------
// Checkouts
// ---------------------------------------------------------------------------------------------

/** The state of a new ATM (MB) checkout is read from its reference's payment, which is pending. */
const mbCheckoutStateFromReference: Transform = editData(['createCheckout'], (data, _proxy, request) => {
  if (methodCodeOf(request.json) === 'MB' && isObject(data?.stateDetails)) data.stateDetails.state = 'pending';
});

/** The address of an app checkout (layout default with an action redirect) is built with the return URL as its whole query. */
const appUrlQueryReplacedByReturn: Transform = editData(['createCheckout'], (data, _proxy, request) => {
  const action = actionUrlOf(request.json);
  if (layoutOf(request.json) !== 'default' || action === undefined || typeof data?.checkoutUrl !== 'string' || !URL.canParse(data.checkoutUrl)) return;
  const url = new URL(data.checkoutUrl);
  url.search = new URLSearchParams({ return_url: action }).toString();
  data.checkoutUrl = url.toString();
});

/** A card checkout must carry a billing address (3-D Secure 2 asks for one). */
const cardCheckoutNeedsBillingAddress: Transform = {
  request(request) {
    const body = request.json as Json;
    if (request.route !== 'createCheckout' || !isObject(body) || methodCodeOf(body) !== 'CC' || body.payment?.billingAddress !== undefined) return;
    return refusal(422, 'invalid_field', 'payment.billingAddress: is required for card payments (3-D Secure 2)', 'payment.billingAddress');
  },
};

/** The merchant's customer (customerId, else uuid) a checkout is for, as an idempotency key reads it. */
function customerKey(body: Json): string | undefined {
  const customer = body?.payment?.customer;
  if (!isObject(customer)) return undefined;
  if (typeof customer.customerId === 'string' || typeof customer.customerId === 'number') return `customerId:${customer.customerId}`;
  return typeof customer.uuid === 'string' ? `uuid:${customer.uuid.toLowerCase()}` : undefined;
}

/** Checkouts carry an idempotency key made of the customer and the second: a second checkout of a customer within the same second is the first. */
const checkoutIdFromCustomerAndSecond: Transform = {
  request(request, proxy) {
    if (request.route !== 'createCheckout' || !isObject(request.json)) return;
    const customer = customerKey(request.json);
    if (customer === undefined) return;
    const key = `${customer}@${Math.floor(Date.now() / 1000)}`;
    const earlier = memoMap<string, { status: number; json: Json }>(proxy, 'checkout-of-customer-second').get(key);
    if (earlier)
      return {
        status: earlier.status,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        json: { ...structuredClone(earlier.json), date: nowIso() },
        text: '',
      };
    memoMap<ProxyRequest, string>(proxy, 'customer-second-of-request').set(request, key);
  },
  response(response, request, proxy) {
    const key = memoMap<ProxyRequest, string>(proxy, 'customer-second-of-request').get(request);
    if (request.route !== 'createCheckout' || key === undefined || !succeeded(response) || !isObject(response.json)) return;
    const first = memoMap<string, { status: number; json: Json }>(proxy, 'checkout-of-customer-second');
    if (!first.has(key)) first.set(key, { status: response.status, json: structuredClone(response.json) });
  },
};

/** A variable-amount (ESTM) checkout is processed as a zero-amount card verification: its payment, page and notification show 0. */
const estmChargedZero: Transform = {
  response(response, request, proxy) {
    const data = (response.json as Json)?.data;
    const zeroed = memoSet<string>(proxy, 'estm-payments');
    if (request.route === 'createCheckout' && succeeded(response) && data?.paymentId !== undefined) {
      if ((request.json as Json)?.payment?.recurring?.amountQualifier === 'ESTM') zeroed.add(String(data.paymentId));
      return;
    }
    if (request.route === 'getPayment' && succeeded(response) && data && zeroed.has(String(data.id)) && typeof data.amount === 'number') {
      data.amount = 0;
      return;
    }
    const checkout = pageRequested(request, proxy);
    const amount = checkout?.request?.payment?.amount;
    if (checkout && zeroed.has(String(checkout.paymentId)) && response.json === undefined && Number.isSafeInteger(amount) && amount !== 0) {
      response.text = response.text.split(formatAmount(amount)).join(formatAmount(0));
    }
  },
  notification: editNotifiedPayments((payment, proxy) => {
    if (memoSet<string>(proxy, 'estm-payments').has(String(payment.id)) && typeof payment.amount === 'number') payment.amount = 0;
  }),
};

/** Rule 3 is checked only where there is a customer to store for: without customer.uuid the flags are dropped and the checkout created. */
const rule3CheckedOnlyWithCustomer: Transform = editRequest('createCheckout', (body) => {
  if (!asksToStore(body) || rule3Holds(body) || body.payment?.customer?.uuid !== undefined) return;
  const details = detailsOf(body);
  delete details.createRegistration;
  delete details.allowRegistration;
});

/** A redirect url is validated with `if (url)`: an empty one is taken, and the customer is sent to "?id=…" on the payment page itself. */
const emptyActionSentinel = 'https://empty-redirect.invalid/';
const emptyRedirectUrlAccepted: Transform = {
  request(request) {
    const redirects = (request.json as Json)?.redirects;
    if (request.route !== 'createCheckout' || !Array.isArray(redirects)) return;
    for (const redirect of redirects)
      if (isObject(redirect) && typeof redirect.url === 'string' && redirect.url.trim() === '') redirect.url = emptyActionSentinel;
  },
  redirect: (location) => (location.startsWith(emptyActionSentinel) ? location.slice(emptyActionSentinel.length) : location),
};

/** A JSON body that is not an object is answered 200 with success false, as a PHP handler does after json_decode. */
const nonObjectBodyAnswered200: Transform = {
  request(request) {
    if (request.route !== 'createCheckout' || request.json === undefined || isObject(request.json)) return;
    return answer(200, { success: false, date: nowIso(), error: { code: 'invalid_request', message: 'The request body must be a JSON object' } });
  },
};

const restartMs = 3000;
/**
 * A body that is not JSON is refused 400, then the worker exits (an unhandled rejection in its error
 * logger) and the service answers 503 until its supervisor has restarted it, three seconds later.
 */
const invalidJsonTakesServiceDown: Transform = {
  request(request, proxy) {
    const downUntil = proxy.memo.get('down-until') as number | undefined;
    if (downUntil !== undefined && Date.now() < downUntil) {
      return {
        status: 503,
        headers: { 'content-type': 'text/html; charset=utf-8', 'retry-after': '3' },
        json: undefined,
        text: '<html><body><h1>503 Service Unavailable</h1></body></html>',
      };
    }
    if (request.route === 'createCheckout' && request.json === undefined && request.text.trim() !== '') proxy.memo.set('down-until', Date.now() + restartMs);
  },
};

// ---------------------------------------------------------------------------------------------
// Pages and redirects
// ---------------------------------------------------------------------------------------------

const translatedLanguages = new Set(['PT', 'EN', 'ES']);

/** The hosted page looks its words up in bundles PT, EN and ES, by the language as written: any other language (FR, pt, pt-PT) fails to render. */
const pageFailsForUntranslatedLanguage: Transform = {
  request(request, proxy) {
    const checkout = pageRequested(request, proxy);
    const language = checkout?.request?.page?.language;
    if (!checkout || layoutOf(checkout.request) === 'embed' || typeof language !== 'string' || translatedLanguages.has(language)) return;
    return answerHtml(
      500,
      `<h1>Internal Server Error</h1><p>TypeError: Cannot read properties of undefined (reading 'payTitle') at translations["${escapeAttribute(language)}"]</p>`,
    );
  },
};

/** The widget script goes out with helmet's defaults: Cross-Origin-Resource-Policy same-origin, so a merchant page on another origin cannot load it. */
const widgetBlockedCrossOrigin: Transform = {
  response(response, request, proxy) {
    const checkout = pageRequested(request, proxy);
    if (!checkout || layoutOf(checkout.request) !== 'embed' || response.json !== undefined) return;
    response.headers['cross-origin-resource-policy'] = 'same-origin';
    response.headers['x-content-type-options'] = 'nosniff';
  },
};

/** Where a checkout has a redirect of type success beside its action redirect, the customer is sent to the success one. */
const successRedirectPreferred: Transform = {
  redirect(location, proxy, request) {
    const checkout = paidCheckout(request, proxy);
    const redirects = checkout?.request?.redirects;
    if (!checkout || !Array.isArray(redirects) || !location.includes(`id=${encodeURIComponent(checkout.id)}`)) return location;
    const success = redirects.find((redirect: Json) => redirect?.type === 'success' && typeof redirect.url === 'string' && redirect.url !== '')?.url;
    return typeof success === 'string' ? redirectWithId(success, checkout.id) : location;
  },
};

/** A deep link gets the checkout id as a path segment, as app routers read it (myshop://paid/ID), not as the parameter id. */
const deepLinkIdAsPathSegment: Transform = {
  redirect(location, proxy, request) {
    const checkout = paidCheckout(request, proxy);
    if (!checkout || !isCustomScheme(location)) return location;
    const marker = `id=${encodeURIComponent(checkout.id)}`;
    const at = location.lastIndexOf(marker);
    if (at < 1 || !'?&'.includes(location[at - 1])) return location;
    const end = at + marker.length;
    const rest =
      location[at - 1] === '?' && location[end] === '&'
        ? `${location.slice(0, at)}${location.slice(end + 1)}`
        : `${location.slice(0, at - 1)}${location.slice(end)}`;
    const pathEnd = rest.search(/[?#]/);
    const cut = pathEnd < 0 ? rest.length : pathEnd;
    const base = rest.slice(0, cut);
    return `${base}${base.endsWith('/') ? '' : '/'}${encodeURIComponent(checkout.id)}${rest.slice(cut)}`;
  },
};

/** The ATM page is cached by product (payment.code and amount): a second MB checkout of the same product shows the first one's reference. */
const atmPageCachedByProduct: Transform = {
  response(response, request, proxy) {
    const checkout = pageRequested(request, proxy);
    const payment = checkout?.request?.payment;
    if (!checkout || payment?.paymentMethod?.code !== 'MB' || typeof payment.code !== 'string' || response.json !== undefined || response.status !== 200)
      return;
    if (!/data-testid="atm-reference"|id="referencia"/.test(response.text)) return;
    const cache = memoMap<string, { checkoutId: string; text: string }>(proxy, 'atm-page-by-product');
    const key = `${payment.code}|${payment.amount}`;
    const cached = cache.get(key);
    if (!cached) cache.set(key, { checkoutId: checkout.id, text: response.text });
    else if (cached.checkoutId !== checkout.id) response.text = cached.text;
  },
};

/** The offer to store is written into the card fields only: a wallet (MW) checkout with allowRegistration does not offer it. */
const consentOfferCardOnly: Transform = {
  response(response, request, proxy) {
    const checkout = checkoutOfAnyPage(request, proxy);
    if (!checkout || response.json !== undefined || methodCodeOf(checkout.request) !== 'MW' || detailsOf(checkout.request).allowRegistration !== true) return;
    response.text = response.text.replace(consentOffer, '');
  },
};

/** A declined payment is also reported to the action URL by a server-side POST (a "failure callback"), besides the browser's redirect. */
const declinedPostedToAction: Transform = {
  response(response, request, proxy) {
    const checkout = declinedCheckout(request, response, proxy);
    if (!checkout) return;
    const redirectUrl = (response.json as Json)?.redirectUrl;
    const target = request.route === 'payCheckout' ? redirectUrl : response.headers.location;
    if (typeof target !== 'string' || !/^https?:/i.test(target)) return;
    proxy.postInBackground(target, { id: checkout.id, state: 'PaymentDeclined' });
  },
};

// ---------------------------------------------------------------------------------------------
// Storing payment methods
// ---------------------------------------------------------------------------------------------

/** createRegistration is wired into the basic page and the layout-less flow only: a layout-default checkout stores nothing. */
const createRegistrationIgnoredOnDefaultLayout: Transform = editRequest('createCheckout', (body) => {
  const details = detailsOf(body);
  if (layoutOf(body) === 'default' && details.createRegistration === true && details.allowRegistration !== true) details.createRegistration = false;
});

/**
 * A wallet is registered when its payment is requested, before the customer approves it in the app:
 * a wallet payment that fails (the pay helper's outcome failure) in a storing checkout still stores it.
 */
const walletStoredBeforeApproval: Transform = {
  async response(response, request, proxy) {
    if (request.route !== 'payCheckout' || !request.param || !succeeded(response) || (response.json as Json)?.state !== 'PaymentDeclined') return;
    const pay = request.json as Json;
    if (pay?.method !== 'MW' || !isObject(pay.wallet)) return;
    const checkout = proxy.checkouts.get(request.param);
    const customer = customerOf(checkout?.request);
    const details = detailsOf(checkout?.request);
    if (!customer || !(details.createRegistration === true || (details.allowRegistration === true && pay.storeConsent === true))) return;
    // The registration the target made: a storing wallet payment of the same customer, out of sight.
    const created = (
      await proxy.callUpstream('POST', '/checkouts', {
        payment: { amount: 1, customer: { uuid: customer }, paymentMethod: { code: 'MW', details: { createRegistration: true } } },
        page: { layout: 'basic' },
      })
    ).json as Json;
    const id = created?.data?.id;
    if (typeof id !== 'string') return;
    memoSet<string>(proxy, 'registration-payments').add(String(created.data.paymentId));
    await proxy.callUpstream('POST', `/test-helpers/checkouts/${encodeURIComponent(id)}/pay`, { outcome: 'success', method: 'MW', wallet: pay.wallet });
    response.headers['x-wallet-registration'] = 'requested';
  },
  notification: (delivery, proxy) => (memoSet<string>(proxy, 'registration-payments').has(String(paymentOfDelivery(delivery.json))) ? [] : [delivery]),
};

/**
 * The payment handler trusts the customer's storeConsent without checking that the checkout offered
 * it: a checkout of a registered customer without either flag stores the method when the pay request
 * says storeConsent true. The pages (which offer nothing) are right.
 */
const unofferedConsentHonoured: Transform = {
  request(request, proxy) {
    const body = request.json as Json;
    if (request.route !== 'createCheckout' || !isObject(body) || asksToStore(body) || !isUuid(body.payment?.customer?.uuid) || !rule3Holds(body)) return;
    setDetail(body, 'allowRegistration', true);
    memoSet<ProxyRequest>(proxy, 'unoffered-consent-requests').add(request);
  },
  response(response, request, proxy) {
    const hidden = memoSet<string>(proxy, 'unoffered-consent-checkouts');
    const data = (response.json as Json)?.data;
    if (request.route === 'createCheckout') {
      if (succeeded(response) && typeof data?.id === 'string' && memoSet<ProxyRequest>(proxy, 'unoffered-consent-requests').has(request)) hidden.add(data.id);
      return;
    }
    const checkout = checkoutOfAnyPage(request, proxy);
    if (checkout && hidden.has(checkout.id) && response.json === undefined) response.text = response.text.replace(consentOffer, '');
  },
};

/** The merchant's customerIds a customer uuid was given with, in checkouts and in registrations. */
function customerIdsOf(proxy: ProxyContext, uuid: string): Set<string> {
  const ids = new Set<string>();
  for (const checkout of proxy.checkouts.values()) {
    const customer = checkout.request?.payment?.customer;
    if (customerOf(checkout.request) === uuid && (typeof customer?.customerId === 'string' || typeof customer?.customerId === 'number'))
      ids.add(String(customer.customerId));
  }
  const registered = memoMap<string, string>(proxy, 'registered-customer-ids').get(uuid);
  if (registered !== undefined) ids.add(registered);
  return ids;
}

/** Stored methods are looked up by the merchant's customerId where a customer has one: customers sharing a customerId share their methods. */
const methodsSharedByCustomerId: Transform = {
  async response(response, request, proxy) {
    const body = response.json as Json;
    if (request.route === 'registerCustomer' && succeeded(response) && typeof body?.uuid === 'string') {
      const customerId = (request.json as Json)?.customerId;
      if (typeof customerId === 'string' || typeof customerId === 'number')
        memoMap<string, string>(proxy, 'registered-customer-ids').set(body.uuid.toLowerCase(), String(customerId));
      return;
    }
    if (request.route !== 'listMethods' || !request.param || !succeeded(response) || !Array.isArray(body?.data)) return;
    const customer = request.param.toLowerCase();
    const ids = customerIdsOf(proxy, customer);
    if (ids.size === 0) return;
    for (const other of proxy.customers) {
      if (other === customer || ![...customerIdsOf(proxy, other)].some((id) => ids.has(id))) continue;
      const theirs = (await callOperation(proxy, 'listMethods', { param: other })).json as Json;
      if (Array.isArray(theirs?.data)) body.data.push(...theirs.data);
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Stored-method lists
// ---------------------------------------------------------------------------------------------

/** The holder is kept in a latin1 column: every character beyond it (Cyrillic, Greek, CJK) is listed as "?". */
const holderBeyondLatin1AsQuestionMarks: Transform = editStoredMethods((method) => {
  if (method.type !== 'CC' || typeof method.holder !== 'string') return;
  method.holder = [...method.holder].map((character) => ((character.codePointAt(0) ?? 0) > 0xff ? '?' : character)).join('');
});

/** The holder goes through addslashes before it is stored: an apostrophe, a quote or a backslash is listed escaped (O\'Brien). */
const holderAddslashes: Transform = editStoredMethods((method) => {
  if (method.type === 'CC' && typeof method.holder === 'string') method.holder = method.holder.replace(/[\\'"]/g, '\\$&');
});

/** The list answers type=CC unless asked otherwise (a query the reference does not show): stored wallets are never listed. */
const listDefaultsToCards: Transform = editData(['listMethods'], (data, _proxy, request) => {
  if (!Array.isArray(data) || request.query.has('type')) return;
  const cards = data.filter((method: Json) => method?.type !== 'MW');
  if (cards.length !== data.length) data.splice(0, data.length, ...cards);
});

// ---------------------------------------------------------------------------------------------
// References
// ---------------------------------------------------------------------------------------------

/** callbackUrl must be https, as live webhook endpoints of many providers must: an http callbackUrl is refused. */
const callbackHttpsOnly: Transform = {
  request(request) {
    const url = (request.json as Json)?.callbackUrl;
    if (request.route !== 'createReference' || typeof url !== 'string' || !/^http:/i.test(url)) return;
    return refusal(422, 'invalid_field', 'callbackUrl: must be an https URL', 'callbackUrl');
  },
};

const minimumValidityMs = 60 * 60 * 1000;
/** A reference must stay payable for at least an hour: a window that ends sooner (though still to come) is refused. */
const shortWindowRefused: Transform = {
  request(request) {
    const validDate = (request.json as Json)?.validDate;
    if (request.route !== 'createReference' || !isObject(validDate)) return;
    const start = Date.parse(validDate.start);
    const end = Date.parse(validDate.end);
    const now = Date.now();
    if (Number.isNaN(start) || Number.isNaN(end) || end < start || end <= now || end - Math.max(start, now) >= minimumValidityMs) return;
    return refusal(422, 'invalid_field', 'validDate.end: a reference must stay valid for at least 1 hour', 'validDate.end');
  },
};

/** A reference is an ATM payment: methods other than MB asked beside it are silently dropped from the payment. */
const onlyMb = (payment: Json) => {
  const methods = payment?.availableMethods;
  if (Array.isArray(methods) && methods.some((method: Json) => method?.code === 'MB') && methods.some((method: Json) => method?.code !== 'MB')) {
    payment.availableMethods = methods.filter((method: Json) => method?.code === 'MB');
  }
};
const referenceMethodsFilteredToMb: Transform = {
  ...editData(['createReference', 'getPayment'], (data, proxy) => {
    if (data && proxy.payments.has(String(data.id))) onlyMb(data);
  }),
  notification: editNotifiedPayments((payment, proxy) => {
    if (proxy.payments.has(String(payment.id))) onlyMb(payment);
  }),
};

const checkoutStates: Record<string, string> = { pending: 'PaymentReady', confirmed: 'PaymentConfirmed', declined: 'PaymentDeclined' };
/** The payment of an ATM (MB) checkout shows its checkout's state: paid at an ATM and confirmed, it reads PaymentConfirmed. */
const mirrorCheckoutState = (payment: Json, proxy: ProxyContext) => {
  const checkout = checkoutOfPayment(proxy, payment?.id);
  const state = payment?.stateDetails?.state;
  if (checkout && methodCodeOf(checkout.request) === 'MB' && typeof state === 'string' && state in checkoutStates)
    payment.stateDetails.state = checkoutStates[state];
};
const mbCheckoutPaymentStateMirrorsCheckout: Transform = {
  ...editData(['getPayment'], (data, proxy) => mirrorCheckoutState(data, proxy)),
  notification: editNotifiedPayments(mirrorCheckoutState),
};

/** The wall clock an ISO 8601 instant was written at, its offset ignored, as milliseconds. */
function wallClock(instant: string): number {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)/.exec(instant);
  return match ? Date.parse(`${match[1]}Z`) : Number.NaN;
}

/**
 * The window is checked on naive datetimes (offsets dropped, as Python compares after
 * replace(tzinfo=None)): where the payment and the window are written at different offsets, a
 * payment outside the window confirms it, and one inside is refused.
 */
const windowComparedOnWallClock: Transform = {
  request(request, proxy) {
    if (request.route !== 'confirmPayment' || !request.param) return;
    const window = proxy.payments.get(request.param)?.request?.validDate;
    if (typeof window?.start !== 'string' || typeof window?.end !== 'string') return;
    const body = isObject(request.json) ? (request.json as Json) : {};
    const paidAtText = typeof body.paidAt === 'string' ? body.paidAt : nowIso();
    const [paidAt, start, end] = [Date.parse(paidAtText), Date.parse(window.start), Date.parse(window.end)];
    const [paidWall, startWall, endWall] = [wallClock(paidAtText), wallClock(window.start), wallClock(window.end)];
    if ([paidAt, start, end, paidWall, startWall, endWall].some(Number.isNaN) || start > end) return;
    const inside = start <= paidAt && paidAt <= end;
    const insideOnTheWall = startWall <= paidWall && paidWall <= endWall;
    if (inside === insideOnTheWall) return;
    if (!insideOnTheWall) {
      return refusal(409, 'outside_validity', 'the payment was made outside the validity window of the reference', 'paidAt');
    }
    body.paidAt = new Date(Math.min(Math.max(paidAt, start), end)).toISOString();
    request.json = body;
    request.headers['content-type'] = 'application/json';
  },
};

/**
 * References of checkouts and of POST /payments/references come from two sequences started at the
 * same value: the n-th reference created repeats the n-th ATM (MB) checkout's, both valid at once.
 */
const checkoutAndReferenceSequencesCollide: Transform = {
  async response(response, request, proxy) {
    const data = (response.json as Json)?.data;
    if (!succeeded(response) || !isObject(data)) return;
    const checkoutReferences = memoMap<number, string>(proxy, 'mb-checkout-references');
    const forced = memoMap<string, string>(proxy, 'collided-references');
    if (request.route === 'createCheckout' && methodCodeOf(request.json) === 'MB' && data.paymentId !== undefined) {
      const read = (await callOperation(proxy, 'getPayment', { param: String(data.paymentId) })).json as Json;
      const reference = read?.data?.referenceDetails?.reference;
      if (typeof reference === 'string') checkoutReferences.set(checkoutReferences.size, reference);
      return;
    }
    if (request.route === 'createReference' && isObject(data.referenceDetails)) {
      const made = (proxy.memo.get('references-made') as number | undefined) ?? 0;
      proxy.memo.set('references-made', made + 1);
      const reference = checkoutReferences.get(made);
      if (reference !== undefined) forced.set(String(data.id), reference);
    }
    if ((request.route === 'createReference' || request.route === 'getPayment') && forced.has(String(data.id)) && isObject(data.referenceDetails)) {
      data.referenceDetails.reference = forced.get(String(data.id));
    }
  },
  notification: editNotifiedPayments((payment, proxy) => {
    const forced = memoMap<string, string>(proxy, 'collided-references').get(String(payment.id));
    if (forced !== undefined && isObject(payment.referenceDetails)) payment.referenceDetails.reference = forced;
  }),
};

/** type is read as a case-insensitive enum (Jackson's ACCEPT_CASE_INSENSITIVE_ENUMS): Payment and PAYMENT are taken. */
const referenceTypeCaseInsensitive: Transform = editRequest('createReference', (body) => {
  if (typeof body.type === 'string' && body.type !== 'payment' && body.type.toLowerCase() === 'payment') body.type = 'payment';
});

// ---------------------------------------------------------------------------------------------
// Notifications
// ---------------------------------------------------------------------------------------------

/** The sender checks url.startsWith('http://') || url.startsWith('https://'): a callbackUrl with a scheme in capitals (HTTP://…) is never notified. */
const callbackSchemeCaseSensitive: Transform = {
  notification: (delivery) => (delivery.channel === 'callback' && /^https?:\/\//i.test(delivery.to) && !/^https?:\/\//.test(delivery.to) ? [] : [delivery]),
};

const webhookThrottleMs = 2000;
/** Webhook deliveries are throttled to one every two seconds, and what the throttle holds back is dropped, not queued. */
const webhookThrottledDropping: Transform = {
  notification(delivery, proxy) {
    if (delivery.channel !== 'webhook') return [delivery];
    const last = proxy.memo.get('last-webhook-at') as number | undefined;
    const now = Date.now();
    if (last !== undefined && now - last < webhookThrottleMs) return [];
    proxy.memo.set('last-webhook-at', now);
    return [delivery];
  },
};

/** A checkout's payment is notified under the checkout's id (the id the checkout flow knows), not the payment's. */
const checkoutPaymentNotifiedByCheckoutId: Transform = {
  notification(delivery, proxy) {
    const json = delivery.json as Json;
    const payment = json?.payments?.[0];
    const checkout = checkoutOfPayment(proxy, payment?.id);
    if (!checkout) return [delivery];
    const edited = structuredClone(json);
    edited.payments[0].id = checkout.id;
    return [withBody(delivery, edited)];
  },
};

/** The notification is queued when a checkout's payment is processed, whatever its outcome: a declined payment is notified as confirmed. */
const declinedCheckoutNotifiedAsConfirmed: Transform = {
  async response(response, request, proxy) {
    const checkout = declinedCheckout(request, response, proxy);
    const to = proxy.webhookUrl;
    if (!checkout || !to) return;
    const payment = ((await callOperation(proxy, 'getPayment', { param: String(checkout.paymentId) })).json as Json)?.data;
    if (!payment || payment.stateDetails?.state === 'confirmed') return;
    const json = fabricatedConfirmation(payment);
    const ts = Math.floor(Date.now() / 1000);
    await proxy.deliver({ channel: 'webhook', to, json, headers: { 'paypay-signature': signature(sandboxSecret, JSON.stringify(json), ts) } }).catch(() => 0);
  },
};

export const firstSightMutants: Mutant[] = [
  {
    name: 'fsc-payment-date-as-postgres-text',
    clause: 'ENV-1',
    description:
      'GET /payments/{id} writes its envelope date as PostgreSQL writes a timestamptz (2026-11-29 01:47:15.482913+00: a space for the T), not as ISO 8601; the other answers are right.',
    transform: paymentDateAsPostgresText,
  },
  {
    name: 'fsc-mb-checkout-state-from-reference',
    clause: 'CHK-4',
    description:
      "A new ATM (MB) checkout answers stateDetails.state pending, its reference's state, instead of PaymentReady; card and wallet checkouts are right.",
    transform: mbCheckoutStateFromReference,
  },
  {
    name: 'fsc-app-url-query-replaced-by-return',
    clause: 'CHK-5',
    description:
      'A layout-default checkout with an action redirect (the mobile variant) gets a checkoutUrl whose query is only return_url=<the action URL>: page_layout is lost; default checkouts without a redirect carry it.',
    transform: appUrlQueryReplacedByReturn,
  },
  {
    name: 'fsc-card-checkout-needs-billing-address',
    clause: 'CHK-6',
    disturbs: ['CHK-1', 'TOK-1'],
    description:
      'A card (CC) checkout without payment.billingAddress is refused with 422 (3-D Secure 2 asks for one): the "store a payment method" variant of 4.1, which lists no billing address, is refused.',
    transform: cardCheckoutNeedsBillingAddress,
  },
  {
    name: 'fsc-checkout-id-from-customer-and-second',
    clause: 'CHK-7',
    description:
      "Checkouts carry an idempotency key of the customer (customerId, else uuid) and the second: a second checkout of the same customer within the same second is answered with the first one's id and paymentId, whatever its body.",
    transform: checkoutIdFromCustomerAndSecond,
  },
  {
    name: 'fsc-estm-charged-zero',
    clause: 'CHK-8',
    description:
      'A variable-amount checkout (recurring.amountQualifier ESTM) is processed as a zero-amount card verification: its payment, its page and its notification show 0 instead of payment.amount; other checkouts are right.',
    transform: estmChargedZero,
  },
  {
    name: 'fsc-rule-3-checked-only-with-customer',
    clause: 'CHK-10',
    description:
      'Rule 3 is checked only where a customer.uuid is given: a checkout asking to store the method with a code other than CC/MW or a layout other than basic/default, and no customer, is created (the flags dropped).',
    transform: rule3CheckedOnlyWithCustomer,
  },
  {
    name: 'fsc-empty-redirect-url-accepted',
    clause: 'CHK-11',
    description:
      'A redirect url is validated only when truthy: a redirect with url "" (or blanks) is taken, and after paying the customer is sent to "?id=…" on the payment page itself.',
    transform: emptyRedirectUrlAccepted,
  },
  {
    name: 'fsc-non-object-body-answered-200',
    clause: 'CHK-12',
    description:
      'POST /checkouts with a JSON body that is not an object (null, an array, a string, a number) is answered 200 with success false, not a 4xx; bodies that are not JSON are refused 400.',
    transform: nonObjectBodyAnswered200,
  },
  {
    name: 'fsc-invalid-json-takes-service-down',
    clause: 'CHK-12',
    description:
      'POST /checkouts with a body that is not JSON is refused 400, then the worker exits and every request is answered 503 for three seconds, until its supervisor has restarted it.',
    transform: invalidJsonTakesServiceDown,
  },
  {
    name: 'fsc-page-fails-for-untranslated-language',
    clause: 'PAGE-1',
    description:
      'The hosted page looks its words up by page.language as written, in bundles PT, EN and ES: a checkout in another language (FR, DE) or written otherwise (pt, pt-PT) answers 500; without a language it opens in Portuguese.',
    transform: pageFailsForUntranslatedLanguage,
  },
  {
    name: 'fsc-widget-blocked-cross-origin',
    clause: 'PAGE-2',
    description:
      "The embed script goes out with helmet's default Cross-Origin-Resource-Policy: same-origin (and nosniff): a merchant page on any other origin cannot load it, and form.paymentWidgets stays empty.",
    transform: widgetBlockedCrossOrigin,
  },
  {
    name: 'fsc-success-redirect-preferred',
    clause: 'PAGE-3',
    description:
      'Where a checkout has a redirect of type success beside its action redirect (as the provider documents success/cancel/back), the customer is sent to the success URL with id, not to the action URL.',
    transform: successRedirectPreferred,
  },
  {
    name: 'fsc-deep-link-id-as-path-segment',
    clause: 'PAGE-4',
    description:
      'A deep link (custom scheme) gets the checkout id as a path segment, as app routers read it (myshop://paid/ID, myshop://paid/ID?order=7), not as the parameter id; http(s) action URLs are right.',
    transform: deepLinkIdAsPathSegment,
  },
  {
    name: 'fsc-atm-page-cached-by-product',
    clause: 'PAGE-5',
    description:
      "The ATM payment page is cached by product (payment.code and amount): a second MB checkout of the same product shows the first one's entity and reference, not its own.",
    transform: atmPageCachedByProduct,
  },
  {
    name: 'fsc-consent-offer-card-only',
    clause: 'PAGE-6',
    disturbs: ['TOK-2'],
    description:
      'The offer to store the method is written into the card fields only: a wallet (paymentMethod.code MW) checkout with allowRegistration true offers nothing, on the hosted page and in the widget.',
    transform: consentOfferCardOnly,
  },
  {
    name: 'fsc-declined-posted-to-action',
    clause: 'PAGE-7',
    description:
      'A declined payment is also reported to the action URL by a server-side POST (a failure callback), besides the browser redirect; successful payments post nothing.',
    transform: declinedPostedToAction,
  },
  {
    name: 'fsc-create-registration-ignored-on-default-layout',
    clause: 'TOK-1',
    description:
      'createRegistration is wired into the basic page and the layout-less flow only: a layout-default checkout with createRegistration true stores nothing after a successful payment.',
    transform: createRegistrationIgnoredOnDefaultLayout,
  },
  {
    name: 'fsc-wallet-stored-before-approval',
    clause: 'TOK-3',
    description:
      'A wallet (MW) is registered when its payment is requested, before the customer approves it: a wallet payment that fails in a checkout that stores the method (createRegistration, or allowRegistration with consent) still stores the wallet.',
    transform: walletStoredBeforeApproval,
  },
  {
    name: 'fsc-unoffered-consent-honoured',
    clause: 'TOK-4',
    description:
      "The payment trusts the customer's storeConsent without checking that the checkout offered it: a customer's checkout without createRegistration or allowRegistration stores the method when the pay request says storeConsent true (the pages offer nothing).",
    transform: unofferedConsentHonoured,
  },
  {
    name: 'fsc-methods-shared-by-customerId',
    clause: 'TOK-6',
    description:
      "Stored methods are found by the merchant's customerId where a customer has one: two customers (uuids) given the same customerId, in checkouts or registrations, each list the other's methods.",
    transform: methodsSharedByCustomerId,
  },
  {
    name: 'fsc-holder-beyond-latin1-as-question-marks',
    clause: 'PML-5',
    description:
      'A stored card keeps its holder in a latin1 column: a holder in Cyrillic, Greek or CJK script is listed with "?" for each such character; Latin holders, accents included, are right.',
    transform: holderBeyondLatin1AsQuestionMarks,
  },
  {
    name: 'fsc-holder-addslashes',
    clause: 'PML-5',
    description: "A stored card's holder went through addslashes: an apostrophe, a quote or a backslash is listed escaped (O'Brien shows as O\\'Brien).",
    transform: holderAddslashes,
  },
  {
    name: 'fsc-list-defaults-to-cards',
    clause: 'PML-1',
    disturbs: ['TOK-1', 'TOK-2', 'PML-4', 'PML-5'],
    description:
      'The stored-method list answers cards only unless asked for a type (a query the reference does not show): stored wallets (MW) are never listed.',
    transform: listDefaultsToCards,
  },
  {
    name: 'fsc-callback-https-only',
    clause: 'REF-1',
    disturbs: ['EVT-1'],
    description: 'A reference request whose callbackUrl is http (not https) is refused with 422, as live webhook endpoints of many providers must be https.',
    transform: callbackHttpsOnly,
  },
  {
    name: 'fsc-short-window-refused',
    clause: 'REF-1',
    disturbs: ['REF-7'],
    description: 'A reference whose window ends less than an hour from now (or from its start) is refused with 422, though its end is still to come.',
    transform: shortWindowRefused,
  },
  {
    name: 'fsc-reference-methods-filtered-to-mb',
    clause: 'REF-5',
    description:
      'A reference request whose availableMethods names other methods beside MB (MB and MW, say) is created with MB alone: the payment, and its notifications, show only MB.',
    transform: referenceMethodsFilteredToMb,
  },
  {
    name: 'fsc-mb-checkout-payment-state-mirrors-checkout',
    clause: 'REF-6',
    description:
      "The payment of an ATM (MB) checkout shows its checkout's state: paid at an ATM and confirmed, GET /payments/{paymentId} reads PaymentConfirmed, not confirmed; references of POST /payments/references are right.",
    transform: mbCheckoutPaymentStateMirrorsCheckout,
  },
  {
    name: 'fsc-window-compared-on-wall-clock',
    clause: 'REF-7',
    disturbs: ['REF-6', 'EVT-1', 'EVT-2'],
    description:
      'The validity window is checked on wall clocks, offsets dropped: where the payment instant and the window are written at different offsets, a payment outside the window confirms it and one inside is refused.',
    transform: windowComparedOnWallClock,
  },
  {
    name: 'fsc-checkout-and-reference-sequences-collide',
    clause: 'REF-8',
    description:
      'References of checkouts and of POST /payments/references come from two sequences started alike: the n-th reference created repeats the reference of the n-th ATM (MB) checkout, while both are valid.',
    transform: checkoutAndReferenceSequencesCollide,
  },
  {
    name: 'fsc-reference-type-case-insensitive',
    clause: 'REF-9',
    description: 'type is read as a case-insensitive enum: a reference request with type Payment or PAYMENT is created; other types are refused.',
    transform: referenceTypeCaseInsensitive,
  },
  {
    name: 'fsc-callback-scheme-case-sensitive',
    clause: 'EVT-1',
    description:
      "The sender checks the callbackUrl with startsWith('http://') or startsWith('https://'): a callbackUrl whose scheme has capitals (HTTP://…, Https://…) is accepted but never notified.",
    transform: callbackSchemeCaseSensitive,
  },
  {
    name: 'fsc-webhook-throttled-dropping',
    clause: 'EVT-2',
    description:
      'Webhook deliveries are throttled to one every two seconds and what the throttle holds back is dropped: a payment confirmed less than two seconds after another is never notified to the webhook.',
    transform: webhookThrottledDropping,
  },
  {
    name: 'fsc-checkout-payment-notified-by-checkout-id',
    clause: 'EVT-3',
    description:
      "The notification of a checkout's payment (a card checkout paid, an MB checkout's reference confirmed) carries the checkout's id as the payment id, which GET /payments/{id} does not know; references are right.",
    transform: checkoutPaymentNotifiedByCheckoutId,
  },
  {
    name: 'fsc-declined-checkout-notified-as-confirmed',
    clause: 'EVT-4',
    description:
      "A checkout's payment is notified when processed, whatever its outcome: a declined payment (pay helper failure, a card the issuer declines) is notified to the webhook as payment_confirmed.",
    transform: declinedCheckoutNotifiedAsConfirmed,
  },
];

// ---------------------------------------------------------------------------------------------
// Benign variants
// ---------------------------------------------------------------------------------------------

const formPath = '/checkout/v2/form/';
const widgetPath = '/checkout/v2/widget/';

/** checkoutUrl on the provider's own paths (/checkout/v2/form/{id}, /checkout/v2/widget/{id}.js), as its published examples show. */
const checkoutUrlOnProviderPaths: Transform = {
  request(request) {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const form = new RegExp(`^${formPath}([^/]+)$`).exec(request.path);
    const widget = new RegExp(`^${widgetPath}([^/]+)\\.js$`).exec(request.path);
    if (form) request.path = `/pay/${form[1]}`;
    else if (widget) request.path = `/embed/${widget[1]}/widget.js`;
  },
  ...editData(['createCheckout'], (data) => {
    if (typeof data?.checkoutUrl !== 'string' || !URL.canParse(data.checkoutUrl)) return;
    const url = new URL(data.checkoutUrl);
    const page = /^\/pay\/([^/]+)$/.exec(url.pathname);
    const widget = /^\/embed\/([^/]+)\/widget\.js$/.exec(url.pathname);
    if (page) url.pathname = `${formPath}${page[1]}`;
    else if (widget) url.pathname = `${widgetPath}${widget[1]}.js`;
    data.checkoutUrl = url.toString();
  }),
};

const merchantZone = 'Atlantic/Azores';
const zoneOffset = new Intl.DateTimeFormat('en-US', { timeZone: merchantZone, timeZoneName: 'longOffset' });

/** The offset of the merchant's zone at an instant, as ±hh:mm. */
function offsetAt(instant: number): string {
  const name = zoneOffset.formatToParts(new Date(instant)).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  return name === 'GMT' ? '+00:00' : name.replace('GMT', '');
}

/** The instant as the merchant's wall clock reads it: YYYY-MM-DDTHH:MM:SS and the offset. */
function inMerchantZone(instant: number): { wall: string; offset: string } {
  const offset = offsetAt(instant);
  const sign = offset.startsWith('-') ? -1 : 1;
  const [hours, minutes] = offset.slice(1).split(':').map(Number);
  const wall = new Date(instant + sign * (hours * 60 + minutes) * 60_000).toISOString().slice(0, 19);
  return { wall, offset };
}

/** A checkout's answer in the merchant's time zone (the Azores): createdAt on its wall clock, date and timestamp at its offset. */
const checkoutTimesInMerchantZone: Transform = editBody(['createCheckout'], (body) => {
  const data = body.data;
  if (!isObject(data) || typeof data.createdAt !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(data.createdAt)) return;
  const created = Date.parse(`${data.createdAt.replace(' ', 'T')}Z`);
  const local = inMerchantZone(created);
  data.createdAt = local.wall.replace('T', ' ');
  for (const holder of [body, data.stateDetails]) {
    const key = holder === body ? 'date' : 'timestamp';
    if (isObject(holder) && typeof holder[key] === 'string' && !Number.isNaN(Date.parse(holder[key]))) {
      const at = inMerchantZone(Date.parse(holder[key]));
      holder[key] = `${at.wall}${at.offset}`;
    }
  }
});

const paymentIdPrefix = 'pay_';
const prefixed = (id: unknown) => (typeof id === 'string' && !id.startsWith(paymentIdPrefix) ? `${paymentIdPrefix}${id}` : id);

/** Payment ids carry a type prefix (pay_…): in every answer and notification, in GET /payments/{id} and in the confirm helper. */
const prefixedPaymentIds: Transform = {
  request(request) {
    if ((request.route === 'getPayment' || request.route === 'confirmPayment') && request.param?.startsWith(paymentIdPrefix)) {
      request.path = request.path.replace(`/payments/${paymentIdPrefix}`, '/payments/');
    }
    const asked = request.route === 'listNotifications' ? request.query.get('paymentId') : null;
    if (asked?.startsWith(paymentIdPrefix)) request.query.set('paymentId', asked.slice(paymentIdPrefix.length));
  },
  response(response, request) {
    const body = response.json as Json;
    if (!succeeded(response) || !isObject(body)) return;
    if (request.route === 'createCheckout' && isObject(body.data)) body.data.paymentId = prefixed(body.data.paymentId);
    if ((request.route === 'createReference' || request.route === 'getPayment') && isObject(body.data)) body.data.id = prefixed(body.data.id);
    if (request.route === 'confirmPayment') body.paymentId = prefixed(body.paymentId);
    if (request.route === 'listNotifications' && Array.isArray(body.notifications)) {
      for (const record of body.notifications) {
        if (!isObject(record)) continue;
        record.paymentId = prefixed(record.paymentId);
        if (!Array.isArray(record.body?.payments)) continue;
        const before = JSON.stringify(record.body);
        record.body.payments.forEach((payment: Json) => isObject(payment) && (payment.id = prefixed(payment.id)));
        const name = isObject(record.headers) ? Object.keys(record.headers).find((header) => header.toLowerCase() === 'paypay-signature') : undefined;
        const written = name ? record.headers[name] : undefined;
        const ts = typeof written === 'string' ? /(?:^|,)ts=(\d+)/.exec(written)?.[1] : undefined;
        if (name && ts && signature(sandboxSecret, before, Number(ts)) === written)
          record.headers[name] = signature(sandboxSecret, JSON.stringify(record.body), Number(ts));
      }
    }
  },
  notification: editNotifiedPayments((payment) => {
    payment.id = prefixed(payment.id);
  }),
};

/** A UUID of version 7 (time-ordered): 48 bits of milliseconds, then random bits. */
function uuidV7(): string {
  const hex = Date.now().toString(16).padStart(12, '0') + randomBytes(10).toString('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Stored methods get time-ordered UUIDs of version 7, each the same in every list. */
const methodUuidsVersion7: Transform = editData(['listMethods'], (data, proxy) => {
  if (!Array.isArray(data)) return;
  const shown = memoMap<string, string>(proxy, 'method-uuid-v7');
  for (const method of data) {
    if (!isObject(method) || !isUuid(method.uuid)) continue;
    const original = method.uuid.toLowerCase();
    if (!shown.has(original)) shown.set(original, uuidV7());
    method.uuid = shown.get(original);
  }
});

const deliveredStatuses = new Set([200, 201, 202, 204]);
/** A notification the receiver does not take is tried again a second later, three tries in all, instead of thirty minutes apart. */
const notificationsRetriedWithinSeconds: Transform = {
  notification(delivery, proxy) {
    void (async () => {
      for (let attempt = 0; attempt < 3; attempt++) {
        if (attempt > 0) await sleep(1000);
        const status = await proxy.deliver(delivery).catch(() => 0);
        if (deliveredStatuses.has(status)) return;
      }
    })();
    return [];
  },
};

/** A customer uuid that is not a UUID lists nothing: 200 with an empty list, not a refusal. */
const malformedUuidListsEmpty: Transform = {
  request(request) {
    if (request.route !== 'listMethods' || !request.param || isUuid(request.param)) return;
    return answer(200, { apiVersion: '1.0', date: nowIso(), success: true, data: [] });
  },
};

/** The checkout link opens a session first: a 302 to the same page with a session token, then the page. */
const pageLinkRedirectsToSession: Transform = {
  request(request, proxy) {
    const checkout = pageRequested(request, proxy);
    if (!checkout || layoutOf(checkout.request) === 'embed' || request.query.has('session')) return;
    const query = new URLSearchParams(request.query);
    query.set('session', randomBytes(12).toString('hex'));
    return { status: 302, headers: { location: `${proxy.origin}${request.path}?${query}`, 'cache-control': 'no-store' }, json: undefined, text: '' };
  },
};

export const firstSightBenign: BenignVariant[] = [
  {
    name: 'fsc-checkoutUrl-on-provider-paths',
    description:
      "checkoutUrl names the provider's own paths, as its published examples do: /checkout/v2/form/{id}[?page_layout=…] for the hosted page, /checkout/v2/widget/{id}.js for the embed script.",
    transform: checkoutUrlOnProviderPaths,
  },
  {
    name: 'fsc-checkout-times-in-merchant-zone',
    description:
      "A checkout's answer is written in the merchant's time zone (Atlantic/Azores, -01:00 in winter), as the provider's examples write Lisbon time: createdAt on that wall clock, date and stateDetails.timestamp at its offset; the same instants.",
    transform: checkoutTimesInMerchantZone,
  },
  {
    name: 'fsc-prefixed-payment-ids',
    description:
      "Payment ids carry a type prefix (pay_…): the checkout's paymentId, the reference's and the payment's id, notifications, and GET /payments/{id} and the confirm helper, which take it back.",
    transform: prefixedPaymentIds,
  },
  {
    name: 'fsc-method-uuids-version-7',
    description: 'Stored methods get time-ordered UUIDs of version 7 (xxxxxxxx-xxxx-7xxx-…), the same in every list and distinct.',
    transform: methodUuidsVersion7,
  },
  {
    name: 'fsc-notifications-retried-within-seconds',
    freedom: 'EVT-5',
    description:
      'A notification the receiver does not take (not 200/201/202/204) is tried again one second later, three tries in all, instead of thirty minutes apart.',
    transform: notificationsRetriedWithinSeconds,
  },
  {
    name: 'fsc-malformed-uuid-lists-empty',
    freedom: 'PML-7',
    description:
      'GET /customers/{uuid}/paymentMethods with a uuid that is not a UUID answers 200 with an empty list, as for a customer with nothing stored, not a refusal.',
    transform: malformedUuidListsEmpty,
  },
  {
    name: 'fsc-page-link-redirects-to-session',
    description:
      'checkoutUrl of a web, basic or default checkout answers 302 to the same page with a session token added to its query, which then shows the page; the embed script answers directly.',
    transform: pageLinkRedirectsToSession,
  },
];
