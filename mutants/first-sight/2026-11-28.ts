/**
 * First-sight candidates of 2026-11-28: departures and freedoms imagined from the reference alone,
 * each as a transform of the proxy in front of the reference sandbox.
 */
import type { BenignVariant, Mutant } from '../kinds.ts';
import {
  answer,
  answerHtml,
  asksToStore,
  checkoutOfPayPath,
  combine,
  detailsOf,
  editAtmPage,
  editData,
  editRequest,
  isCustomScheme,
  memoSet,
  nowIso,
  paidCheckout,
  paymentOfDelivery,
  refusal,
  rule3Holds,
  setDetail,
  succeeded,
  type Json,
} from '../edits.ts';
import { callOperation, type Delivery, type ProxyContext, type ProxyRequest, type Transform } from '../proxy.ts';
import { uuidPattern } from '../../src/core/operations.ts';

/** The checkout whose embed script (/embed/{id}/widget.js) a path names. */
function checkoutOfWidgetPath(path: string, proxy: ProxyContext) {
  const match = /^\/embed\/([^/]+)\/widget\.js$/.exec(path);
  return match ? proxy.checkouts.get(decodeURIComponent(match[1])) : undefined;
}

/** Applies `edit` to every payment a notification carries. */
const editNotifiedPayments =
  (edit: (payment: Json, proxy: ProxyContext) => void) =>
  (delivery: Delivery, proxy: ProxyContext): Delivery[] => {
    const payments = (delivery.json as Json)?.payments;
    if (!Array.isArray(payments)) return [delivery];
    const json = structuredClone(delivery.json as Json);
    json.payments.forEach((payment: Json) => payment && edit(payment, proxy));
    return [{ ...delivery, json }];
  };

// ---------------------------------------------------------------------------------------------
// Tokenization
// ---------------------------------------------------------------------------------------------

/** allowRegistration, once present, decides alone whether the method is stored. */
const allowFlagOverridesCreate: Transform = editRequest('createCheckout', (body) => {
  const details = detailsOf(body);
  if (details.createRegistration === true && typeof details.allowRegistration === 'boolean' && rule3Holds(body)) details.createRegistration = false;
});

/** An explicit createRegistration false is read as the customer's refusal, whatever the customer answers the offer. */
const explicitCreateFalseVetoesConsent: Transform = {
  request(request, proxy) {
    const checkout = paidCheckout(request, proxy);
    const details = detailsOf(checkout?.request);
    if (!checkout || details.createRegistration !== false || details.allowRegistration !== true) return;
    if (request.route === 'payCheckout' && request.json && typeof request.json === 'object') {
      (request.json as Json).storeConsent = false;
    } else if (request.route === 'other' && request.json === undefined) {
      const form = new URLSearchParams(request.text);
      form.delete('storeConsent');
      request.text = form.toString();
    }
  },
};

/** A customer with a stored method is taken as one who stores every method. */
const storingCustomerStoresAlways: Transform = {
  async request(request, proxy) {
    const body = request.json as Json;
    if (request.route !== 'createCheckout' || !body || typeof body !== 'object') return;
    const uuid = body.payment?.customer?.uuid;
    if (typeof uuid !== 'string' || !uuidPattern.test(uuid) || asksToStore(body) || !rule3Holds(body)) return;
    const listed = (await callOperation(proxy, 'listMethods', { param: uuid.toLowerCase() })).json as Json;
    if (Array.isArray(listed?.data) && listed.data.length > 0) setDetail(body, 'createRegistration', true);
  },
};

// ---------------------------------------------------------------------------------------------
// Stored-method lists
// ---------------------------------------------------------------------------------------------

/** Cards are listed once per last four digits: the one that expires last stands for the others. */
const cardsDeduplicatedByLast4: Transform = editData(['listMethods'], (data) => {
  if (!Array.isArray(data)) return;
  const expiry = (method: Json) => `${method.expireYear}${method.expireMonth}`;
  const best = new Map<string, Json>();
  for (const method of data) {
    if (method?.type !== 'CC') continue;
    const kept = best.get(method.last4Digitis);
    if (!kept || expiry(method) > expiry(kept)) best.set(method.last4Digitis, method);
  }
  const seen = new Set<string>();
  const listed = data.flatMap((method: Json) => {
    if (method?.type !== 'CC') return [method];
    if (seen.has(method.last4Digitis)) return [];
    seen.add(method.last4Digitis);
    return [best.get(method.last4Digitis)];
  });
  data.splice(0, data.length, ...listed);
});

