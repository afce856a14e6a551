/**
 * First-sight candidates of 2026-11-28 (second batch): departures and freedoms imagined from the
 * reference alone, each as a transform of the proxy in front of the reference sandbox. Every
 * departure fires on one class of input or state, as the bug it stands for would.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { BenignVariant, Mutant } from '../kinds.ts';
import {
  answerHtml,
  asksToStore,
  checkoutOfPayPath,
  detailsOf,
  editBody,
  editData,
  editRequest,
  editStoredMethods,
  envelopes,
  fabricatedConfirmation,
  first,
  isCustomScheme,
  isUuid,
  layoutOf,
  memoMap,
  nowIso,
  pageRequested,
  paidCheckout,
  refusal,
  rule3Holds,
  succeeded,
  withQuery,
  type Json,
  editNotifiedPayments,
  isObject,
  sandboxSecret,
  withBody,
} from '../edits.ts';
import { callOperation, type ProxyContext, type Transform } from '../proxy.ts';
import { formatAmount } from '../../src/sandbox/html.ts';
import { signature } from '../../src/sandbox/notifications.ts';

/** A UUID (version 5 layout) made from a hash of a text: the same text, the same UUID. */
function uuidFromText(text: string): string {
  const hex = createHash('sha1').update(text).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The reference of a checkout's payment, read from the target. */
async function referenceOfCheckout(proxy: ProxyContext, paymentId: string): Promise<string | undefined> {
  const read = (await callOperation(proxy, 'getPayment', { param: paymentId })).json as Json;
  const reference = read?.data?.referenceDetails?.reference;
  return typeof reference === 'string' ? reference : undefined;
}

/** A 9-digit reference in groups of three, as some pages print it. */
const grouped = (reference: string) => reference.replace(/(\d{3})(?=\d)/g, '$1 ');

/** Replaces a reference in a page, written plainly or in groups of three. */
const replaceReference = (html: string, reference: string, shown: string) => html.split(reference).join(shown).split(grouped(reference)).join(grouped(shown));

// ---------------------------------------------------------------------------------------------
// Envelope
// ---------------------------------------------------------------------------------------------

/** The stored-method list copies the HTTP Date header into its envelope. */
const listDateInHttpFormat: Transform = editBody(['listMethods'], (body) => {
  if (typeof body.date === 'string' && !Number.isNaN(Date.parse(body.date))) body.date = new Date(Date.parse(body.date)).toUTCString();
});

// ---------------------------------------------------------------------------------------------
// Checkouts
// ---------------------------------------------------------------------------------------------

/** createdAt written with Python's str(datetime): microseconds appear whenever they are not zero. */
const createdAtWithMicroseconds: Transform = editData(['createCheckout'], (data) => {
  if (typeof data?.createdAt !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(data.createdAt)) return;
  const microseconds = (Date.now() % 1000) * 1000 + Math.floor(Math.random() * 1000);
  if (microseconds !== 0) data.createdAt = `${data.createdAt}.${String(microseconds).padStart(6, '0')}`;
});

/** The embed script's address is written protocol-relative, as script src values once were. */
const embedCheckoutUrlProtocolRelative: Transform = editData(['createCheckout'], (data, _proxy, request) => {
  if (layoutOf(request.json) === 'embed' && typeof data?.checkoutUrl === 'string') data.checkoutUrl = data.checkoutUrl.replace(/^https?:/i, '');
});

/** Storing checkouts get their address from the tokenization flow's URL builder, which knows no page_layout. */
const storingDefaultUrlWithoutPageLayout: Transform = editData(['createCheckout'], (data, _proxy, request) => {
  if (layoutOf(request.json) !== 'default' || !asksToStore(request.json) || typeof data?.checkoutUrl !== 'string') return;
  data.checkoutUrl = withQuery(data.checkoutUrl, (query) => query.delete('page_layout'));
});

/** page.language is required by the page template: a checkout without one is refused. */
const languageRequired: Transform = {
  request(request) {
    if (request.route !== 'createCheckout' || !isObject(request.json)) return;
    if ((request.json as Json).page?.language !== undefined) return;
    return refusal(422, 'invalid_field', 'page.language: is required', 'page.language');
  },
};

interface CachedCheckout {
  at: number;
  status: number;
  json: Json;
}

/** Checkouts deduplicated by a hash of their body, against double clicks: the same body within 10 s is the same checkout. */
const identicalBodiesDeduplicated: Transform = {
  request(request, proxy) {
    if (request.route !== 'createCheckout' || !isObject(request.json)) return;
    const earlier = memoMap<string, CachedCheckout>(proxy, 'checkout-bodies').get(JSON.stringify(request.json));
    if (!earlier || Date.now() - earlier.at >= 10_000) return;
    return {
      status: earlier.status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      json: { ...structuredClone(earlier.json), date: nowIso() },
      text: '',
    };
  },
  response(response, request, proxy) {
    if (request.route !== 'createCheckout' || !succeeded(response) || !isObject(request.json) || !isObject(response.json)) return;
    memoMap<string, CachedCheckout>(proxy, 'checkout-bodies').set(JSON.stringify(request.json), {
      at: Date.now(),
      status: response.status,
      json: structuredClone(response.json),
    });
  },
};

/** The largest amount a DECIMAL(7,2) column of euros holds, in minor units: 99 999,99 €. */
const decimal72Max = 9_999_999;
const clippedToDecimal72 = (amount: number) => Math.min(Math.max(amount, -decimal72Max), decimal72Max);

/** A checkout's amount is kept in a DECIMAL(7,2) column of euros by a database in non-strict mode, which clips what does not fit. */
const amountClippedToDecimal72: Transform = {
  response(response, request, proxy) {
    const data = (response.json as Json)?.data;
    const asked = memoMap<string, number>(proxy, 'clipped-checkout-payments');
    if (request.route === 'createCheckout' && succeeded(response) && data?.paymentId) {
      const amount = (request.json as Json)?.payment?.amount;
      if (Number.isSafeInteger(amount) && clippedToDecimal72(amount) !== amount) asked.set(String(data.paymentId), amount);
      return;
    }
    if (request.route === 'getPayment' && succeeded(response) && data && asked.has(String(data.id)) && typeof data.amount === 'number') {
      data.amount = clippedToDecimal72(data.amount);
      return;
    }
    const checkout = pageRequested(request, proxy);
    const amount = checkout ? asked.get(String(checkout.paymentId)) : undefined;
    if (amount !== undefined && response.json === undefined) {
      response.text = response.text.split(formatAmount(amount)).join(formatAmount(clippedToDecimal72(amount)));
    }
  },
  notification: editNotifiedPayments((payment, proxy) => {
    if (memoMap<string, number>(proxy, 'clipped-checkout-payments').has(String(payment.id)) && typeof payment.amount === 'number') {
      payment.amount = clippedToDecimal72(payment.amount);
    }
  }),
};

/** billingAddress.postCode is checked against the Portuguese pattern, whatever the country. */
const postCodeCheckedAsPortuguese: Transform = {
  request(request) {
    const postCode = (request.json as Json)?.payment?.billingAddress?.postCode;
    if (request.route !== 'createCheckout' || typeof postCode !== 'string' || /^\d{4}-\d{3}$/.test(postCode)) return;
    return refusal(422, 'invalid_field', 'payment.billingAddress.postCode: must match NNNN-NNN', 'payment.billingAddress.postCode');
  },
};

// ---------------------------------------------------------------------------------------------
// Pages and redirects
// ---------------------------------------------------------------------------------------------

const mobileUserAgent = /Android|iPhone|iPad|iPod|Mobile|\bwv\b/i;

/** The layout for mobile applications is served to mobile browsers only. */
const defaultLayoutDesktopGated: Transform = {
  request(request, proxy) {
    const checkout = pageRequested(request, proxy);
    if (!checkout || layoutOf(checkout.request) !== 'default' || mobileUserAgent.test(request.headers['user-agent'] ?? '')) return;
    return answerHtml(200, '<main><h1>Open this payment in the app</h1><p>This payment page is only available on mobile devices.</p></main>');
  },
};

const waitsForTheDocument = /if \(document\.readyState === 'loading'\) document\.addEventListener\('DOMContentLoaded', render\);\s*else render\(\);/;

/** The embed script renders as soon as it runs, without waiting for the document to be parsed. */
const widgetRunsBeforeDomReady: Transform = {
  response(response, request, proxy) {
    const checkout = pageRequested(request, proxy);
    if (!checkout || layoutOf(checkout.request) !== 'embed' || response.json !== undefined) return;
    response.text = response.text.replace(waitsForTheDocument, 'render();');
  },
};

/** The name of a query parameter as a server reads it. */
function parameterName(part: string): string {
  const name = part.split('=')[0].replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * The action URL's query goes through a dictionary (Python's dict(parse_qsl(query)), then id set)
 * before id is added: parameters without a value are dropped, a repeated one keeps its last value, a
 * merchant's own id is replaced. The parameters that survive are written back as they were.
 */
const actionQueryRebuiltAsDict: Transform = {
  redirect(location, proxy, request) {
    const checkout = paidCheckout(request, proxy);
    if (!checkout || !/^https?:/i.test(location)) return location;
    const hashAt = location.indexOf('#');
    const [base, fragment] = hashAt < 0 ? [location, ''] : [location.slice(0, hashAt), location.slice(hashAt)];
    const queryAt = base.indexOf('?');
    if (queryAt < 0) return location;
    const parts = base.slice(queryAt + 1).split('&');
    const ours = parts.lastIndexOf(`id=${encodeURIComponent(checkout.id)}`);
    if (ours < 0) return location;
    const merchant = parts.filter((part, at) => at !== ours && part !== '');
    const byName = new Map<string, string>();
    for (const part of merchant) {
      const equals = part.indexOf('=');
      const name = parameterName(part);
      // parse_qsl without keep_blank_values drops "flag" and "ref="; set('id') replaces the merchant's id.
      if (equals < 0 || equals === part.length - 1 || name === 'id') continue;
      byName.set(name, part);
    }
    if (byName.size === merchant.length) return location;
    return `${base.slice(0, queryAt)}?${[...byName.values(), parts[ours]].join('&')}${fragment}`;
  },
};

/** The mobile return names the checkout as the app SDK reads it: checkoutId, not id. */
const deepLinkIdNamedCheckoutId: Transform = {
  redirect(location, proxy, request) {
    const checkout = paidCheckout(request, proxy);
    if (!checkout || !isCustomScheme(location)) return location;
    const at = location.lastIndexOf(`id=${encodeURIComponent(checkout.id)}`);
    if (at < 1 || !'?&'.includes(location[at - 1])) return location;
    return `${location.slice(0, at)}checkoutId=${location.slice(at + 3)}`;
  },
};

/** The ATM page's template prints the payment id, padded to 9 digits, where the reference belongs. */
const atmPageShowsPaymentId: Transform = {
  async response(response, request, proxy) {
    const checkout = pageRequested(request, proxy);
    if (!checkout || checkout.request?.payment?.paymentMethod?.code !== 'MB' || response.json !== undefined || response.status !== 200) return;
    const reference = await referenceOfCheckout(proxy, checkout.paymentId);
    const shown = String(checkout.paymentId).padStart(9, '0');
    if (reference && /^\d{9}$/.test(reference) && shown !== reference) response.text = replaceReference(response.text, reference, shown);
  },
};

// ---------------------------------------------------------------------------------------------
// Storing payment methods
// ---------------------------------------------------------------------------------------------

/** The registration flags are tested for presence (isset), not truth. */
const registrationFlagsFalseReadAsSet: Transform = editRequest('createCheckout', (body) => {
  const details = detailsOf(body);
  if (!rule3Holds(body)) return;
  for (const flag of ['createRegistration', 'allowRegistration']) if (details[flag] === false) details[flag] = true;
});

/** The hosted form's consent is read as the string "true": a browser's checkbox posts "on". */
const pageConsentReadAsTrueOnly: Transform = {
  request(request, proxy) {
    if (request.method !== 'POST' || request.json !== undefined || !checkoutOfPayPath(request.path, proxy)) return;
    const form = new URLSearchParams(request.text);
    if (form.get('storeConsent') !== 'on') return;
    form.delete('storeConsent');
    request.text = form.toString();
  },
};

/** Checkouts keep the customer uuid as written; lists look it up in small letters. */
const capitalisedCustomerUuidStoredApart: Transform = editRequest('createCheckout', (body, proxy) => {
  const uuid = body?.payment?.customer?.uuid;
  if (!isUuid(uuid) || !/[A-F]/.test(uuid)) return;
  const spellings = memoMap<string, string>(proxy, 'uuid-as-written');
  if (!spellings.has(uuid)) spellings.set(uuid, randomUUID());
  body.payment.customer.uuid = spellings.get(uuid);
});

// ---------------------------------------------------------------------------------------------
// Stored-method lists
// ---------------------------------------------------------------------------------------------

/** The holder is kept as a track-1 name: 26 characters at most. */
const holderCutTo26: Transform = editStoredMethods((method) => {
  if (method.type !== 'CC' || typeof method.holder !== 'string') return;
  const characters = [...method.holder];
  if (characters.length > 26) method.holder = characters.slice(0, 26).join('');
});

/** The stored method's uuid is a fingerprint of the card or wallet, as a vault derives one. */
const methodUuidFromFingerprint: Transform = editStoredMethods((method) => {
  const { uuid: _uuid, ...details } = method;
  method.uuid = uuidFromText(JSON.stringify(details));
});

// ---------------------------------------------------------------------------------------------
// References
// ---------------------------------------------------------------------------------------------

/** validDate is parsed by a pattern written after the documentation's examples, which all carry ±hh:mm. */
const zValidDateRefused: Transform = {
  request(request) {
    const validDate = (request.json as Json)?.validDate;
    if (request.route !== 'createReference' || !isObject(validDate)) return;
    const key = ['start', 'end'].find((name) => typeof validDate[name] === 'string' && /z$/i.test(validDate[name]));
    if (key) return refusal(422, 'invalid_field', `validDate.${key}: must end in an offset ±hh:mm`, `validDate.${key}`);
  },
};

/** The two check digits at the end of a reference are written without padding. */
const unpaddedCheckDigits = (reference: unknown) =>
  typeof reference === 'string' && /^\d{9}$/.test(reference) && reference[7] === '0' ? `${reference.slice(0, 7)}${reference[8]}` : reference;

const checkDigitsNotPadded: Transform = {
  async response(response, request, proxy) {
    const data = (response.json as Json)?.data;
    if ((request.route === 'createReference' || request.route === 'getPayment') && succeeded(response) && data?.referenceDetails) {
      data.referenceDetails.reference = unpaddedCheckDigits(data.referenceDetails.reference);
      return;
    }
    const checkout = pageRequested(request, proxy);
    if (!checkout || checkout.request?.payment?.paymentMethod?.code !== 'MB' || response.json !== undefined || response.status !== 200) return;
    const reference = await referenceOfCheckout(proxy, checkout.paymentId);
    const shown = unpaddedCheckDigits(reference);
    if (reference && typeof shown === 'string' && shown !== reference) response.text = replaceReference(response.text, reference, shown);
  },
  notification: editNotifiedPayments((payment) => {
    if (payment.referenceDetails) payment.referenceDetails.reference = unpaddedCheckDigits(payment.referenceDetails.reference);
  }),
};

const lisbonDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Lisbon',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  timeZoneName: 'longOffset',
});