/** The list is looked up by the uuid exactly as written: capitals find nobody. */
const upperCaseUuidListsNothing: Transform = {
  request(request) {
    if (request.route !== 'listMethods' || !request.param || !uuidPattern.test(request.param) || !/[A-F]/.test(request.param)) return;
    return answer(200, { apiVersion: '1.0', date: nowIso(), success: true, data: [] });
  },
};

// ---------------------------------------------------------------------------------------------
// Checkouts
// ---------------------------------------------------------------------------------------------

/** The amount goes through euros as a float and back to cents truncated: 820 becomes 819. */
const amountThroughFloatEuros: Transform = editRequest('createCheckout', (body) => {
  const amount = body?.payment?.amount;
  if (Number.isSafeInteger(amount)) body.payment.amount = Math.trunc((amount / 100) * 100);
});

/** checkoutUrl's query is set once per parameter, the language's last: page_layout is lost where a language is given. */
const pageLayoutLostWithLanguage: Transform = editData(['createCheckout'], (data, _proxy, request) => {
  const page = (request.json as Json)?.page;
  if (page?.layout !== 'default' || typeof page.language !== 'string' || typeof data?.checkoutUrl !== 'string') return;
  const url = new URL(data.checkoutUrl);
  url.search = `?language=${encodeURIComponent(page.language)}`;
  data.checkoutUrl = url.toString();
});

/** customer.uuid is read by a lenient UUID parser (Python's uuid.UUID): braces, urn:uuid: and missing dashes are taken. */
const lenientUuidParser: Transform = editRequest('createCheckout', (body) => {
  const uuid = body?.payment?.customer?.uuid;
  if (typeof uuid !== 'string' || uuidPattern.test(uuid)) return;
  const hex = uuid
    .trim()
    .replace(/^urn:uuid:/i, '')
    .replace(/^\{(.*)\}$/, '$1')
    .replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) return;
  const h = hex.toLowerCase();
  body.payment.customer.uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
});

/** Rule 3 is checked where createRegistration asks to store, not where allowRegistration does. */
const consentCheckoutSkipsRule3: Transform = editRequest('createCheckout', (body) => {
  const details = detailsOf(body);
  if (details.allowRegistration === true && details.createRegistration !== true && !rule3Holds(body)) delete details.allowRegistration;
});

/** Redirect URLs are validated as web addresses (java.net.URL, an http/https pattern): a deep link is refused. */
const deepLinkRefused: Transform = {
  request(request) {
    const redirects = (request.json as Json)?.redirects;
    if (request.route !== 'createCheckout' || !Array.isArray(redirects)) return;
    const at = redirects.findIndex((redirect: Json) => typeof redirect?.url === 'string' && isCustomScheme(redirect.url));
    if (at >= 0) return refusal(422, 'invalid_field', `redirects[${at}].url: must be a valid http or https URL`, `redirects.${at}.url`);
  },
};

// ---------------------------------------------------------------------------------------------
// Pages and redirects
// ---------------------------------------------------------------------------------------------

/** The checkout id a redirect was made for, and where its id parameter stands in the address. */
function idParameter(location: string, request: ProxyRequest, proxy: ProxyContext) {
  const checkout = paidCheckout(request, proxy);
  if (!checkout) return null;
  const marker = `id=${encodeURIComponent(checkout.id)}`;
  const at = location.lastIndexOf(marker);
  return at < 0 ? null : { id: checkout.id, marker, at };
}

/** A deep link is given id by string concatenation: one with a query of its own gets a second "?". */
const deepLinkQueryDoubled: Transform = {
  redirect(location, proxy, request) {
    const found = idParameter(location, request, proxy);
    if (!found || !isCustomScheme(location) || location[found.at - 1] !== '&') return location;
    return `${location.slice(0, found.at - 1)}?${location.slice(found.at)}`;
  },
};

/** The action URL is normalised to lower case before id is appended. */
const actionUrlLowerCased: Transform = {
  redirect(location, proxy, request) {
    const found = idParameter(location, request, proxy);
    if (!found) return location;
    const end = found.at + found.marker.length;
    return `${location.slice(0, found.at).toLowerCase()}${found.marker}${location.slice(end).toLowerCase()}`;
  },
};

/** The hosted page dereferences payment.summary: a checkout without one fails to render. */
const pageCrashesWithoutSummary: Transform = {
  request(request, proxy) {
    if (request.method !== 'GET' || request.route !== 'other') return;
    const checkout = checkoutOfPayPath(request.path, proxy);
    if (!checkout || checkout.request?.payment?.summary !== undefined) return;
    return answerHtml(500, "<h1>Internal Server Error</h1><p>TypeError: Cannot read properties of undefined (reading 'trim')</p>");
  },
};

/** The hosted page is a one-time link: from its second opening on it says the checkout was processed. */
const pageConsumedOnFirstView: Transform = {
  request(request, proxy) {
    if (request.method !== 'GET' || request.route !== 'other') return;
    const checkout = checkoutOfPayPath(request.path, proxy);
    if (!checkout) return;
    const viewed = memoSet<string>(proxy, 'viewed-pages');
    if (!viewed.has(checkout.id)) {
      viewed.add(checkout.id);
      return;
    }
    return answerHtml(200, '<main><h1>Payment</h1><p>This checkout has already been processed.</p></main>');
  },
};

const consentOffer =
  '<label class="sbx-consent"><input type="checkbox" name="storeConsent" value="on" data-testid="store-consent"> Save this payment method for future purchases</label>\n';

/** The offer to store is shown where the checkout stores at all (createRegistration), not only where allowRegistration asks for it. */
const consentOfferedForCreateRegistration: Transform = {
  response(response, request, proxy) {
    if (request.method !== 'GET' || request.route !== 'other' || response.json !== undefined || response.status !== 200) return;
    const page = checkoutOfPayPath(request.path, proxy);
    const widget = checkoutOfWidgetPath(request.path, proxy);
    const details = detailsOf((page ?? widget)?.request);
    if (details.createRegistration !== true || details.allowRegistration === true) return;
    if (page) response.text = response.text.replace('<button type="submit"', `${consentOffer}<button type="submit"`);
    else response.text = response.text.replace('<button type=\\"submit\\"', `${JSON.stringify(consentOffer).slice(1, -1)}<button type=\\"submit\\"`);
  },
};

/** The widget looks for its form by the whole class attribute: a form.paymentWidgets with another class stays empty. */
const widgetNeedsSoleClass: Transform = {
  response(response, request, proxy) {
    if (request.method !== 'GET' || !checkoutOfWidgetPath(request.path, proxy)) return;
    response.text = response.text.replace("document.querySelector('form.paymentWidgets')", 'document.querySelector(\'form[class="paymentWidgets"]\')');
  },
};

/** The ATM page prints the reference as a number: leading zeros are lost there (the API keeps them). */
const atmPageReferenceAsNumber: Transform = editAtmPage((html) =>
  html.replace(/((?:data-testid="atm-reference"|id="referencia")>)([^<]*)</, (whole, open: string, value: string) => {
    const digits = value.replace(/\D/g, '');
    return digits.startsWith('0') ? `${open}${String(Number(digits))}<` : whole;
  }),
);

// ---------------------------------------------------------------------------------------------
// References
// ---------------------------------------------------------------------------------------------

/** validDate written with Z is parsed as a naive time (the Z stripped, as for Python's fromisoformat before 3.11) and echoed so. */
function dropZ(payment: Json, proxy: ProxyContext) {
  const written = proxy.payments.get(payment?.id)?.request?.validDate;
  for (const key of ['start', 'end']) {
    if (typeof written?.[key] === 'string' && /z$/i.test(written[key]) && typeof payment?.validDate?.[key] === 'string') {
      payment.validDate[key] = payment.validDate[key].replace(/z$/i, '');
    }
  }
}
const zDesignatorDropped: Transform = combine(
  editData(['createReference', 'getPayment'], (data, proxy) => dropZ(data, proxy)),
  {
    notification: editNotifiedPayments(dropZ),
  },
);