/** The end of the Lisbon day an instant falls in, as Multibanco references are displayed. */
function endOfLisbonDay(instant: unknown): unknown {
  if (typeof instant !== 'string' || Number.isNaN(Date.parse(instant))) return instant;
  const parts = Object.fromEntries(lisbonDay.formatToParts(new Date(Date.parse(instant))).map((part) => [part.type, part.value]));
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T23:59:59${offset}`;
}

const shownAsEndOfDay = (payment: Json) => {
  if (isObject(payment?.validDate)) payment.validDate.end = endOfLisbonDay(payment.validDate.end);
};

const validEndShownAsEndOfDay: Transform = {
  ...editData(['createReference', 'getPayment'], shownAsEndOfDay),
  notification: editNotifiedPayments(shownAsEndOfDay),
};

/** GET /payments/{id} is served from a read-through cache of 10 s that nothing invalidates. */
const paymentReadCacheNotInvalidated: Transform = {
  response(response, request, proxy) {
    const body = response.json as Json;
    if (request.route !== 'getPayment' || !request.param || !succeeded(response) || !isObject(body?.data)) return;
    const cache = memoMap<string, { at: number; data: Json }>(proxy, 'payment-reads');
    const cached = cache.get(request.param);
    if (cached && Date.now() - cached.at < 10_000) body.data = structuredClone(cached.data);
    else cache.set(request.param, { at: Date.now(), data: structuredClone(body.data) });
  },
};

/** The window is checked against the moment the bank's confirmation arrives; paidAt is ignored. */
const paidAtIgnored: Transform = editRequest('confirmPayment', (body) => {
  if ('paidAt' in body) delete body.paidAt;
});

interface FirstOfSecond {
  reference: string;
  start: number;
  end: number;
}

/** References computed from the amount and an order number taken from the clock's second. */
const referenceFromAmountAndSecond: Transform = {
  response(response, request, proxy) {
    const data = (response.json as Json)?.data;
    if (!succeeded(response) || !data?.referenceDetails) return;
    const forced = memoMap<string, string>(proxy, 'forced-references');
    if (request.route === 'createReference') {
      const body = request.json as Json;
      const start = Date.parse(body?.validDate?.start);
      const end = Date.parse(body?.validDate?.end);
      const key = `${body?.amount}:${Math.floor(Date.now() / 1000)}`;
      const firsts = memoMap<string, FirstOfSecond>(proxy, 'first-reference-of-second');
      const earlier = firsts.get(key);
      if (!earlier) firsts.set(key, { reference: data.referenceDetails.reference, start, end });
      else if (earlier.start <= end && start <= earlier.end) forced.set(String(data.id), earlier.reference);
    }
    if ((request.route === 'createReference' || request.route === 'getPayment') && forced.has(String(data.id))) {
      data.referenceDetails.reference = forced.get(String(data.id));
    }
  },
  notification: editNotifiedPayments((payment, proxy) => {
    const forced = memoMap<string, string>(proxy, 'forced-references').get(String(payment.id));
    if (forced && payment.referenceDetails) payment.referenceDetails.reference = forced;
  }),
};

// ---------------------------------------------------------------------------------------------
// Notifications
// ---------------------------------------------------------------------------------------------

/** The callbackUrl is rebuilt from scheme, hostname and path: its port is lost. */
const callbackPortDropped: Transform = {
  notification(delivery) {
    if (delivery.channel !== 'callback' || !URL.canParse(delivery.to)) return [delivery];
    const url = new URL(delivery.to);
    if (url.port === '') return [delivery];
    url.port = '';
    return [{ ...delivery, to: url.toString() }];
  },
};

/** The webhook address is read at the first notification and cached. */
const webhookCachedAtFirstUse: Transform = {
  notification(delivery, proxy) {
    if (delivery.channel !== 'webhook') return [delivery];
    const cached = first(proxy, 'first-webhook', delivery.to);
    return cached === delivery.to ? [delivery] : [{ ...delivery, to: cached }];
  },
};

/** The notification's payment id is mapped from the notification's own id. */
const notificationIdIsWebhookId: Transform = {
  notification(delivery) {
    const json = delivery.json as Json;
    const webhookId = json?.webhook?.id;
    const payment = json?.payments?.[0];
    if (webhookId === undefined || !payment || String(payment.id) === String(webhookId)) return [delivery];
    const edited = structuredClone(json);
    edited.payments[0].id = String(webhookId);
    return [withBody(delivery, edited)];
  },
};

/** The notification is queued before the window is checked, and not taken back when the check refuses. */
const refusedConfirmationNotified: Transform = {
  async response(response, request, proxy) {
    if (request.route !== 'confirmPayment' || response.status !== 409 || !request.param) return;
    if ((response.json as Json)?.error?.code !== 'outside_validity') return;
    const payment = ((await callOperation(proxy, 'getPayment', { param: request.param })).json as Json)?.data;
    if (!payment || payment.stateDetails?.state === 'confirmed') return;
    const callbackUrl = proxy.payments.get(request.param)?.callbackUrl ?? null;
    const to = callbackUrl ?? proxy.webhookUrl;
    if (!to) return;
    const json = fabricatedConfirmation(payment);
    const ts = Math.floor(Date.now() / 1000);
    await proxy
      .deliver({ channel: callbackUrl ? 'callback' : 'webhook', to, json, headers: { 'paypay-signature': signature(sandboxSecret, JSON.stringify(json), ts) } })
      .catch(() => 0);
  },
};

export const firstSightMutants: Mutant[] = [
  {
    name: 'fsb-list-date-in-http-format',
    clause: 'ENV-1',
    description:
      'The stored-method list writes its envelope date as the HTTP Date header does (Sat, 28 Nov 2026 23:37:42 GMT), not as an ISO 8601 timestamp; the other answers are right.',
    transform: listDateInHttpFormat,
  },
  {
    name: 'fsb-createdAt-with-microseconds',
    clause: 'CHK-3',
    description: "data.createdAt is written as Python's str(datetime) writes it: with microseconds (2026-11-28 14:16:17.482913) whenever they are not zero.",
    transform: createdAtWithMicroseconds,
  },
  {
    name: 'fsb-embed-checkoutUrl-protocol-relative',
    clause: 'CHK-2',
    disturbs: ['PAGE-2'],
    description:
      'The checkoutUrl of an embed checkout is protocol-relative (//host/embed/…/widget.js), as script src values used to be written, not an absolute URL; other layouts are right.',
    transform: embedCheckoutUrlProtocolRelative,
  },
  {
    name: 'fsb-storing-default-url-without-page_layout',
    clause: 'CHK-5',
    description:
      "A layout-default checkout that stores the method (createRegistration or allowRegistration true) gets its checkoutUrl from the tokenization flow's builder, without page_layout; other default checkouts carry it.",
    transform: storingDefaultUrlWithoutPageLayout,
  },
  {
    name: 'fsb-language-required',
    clause: 'CHK-6',
    disturbs: ['CHK-1'],
    description:
      'A checkout without page.language is refused with 422 (the page template needs one): the consent, embed and mobile variants of 4.1, which list no language, are refused.',
    transform: languageRequired,
  },
  {
    name: 'fsb-identical-bodies-deduplicated',
    clause: 'CHK-7',
    description:
      "Checkouts are deduplicated by a hash of their body against double clicks: a checkout whose body is identical to one created less than 10 s before is answered with the first one's id and paymentId.",
    transform: identicalBodiesDeduplicated,
  },
  {
    name: 'fsb-amount-clipped-to-decimal-7-2',
    clause: 'CHK-8',
    description:
      "A checkout's amount is kept in a DECIMAL(7,2) column of euros by a database in non-strict mode, which clips what does not fit: from 100 000,00 € (10000000) on, the payment, the page and the notification show 99 999,99 €.",
    transform: amountClippedToDecimal72,
  },
  {
    name: 'fsb-postcode-checked-as-portuguese',
    clause: 'CHK-1',
    disturbs: ['CHK-6'],
    description:
      'billingAddress.postCode is validated against the Portuguese pattern NNNN-NNN whatever the country: a checkout with another post code (28013, SW1A 1AA, 1050074) is refused with 422.',
    transform: postCodeCheckedAsPortuguese,
  },
  {
    name: 'fsb-default-layout-desktop-gated',
    clause: 'PAGE-1',
    disturbs: ['PAGE-4'],
    description:
      'The page of a layout-default checkout is served to mobile browsers only: opened with a desktop User-Agent it shows "open this payment in the app" and no payment form.',
    transform: defaultLayoutDesktopGated,
  },
  {
    name: 'fsb-widget-runs-before-dom-ready',
    clause: 'PAGE-2',
    description:
      'The embed script renders as soon as it runs, without waiting for the document: a merchant page that loads the script before its form.paymentWidgets (in head, or above the form) stays empty.',
    transform: widgetRunsBeforeDomReady,
  },
  {
    name: 'fsb-action-query-rebuilt-as-dict',
    clause: 'PAGE-3',
    description:
      "The action URL's query goes through a dictionary (dict(parse_qsl(query)), then id set) before the redirect: a merchant parameter without a value (?preview, ?ref=) is dropped, a repeated one keeps only its last value, and one named id is replaced.",
    transform: actionQueryRebuiltAsDict,
  },
  {
    name: 'fsb-deep-link-id-named-checkoutId',
    clause: 'PAGE-4',
    description:
      'The return to a mobile application (a deep link of a custom scheme) carries the checkout id as checkoutId, the name the app SDK reads, not as id; http(s) action URLs get id.',
    transform: deepLinkIdNamedCheckoutId,
  },
  {
    name: 'fsb-atm-page-shows-payment-id',
    clause: 'PAGE-5',
    description:
      "The ATM payment page prints the payment's id, zero-padded to 9 digits, where the reference belongs (a template field mapped wrong), so the customer cannot read the reference to pay.",
    transform: atmPageShowsPaymentId,
  },
  {
    name: 'fsb-registration-flags-false-read-as-set',
    clause: 'TOK-4',
    disturbs: ['PAGE-6'],
    description:
      'The registration flags are tested for presence (isset), not truth: a checkout that writes createRegistration false stores the method after a successful payment, and one that writes allowRegistration false offers to store it and stores it on consent.',
    transform: registrationFlagsFalseReadAsSet,
  },
  {
    name: 'fsb-page-consent-read-as-true-only',
    clause: 'TOK-2',
    description:
      'The consent checkbox of the hosted form and the widget is read as the string "true": the "on" a browser posts counts as a refusal, so a customer who consents on the page has nothing stored (the pay helper is honoured).',
    transform: pageConsentReadAsTrueOnly,
  },
  {
    name: 'fsb-capitalised-customer-uuid-stored-apart',
    clause: 'TOK-1',
    description:
      'A checkout keeps customer.uuid as written while lists look customers up in small letters: a method stored by a checkout that wrote the uuid in capitals is never listed.',
    transform: capitalisedCustomerUuidStoredApart,
  },
  {
    name: 'fsb-holder-cut-to-26',
    clause: 'PML-5',
    description: 'A stored card keeps its holder as a 26-character track-1 name: a longer holder is listed cut after its 26th character.',
    transform: holderCutTo26,
  },
  {
    name: 'fsb-method-uuid-from-card-fingerprint',
    clause: 'PML-6',
    description:
      "A stored method's uuid is derived from a hash of the card's or wallet's details (a vault fingerprint): the same card stored twice for a customer is listed twice under one uuid.",
    transform: methodUuidFromFingerprint,
  },
  {
    name: 'fsb-z-validdate-refused',
    clause: 'REF-1',
    description:
      "validDate is parsed by a pattern written after the documentation's examples (±hh:mm): a reference whose start or end is written with Z (2030-01-01T10:00:00Z) is refused with 422.",
    transform: zValidDateRefused,
  },
  {
    name: 'fsb-check-digits-not-padded',
    clause: 'REF-2',
    description:
      'The two check digits that end a reference are written without padding: where they are below 10 (one reference in ten) the reference has 8 digits (123456705 shows as 12345675), in answers, notifications and the ATM page.',
    transform: checkDigitsNotPadded,
  },
  {
    name: 'fsb-valid-end-shown-as-end-of-day',
    clause: 'REF-5',
    description:
      'validDate.end is shown as the end of its day in Lisbon (2030-01-01T10:00:00Z is answered 2030-01-01T23:59:59+00:00), as Multibanco references are displayed, though the window ends where it was asked.',
    transform: validEndShownAsEndOfDay,
  },
  {
    name: 'fsb-payment-read-cache-not-invalidated',
    clause: 'REF-6',
    description:
      'GET /payments/{id} is served from a 10-second read-through cache that a confirmation does not invalidate: a payment read just before it is confirmed still reads pending for up to 10 s.',
    transform: paymentReadCacheNotInvalidated,
  },
  {
    name: 'fsb-paidAt-ignored',
    clause: 'REF-7',
    disturbs: ['REF-6'],
    description:
      "The confirmation's paidAt is ignored and the window checked against the moment the confirmation arrives: a payment made after the window's end (or before its start) confirms a reference whose window is open now.",
    transform: paidAtIgnored,
  },
  {
    name: 'fsb-reference-from-amount-and-second',
    clause: 'REF-8',
    description:
      'A reference is computed from the amount and an order number taken from the clock: two references of the same amount created within the same second, valid at the same time, get the same digits.',
    transform: referenceFromAmountAndSecond,
  },
  {
    name: 'fsb-callback-port-dropped',
    clause: 'EVT-1',
    description:
      'The callbackUrl is rebuilt from its scheme, hostname and path, losing its port: a callbackUrl on a port of its own (http://127.0.0.1:8181/hook) is notified on the default port; the webhook is right.',
    transform: callbackPortDropped,
  },
  {
    name: 'fsb-webhook-cached-at-first-use',
    clause: 'EVT-2',
    description:
      'The webhook address is read once, at the first notification, and cached: after the merchant configures another webhook, notifications of references without callbackUrl still go to the first one.',
    transform: webhookCachedAtFirstUse,
  },
  {
    name: 'fsb-notification-id-is-webhook-id',
    clause: 'EVT-3',
    description:
      "The notification's payment carries as id the notification's own id (webhook.id), a field mapped wrong, so the merchant who queries GET /payments/{id} with it reads another payment or none.",
    transform: notificationIdIsWebhookId,
  },
  {
    name: 'fsb-refused-confirmation-notified',
    clause: 'EVT-4',
    description:
      'The "payment confirmed" notification is queued before the validity window is checked and not taken back: a confirmation refused as outside the window (409) still notifies the reference as paid.',
    transform: refusedConfirmationNotified,
  },
];

// ---------------------------------------------------------------------------------------------
// Benign variants
// ---------------------------------------------------------------------------------------------

/** Notifications carry headers of the sender's own. */
const notificationExtraHeaders: Transform = {
  notification(delivery) {
    const json = delivery.json as Json;
    const extra: Record<string, string> = { 'user-agent': 'PayPay-Webhooks/1.0 (+https://paypay.pt)' };
    if (json?.webhook?.action !== undefined) extra['x-paypay-event'] = String(json.webhook.action);
    if (json?.webhook?.id !== undefined) extra['x-paypay-delivery'] = String(json.webhook.id);
    return [{ ...delivery, headers: { ...delivery.headers, ...extra } }];
  },
};

/** An unknown payment or customer is answered by the router's bare 404. */
const unknownIdsBare404: Transform = {
  response(response, request) {
    if ((request.route !== 'getPayment' && request.route !== 'listMethods') || response.status < 400 || response.status > 499) return;
    response.status = 404;
    response.headers = { 'content-type': 'text/plain; charset=utf-8' };
    response.json = undefined;
    response.text = '404 page not found\n';
  },
};

/** webhook.id is a UUID (the same on every try of one notification). */
const webhookIdUuid: Transform = {
  notification(delivery) {
    const json = delivery.json as Json;
    if (json?.webhook?.id === undefined || isUuid(json.webhook.id)) return [delivery];
    const edited = structuredClone(json);
    edited.webhook.id = uuidFromText(`webhook:${json.webhook.id}`);
    return [withBody(delivery, edited)];
  },
};

/** availableMethods[].type as the provider's published examples show it: NORMAL for MB, DEFAULT for the others. */
const methodTypesAsPublished = (payment: Json) => {
  if (!Array.isArray(payment?.availableMethods)) return;
  for (const method of payment.availableMethods)
    if (isObject(method) && typeof method.code === 'string') method.type = method.code === 'MB' ? 'NORMAL' : 'DEFAULT';
};
const availableMethodsTypeNormal: Transform = {
  ...editData(['createReference', 'getPayment'], methodTypesAsPublished),
  notification: editNotifiedPayments(methodTypesAsPublished),
};

/** The envelope's date and a new checkout's state timestamp are written in UTC with Z and milliseconds. */
const datesInZWithMillis: Transform = editBody(envelopes, (body, _proxy, request) => {
  if (typeof body.date === 'string') body.date = new Date().toISOString();
  const timestamp = body.data?.stateDetails?.timestamp;
  if (request.route === 'createCheckout' && typeof timestamp === 'string' && !Number.isNaN(Date.parse(timestamp))) {
    body.data.stateDetails.timestamp = new Date(Date.parse(timestamp)).toISOString();
  }
});

/** The hosted form answers a payment with 302 Found, not 303 See Other. */
const redirect302: Transform = {
  response(response, request) {
    if (request.method === 'POST' && request.route === 'other' && response.status === 303 && response.headers.location) response.status = 302;
  },
};

/** Hosted pages forbid being framed by other sites. */
const pagesDenyFraming: Transform = {
  response(response, request, proxy) {
    const checkout = pageRequested(request, proxy);
    if (!checkout || layoutOf(checkout.request) === 'embed' || response.json !== undefined) return;
    response.headers['x-frame-options'] = 'DENY';
    response.headers['content-security-policy'] = "frame-ancestors 'none'";
  },
};

export const firstSightBenign: BenignVariant[] = [
  {
    name: 'fsb-notification-extra-headers',
    freedom: 'EVT-5',
    description:
      'Notifications carry headers of their own beside the signature: a User-Agent of the sender, X-PayPay-Event (the action) and X-PayPay-Delivery (webhook.id).',
    transform: notificationExtraHeaders,
  },
  {
    name: 'fsb-unknown-ids-bare-404',
    freedom: 'REF-10',
    description:
      'An unknown payment id, and a customer uuid the list refuses, are answered by the router\'s bare 404 (text/plain "404 page not found"), not a JSON error body.',
    transform: unknownIdsBare404,
  },
  {
    name: 'fsb-webhook-id-uuid',
    freedom: 'EVT-5',
    description: "A notification's webhook.id is a UUID (the same on every try of one notification), not a number written as a string.",
    transform: webhookIdUuid,
  },
  {
    name: 'fsb-availableMethods-type-as-published',
    description:
      "availableMethods[].type of payments is NORMAL for MB and DEFAULT for the other methods, as the provider's published examples show, not the reference's seen REALTIME.",
    transform: availableMethodsTypeNormal,
  },
  {
    name: 'fsb-dates-in-z-with-millis',
    description:
      "The envelope's date, and a new checkout's stateDetails.timestamp, are written in UTC with Z and milliseconds (2026-11-28T23:37:42.123Z), as JavaScript's toISOString writes them.",
    transform: datesInZWithMillis,
  },
  {
    name: 'fsb-redirect-302',
    description: 'After a payment on the hosted page, the browser is sent to the action URL with 302 Found instead of 303 See Other.',
    transform: redirect302,
  },
  {
    name: 'fsb-pages-deny-framing',
    description:
      "The full hosted pages (web, basic, default) forbid being framed by other sites (X-Frame-Options: DENY, frame-ancestors 'none'); the embed script is unaffected.",
    transform: pagesDenyFraming,
  },
];