/** updatedAt is the instant the bank says it was paid, not the instant the record changed. */
function updatedAtFromPaidAt(payment: Json) {
  if (payment?.stateDetails?.state === 'confirmed' && typeof payment.stateDetails.createdAt === 'string') payment.updatedAt = payment.stateDetails.createdAt;
}
const updatedAtFromPaidAtTransform: Transform = combine(
  editData(['createReference', 'getPayment'], (data) => updatedAtFromPaidAt(data)),
  { notification: editNotifiedPayments(updatedAtFromPaidAt) },
);

/** Only the end of the validity window is checked: a payment before its start confirms the reference. */
const windowStartNotChecked: Transform = {
  request(request, proxy) {
    if (request.route !== 'confirmPayment' || !request.param) return;
    const window = proxy.payments.get(request.param)?.request?.validDate;
    if (typeof window?.start !== 'string' || typeof window?.end !== 'string') return;
    const body = request.json && typeof request.json === 'object' ? (request.json as Json) : {};
    const paidAt = typeof body.paidAt === 'string' ? Date.parse(body.paidAt) : Date.now();
    const start = Date.parse(window.start);
    if (!(paidAt < start) || start > Date.parse(window.end)) return;
    body.paidAt = window.start;
    request.json = body;
    request.headers['content-type'] = 'application/json';
  },
};

/** The amount is checked with `amount < 0`: a reference of 0 is created. */
const zeroAmountReferenceAccepted: Transform = {
  request(request, proxy) {
    const body = request.json as Json;
    if (request.route !== 'createReference' || body?.amount !== 0) return;
    body.amount = 1;
    memoSet<ProxyRequest>(proxy, 'zero-requests').add(request);
  },
  response(response, request, proxy) {
    const data = (response.json as Json)?.data;
    if (!succeeded(response) || !data) return;
    const zero = memoSet<string>(proxy, 'zero-payments');
    if (request.route === 'createReference' && memoSet<ProxyRequest>(proxy, 'zero-requests').has(request)) zero.add(data.id);
    if ((request.route === 'createReference' || request.route === 'getPayment') && zero.has(data.id)) data.amount = 0;
  },
  notification: editNotifiedPayments((payment, proxy) => {
    if (memoSet<string>(proxy, 'zero-payments').has(payment.id)) payment.amount = 0;
  }),
};

/** validDate.start is validated as "not in the past" (a minute's grace): a window that has already begun is refused. */
const pastStartRefused: Transform = {
  request(request) {
    const start = (request.json as Json)?.validDate?.start;
    if (request.route !== 'createReference' || typeof start !== 'string' || !(Date.parse(start) < Date.now() - 60_000)) return;
    return refusal(422, 'invalid_field', 'validDate.start: must not be in the past', 'validDate.start');
  },
};

// ---------------------------------------------------------------------------------------------
// Notifications
// ---------------------------------------------------------------------------------------------

/** Only references of POST /payments/references are notified: the reference of a checkout (MB) paid at an ATM is not. */
const checkoutReferencesNotNotified: Transform = {
  notification(delivery, proxy) {
    const id = paymentOfDelivery(delivery.json);
    return [...proxy.checkouts.values()].some((checkout) => checkout.paymentId === id) ? [] : [delivery];
  },
};

/** The notification is built from the last reference created, not from the one paid. */
const notificationDescribesNewestReference: Transform = {
  response(response, request, proxy) {
    const data = (response.json as Json)?.data;
    if (request.route === 'createReference' && succeeded(response) && data?.id) proxy.memo.set('newest-reference', structuredClone(data));
  },
  notification(delivery, proxy) {
    const newest = proxy.memo.get('newest-reference') as Json;
    const paid = (delivery.json as Json)?.payments?.[0];
    if (!newest || !paid || newest.id === paid.id || !proxy.payments.has(paid.id)) return [delivery];
    const shown = { ...structuredClone(newest), stateDetails: { ...paid.stateDetails }, updatedAt: paid.updatedAt };
    return [{ ...delivery, json: { ...(delivery.json as Json), payments: [shown] } }];
  },
};

/** callbackUrl is kept in a 255-character column: a longer one is notified at its first 255 characters. */
const longCallbackUrlTruncated: Transform = {
  notification: (delivery) => (delivery.channel === 'callback' && delivery.to.length > 255 ? [{ ...delivery, to: delivery.to.slice(0, 255) }] : [delivery]),
};

export const firstSightMutants: Mutant[] = [
  {
    name: 'fs-allow-flag-overrides-create-registration',
    clause: 'TOK-1',
    description:
      'Where a checkout has createRegistration true and also an allowRegistration (true or false), allowRegistration decides alone: with false nothing is stored, with true only when the customer consents.',
    transform: allowFlagOverridesCreate,
  },
  {
    name: 'fs-create-registration-false-vetoes-consent',
    clause: 'TOK-2',
    description:
      'A checkout with allowRegistration true and createRegistration written explicitly false offers to store the method but never stores it, even when the customer consents.',
    transform: explicitCreateFalseVetoesConsent,
  },
  {
    name: 'fs-storing-customer-stores-always',
    clause: 'TOK-4',
    description:
      'Once a customer has a stored method, every later card or wallet checkout of theirs (layout basic, default or none) stores the method, without createRegistration or allowRegistration.',
    transform: storingCustomerStoresAlways,
  },
  {
    name: 'fs-cards-deduplicated-by-last4',
    clause: 'PML-1',
    disturbs: ['TOK-1', 'PML-5'],
    description:
      'Stored cards sharing their last four digits are listed once, as the one that expires last: two different cards ending in the same digits show as one element.',
    transform: cardsDeduplicatedByLast4,
  },
  {
    name: 'fs-upper-case-uuid-lists-nothing',
    clause: 'PML-1',
    disturbs: ['TOK-1'],
    description: 'GET /customers/{uuid}/paymentMethods with the customer UUID written in capitals answers an empty list, whatever the customer stored.',
    transform: upperCaseUuidListsNothing,
  },
  {
    name: 'fs-amount-through-float-euros',
    clause: 'CHK-8',
    description:
      'A checkout amount is turned into euros as a float and back into cents truncated: amounts such as 29, 820 or 1999 are charged one cent less (28, 819, 1998); most amounts are right.',
    transform: amountThroughFloatEuros,
  },
  {
    name: 'fs-page-layout-lost-with-language',
    clause: 'CHK-5',
    description: 'A layout-default checkout that also gives page.language gets a checkoutUrl whose query holds only language, without page_layout.',
    transform: pageLayoutLostWithLanguage,
  },
  {
    name: 'fs-lenient-uuid-parser',
    clause: 'CHK-11',
    description:
      'customer.uuid is read by a lenient parser: a UUID in braces, with a urn:uuid: prefix or without its dashes is taken (normalised) instead of refused.',
    transform: lenientUuidParser,
  },
  {
    name: 'fs-consent-checkout-skips-rule-3',
    clause: 'CHK-10',
    description:
      'Rule 3 is checked only for createRegistration: a checkout with allowRegistration true and a method code other than CC/MW or a layout other than basic/default is created.',
    transform: consentCheckoutSkipsRule3,
  },
  {
    name: 'fs-deep-link-refused',
    clause: 'CHK-6',
    disturbs: ['PAGE-4', 'CHK-1'],
    description: 'A checkout whose redirect url has a custom scheme (a deep link such as myshop://paid) is refused with 422 as not an http(s) URL.',
    transform: deepLinkRefused,
  },
  {
    name: 'fs-deep-link-query-doubled',
    clause: 'PAGE-4',
    description:
      'A deep link that has a query of its own (myshop://paid?order=7) gets id after a second question mark (myshop://paid?order=7?id=…); http(s) URLs are right.',
    transform: deepLinkQueryDoubled,
  },
  {
    name: 'fs-action-url-lower-cased',
    clause: 'PAGE-3',
    description: 'The action URL is lower-cased before id is appended: capitals in its path or query (/Orders/Done?ref=AB12) are lost.',
    transform: actionUrlLowerCased,
  },
  {
    name: 'fs-page-crashes-without-summary',
    clause: 'PAGE-1',
    disturbs: ['PAGE-4', 'PAGE-5'],
    description: 'The hosted page (/pay) of a checkout created without payment.summary answers 500; checkouts with a summary open.',
    transform: pageCrashesWithoutSummary,
  },
  {
    name: 'fs-page-consumed-on-first-view',
    clause: 'PAGE-1',
    description:
      'checkoutUrl is a one-time link: opened a second time, the hosted page shows "already processed" and no payment form, though nothing was paid.',
    transform: pageConsumedOnFirstView,
  },
  {
    name: 'fs-consent-offered-for-create-registration',
    clause: 'PAGE-6',
    description:
      'A checkout with createRegistration true and no allowRegistration also shows the offer to store the method, on the hosted page and in the widget.',
    transform: consentOfferedForCreateRegistration,
  },
  {
    name: 'fs-widget-needs-sole-class',
    clause: 'PAGE-2',
    description:
      'The embed script looks for form[class="paymentWidgets"]: a merchant form with paymentWidgets among other classes stays empty; a form with that class alone is filled.',
    transform: widgetNeedsSoleClass,
  },
  {
    name: 'fs-atm-page-reference-as-number',
    clause: 'PAGE-5',
    description: 'The ATM payment page prints a reference that starts with 0 without its leading zeros (fewer than 9 digits); the API keeps them.',
    transform: atmPageReferenceAsNumber,
  },
  {
    name: 'fs-z-designator-dropped',
    clause: 'REF-4',
    disturbs: ['REF-5'],
    description:
      'A validDate instant written with Z (2030-01-01T10:00:00Z) is answered without it, a time with no offset; instants written with ±hh:mm are kept.',
    transform: zDesignatorDropped,
  },
  {
    name: 'fs-updatedAt-from-paidAt',
    clause: 'REF-6',
    description:
      'A confirmed payment shows as updatedAt the instant it was paid: confirmed with a paidAt before the payment was created (inside a window that began earlier), updatedAt is before createdAt.',
    transform: updatedAtFromPaidAtTransform,
  },
  {
    name: 'fs-window-start-not-checked',
    clause: 'REF-7',
    disturbs: ['EVT-4'],
    description: 'Only the end of the validity window is checked: a reference paid before validDate.start is confirmed; a payment after the end is refused.',
    transform: windowStartNotChecked,
  },
  {
    name: 'fs-zero-amount-reference-accepted',
    clause: 'REF-9',
    description: 'A reference request of amount 0 is created (the amount is checked not to be negative); negative amounts are still refused.',
    transform: zeroAmountReferenceAccepted,
  },
  {
    name: 'fs-past-start-refused',
    clause: 'REF-1',
    description: 'A reference whose validDate.start is more than a minute in the past is refused with 422, though its end is still to come.',
    transform: pastStartRefused,
  },
  {
    name: 'fs-checkout-references-not-notified',
    clause: 'EVT-2',
    description:
      "The reference of a checkout (an MB checkout's, paid at an ATM and confirmed) is never notified to the webhook; references of POST /payments/references are.",
    transform: checkoutReferencesNotNotified,
  },
  {
    name: 'fs-notification-describes-newest-reference',
    clause: 'EVT-3',
    disturbs: ['EVT-4'],
    description:
      'The notification of a paid reference carries the id and reference of the last reference created, where another was created after the one paid.',
    transform: notificationDescribesNewestReference,
  },
  {
    name: 'fs-long-callback-url-truncated',
    clause: 'EVT-1',
    description: 'A callbackUrl longer than 255 characters is kept cut to 255: its notification goes to that truncated address.',
    transform: longCallbackUrlTruncated,
  },
];

// ---------------------------------------------------------------------------------------------
// Benign variants
// ---------------------------------------------------------------------------------------------

/** Inserts a parameter after the query of an address (before its fragment), keeping the rest as written. */
function withParameterAppended(location: string, parameter: string): string {
  const hashAt = location.indexOf('#');
  const [base, fragment] = hashAt < 0 ? [location, ''] : [location.slice(0, hashAt), location.slice(hashAt)];
  return `${base}${base.includes('?') ? '&' : '?'}${parameter}${fragment}`;
}

/** The redirect also carries resourcePath, as OPPWA-style services send it. */
const redirectWithResourcePath: Transform = {
  redirect(location, proxy, request) {
    const checkout = paidCheckout(request, proxy);
    if (!checkout || !location.includes(`id=${encodeURIComponent(checkout.id)}`)) return location;
    return withParameterAppended(location, `resourcePath=${encodeURIComponent(`/checkouts/${checkout.id}/payment`)}`);
  },
};

/** checkoutUrl carries a locale parameter of its own, beside page_layout where there is one. */
const checkoutUrlWithLocale: Transform = editData(['createCheckout'], (data, _proxy, request) => {
  if (typeof data?.checkoutUrl !== 'string') return;
  const language = (request.json as Json)?.page?.language;
  const url = new URL(data.checkoutUrl);
  url.searchParams.append('locale', typeof language === 'string' ? language.toLowerCase() : 'pt');
  data.checkoutUrl = url.toString();
});

const otherEntity = '21098';
function withOtherEntity(payment: Json) {
  if (payment?.referenceDetails && typeof payment.referenceDetails.entity === 'string') payment.referenceDetails.entity = otherEntity;
}
/** Another entity number, the same on the payment, the ATM page and the notifications. */
const anotherEntity: Transform = combine(
  editData(['createReference', 'getPayment'], (data) => withOtherEntity(data)),
  editAtmPage((html) => html.replace(/((?:data-testid="atm-entity"|id="entidade")>)[^<]*</, `$1${otherEntity}<`)),
  { notification: editNotifiedPayments(withOtherEntity) },
);

const checkoutIdPrefix = 'chk_';
/** Checkout ids carry a type prefix (chk_…), in answers, in the pay helper's path and in the redirect's id. */
const prefixedCheckoutIds: Transform = {
  request(request) {
    if (request.route === 'payCheckout' && request.param?.startsWith(checkoutIdPrefix)) {
      request.path = request.path.replace(`/checkouts/${checkoutIdPrefix}`, '/checkouts/');
    }
  },
  response(response, request) {
    const body = response.json as Json;
    if (!succeeded(response) || !body) return;
    if (request.route === 'createCheckout' && typeof body.data?.id === 'string') body.data.id = `${checkoutIdPrefix}${body.data.id}`;
    if (request.route === 'payCheckout' && typeof body.checkoutId === 'string') body.checkoutId = `${checkoutIdPrefix}${body.checkoutId}`;
  },
  redirect(location, proxy, request) {
    const checkout = paidCheckout(request, proxy);
    if (!checkout) return location;
    const marker = `id=${encodeURIComponent(checkout.id)}`;
    const at = location.lastIndexOf(marker);
    return at < 0 ? location : `${location.slice(0, at)}id=${checkoutIdPrefix}${location.slice(at + 3)}`;
  },
};

export const firstSightBenign: BenignVariant[] = [
  {
    name: 'fs-redirect-with-resourcePath',
    description: 'The redirect after payment carries, after id, a resourcePath parameter naming the payment (/checkouts/{id}/payment); its own query is kept.',
    transform: redirectWithResourcePath,
  },
  {
    name: 'fs-checkoutUrl-with-locale',
    description: 'checkoutUrl carries a locale parameter (the page language in small letters, pt by default), beside page_layout where there is one.',
    transform: checkoutUrlWithLocale,
  },
  {
    name: 'fs-another-entity',
    description: 'References have the entity 21098 (the reference shows no value), the same on the payment, the ATM page and the notifications.',
    transform: anotherEntity,
  },
  {
    name: 'fs-prefixed-checkout-ids',
    description: 'Checkout ids carry a type prefix (chk_…): in the answer, in the pay helper, and as the id of the redirect.',
    transform: prefixedCheckoutIds,
  },
];
