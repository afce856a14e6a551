/**
 * The mutants (faulty targets, each departing from the reference in one way tied to one clause)
 * and the benign variants (departures the reference allows, which the suite must pass). Each is
 * a Transform of the proxy in front of the reference sandbox.
 */
import { randomUUID } from 'node:crypto';
import {
  answer,
  answeredPayment,
  answerHtml,
  answerWhen,
  atPlusOneHour,
  combine,
  consentAlwaysOnPage,
  eachObject,
  escapeAttribute,
  editBody,
  editData,
  editNotifications,
  editRequest,
  editStoredMethods,
  isIsoWithOffset,
  isUuid,
  layoutOf,
  listsOthersMethods,
  mapStrings,
  nextDigits,
  pageRequested,
  takeAsSuccess,
  uuidsInText,
  withoutOffset,
  type Json,
} from './edits.ts';
import { apiRoutes, type ProxyContext, type ProxyRequest, type Route, type Transform } from './proxy.ts';
import type { BenignVariant, Mutant } from './kinds.ts';
import { redirectWithId } from '../src/sandbox/payments.ts';
import * as classCandidates from './classes-candidates.ts';
import * as freedoms from './freedoms-candidates.ts';
import * as modelCandidates from './model-candidates.ts';

const envelopes: Route[] = ['createCheckout', 'listMethods', 'createReference', 'getPayment'];
const payments: Route[] = ['createReference', 'getPayment'];

const amountOf = (request: ProxyRequest): number => Number((request.json as Json)?.payment?.amount ?? (request.json as Json)?.amount);
const detailsOf = (body: Json): Json => body?.payment?.paymentMethod?.details ?? {};
const asksToStore = (body: Json): boolean => detailsOf(body).createRegistration === true || detailsOf(body).allowRegistration === true;
const setDetail = (body: Json, name: string, value: unknown) => {
  const method = (body.payment ??= {}).paymentMethod ??= {};
  (method.details ??= {})[name] = value;
};

/** A stored-method edit that spells a field otherwise. */
const renamed = (from: string, to: string) => (method: Json) => {
  if (!(from in method)) return;
  method[to] = method[from];
  delete method[from];
};

/** Edits the HTML of the ATM payment page (the hosted page of an MB checkout). */
function editAtmPage(edit: (html: string) => string): Transform {
  return {
    response(response, request, proxy) {
      const checkout = pageRequested(request, proxy);
      if (checkout?.request?.payment?.paymentMethod?.code === 'MB' && response.json === undefined) response.text = edit(response.text);
    },
  };
}

function withQuery(url: string, edit: (query: URLSearchParams) => void): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  edit(parsed.searchParams);
  return parsed.toString();
}

/** The first value a mutant saw under a key, for mutants that repeat it. */
function first<T>(proxy: ProxyContext, key: string, value: T): T {
  if (!proxy.memo.has(key)) proxy.memo.set(key, value);
  return proxy.memo.get(key) as T;
}

function fabricatedConfirmation(payment: Json) {
  const now = new Date().toISOString();
  return {
    webhook: { id: randomUUID(), action: 'payment_confirmed', createdAt: now },
    payments: [{ ...payment, stateDetails: { state: 'confirmed', createdAt: now }, updatedAt: now }],
  };
}

const envelopeMutants: Mutant[] = [
  {
    name: 'envelope-date-without-offset',
    clause: 'ENV-1',
    description: 'The envelope `date` carries no UTC offset.',
    transform: editBody(envelopes, (body) => typeof body.date === 'string' && (body.date = withoutOffset(body.date))),
  },
  {
    name: 'envelope-success-as-string',
    clause: 'ENV-1',
    description: '`success` is the string "true", not a boolean.',
    transform: editBody(envelopes, (body) => 'success' in body && (body.success = 'true')),
  },
  {
    name: 'checkout-without-apiVersion',
    clause: 'ENV-2',
    description: 'POST /checkouts answers without `apiVersion`.',
    transform: editBody(['createCheckout'], (body) => delete body.apiVersion),
  },
  {
    name: 'methods-list-without-apiVersion',
    clause: 'ENV-2',
    description: 'The stored-method list answers without `apiVersion`.',
    transform: editBody(['listMethods'], (body) => delete body.apiVersion),
  },
  {
    name: 'paths-only-under-v1',
    clause: 'ENV-4',
    disturbs: ['CHK-1', 'REF-1', 'REF-3', 'PML-1'],
    description: 'The four paths answer only under a `/v1` segment; without it, 404.',
    transform: {
      request(request) {
        if (apiRoutes.has(request.route)) return answer(404, { success: false, error: 'use /v1' });
        if (request.path.startsWith('/v1/')) request.path = request.path.slice(3);
      },
    },
  },
];

const checkoutMutants: Mutant[] = [
  {
    name: 'checkout-data-in-array',
    clause: 'CHK-1',
    description: 'POST /checkouts answers `data` as a one-element array instead of the checkout object.',
    transform: editBody(['createCheckout'], (body) => (body.data = [body.data])),
  },
  {
    name: 'checkout-empty-paymentId',
    clause: 'CHK-2',
    description: '`data.paymentId` is an empty string.',
    transform: editData(['createCheckout'], (data) => (data.paymentId = '')),
  },
  {
    name: 'checkout-createdAt-with-T',
    clause: 'CHK-3',
    description: '`data.createdAt` is written `YYYY-MM-DDTHH:MM:SS`.',
    transform: editData(['createCheckout'], (data) => typeof data.createdAt === 'string' && (data.createdAt = data.createdAt.replace(' ', 'T'))),
  },
  {
    name: 'checkout-state-renamed',
    clause: 'CHK-4',
    description: 'A new checkout is in state `Created` instead of `PaymentReady`.',
    transform: editData(['createCheckout'], (data) => data.stateDetails && (data.stateDetails.state = 'Created')),
  },
  {
    name: 'checkout-state-timestamp-without-offset',
    clause: 'CHK-4',
    description: '`stateDetails.timestamp` carries no offset.',
    transform: editData(['createCheckout'], (data) => typeof data.stateDetails?.timestamp === 'string' && (data.stateDetails.timestamp = withoutOffset(data.stateDetails.timestamp))),
  },
  {
    name: 'default-layout-without-page_layout',
    clause: 'CHK-5',
    description: '`checkoutUrl` of a layout-default checkout lacks the `page_layout` parameter.',
    transform: editData(['createCheckout'], (data) => typeof data.checkoutUrl === 'string' && (data.checkoutUrl = withQuery(data.checkoutUrl, (query) => query.delete('page_layout')))),
  },
  {
    name: 'store-variant-without-layout-refused',
    clause: 'CHK-6',
    disturbs: ['CHK-1'],
    description: 'A checkout without `page.layout` (the "store a payment method" variant) is refused with 400.',
    transform: answerWhen((request) => request.route === 'createCheckout' && (request.json as Json)?.page?.layout === undefined, 400),
  },
  {
    name: 'checkout-ids-repeated',
    clause: 'CHK-7',
    description: 'Every checkout is answered with the `id` and `paymentId` of the first one.',
    transform: editData(['createCheckout'], (data, proxy) => {
      data.id = first(proxy, 'id', data.id);
      data.paymentId = first(proxy, 'paymentId', data.paymentId);
    }),
  },
  {
    name: 'checkout-amount-in-major-units',
    clause: 'CHK-8',
    description: 'The service reads `payment.amount` as major units: 500 is charged as 500,00.',
    transform: editRequest('createCheckout', (body) => Number.isInteger(body.payment?.amount) && (body.payment.amount *= 100)),
  },
  {
    name: 'embed-without-action-accepted',
    clause: 'CHK-9',
    description: 'Rule 1 broken and accepted: an embed checkout without an `action` redirect is created.',
    transform: editRequest('createCheckout', (body) => {
      const hasAction = Array.isArray(body.redirects) && body.redirects.some((redirect: Json) => redirect?.type === 'action');
      if (layoutOf(body) === 'embed' && !hasAction) body.redirects = [...(Array.isArray(body.redirects) ? body.redirects : []), { type: 'action', url: 'https://merchant.example/added-by-mutant' }];
    }),
  },
  {
    name: 'registration-rule-3-ignored',
    clause: 'CHK-10',
    description: 'Rule 3 broken and accepted: storing with a method other than CC/MW or a layout other than basic/default is created.',
    transform: editRequest('createCheckout', (body) => {
      if (!asksToStore(body)) return;
      const method = body.payment?.paymentMethod;
      if (method && !['CC', 'MW'].includes(method.code)) method.code = 'CC';
      if (layoutOf(body) !== undefined && !['basic', 'default'].includes(layoutOf(body) as string)) body.page.layout = 'basic';
    }),
  },
  {
    name: 'broken-field-types-accepted',
    clause: 'CHK-11',
    description: 'Fields of the wrong type or format are silently repaired and the checkout created.',
    transform: editRequest('createCheckout', (body) => {
      const payment = body.payment ?? {};
      const customer = payment.customer ?? {};
      if ('amount' in payment && !Number.isInteger(payment.amount)) payment.amount = 500;
      if ('uuid' in customer && !isUuid(customer.uuid)) customer.uuid = randomUUID();
      if ('phoneNumber' in customer && !/^\+?[0-9]{1,4}#[0-9]{1,20}$/.test(customer.phoneNumber)) customer.phoneNumber = '351#912345678';
      if ('email' in customer && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(customer.email)) customer.email = 'customer@example.com';
      if (payment.billingAddress && 'country' in payment.billingAddress && !/^[A-Za-z]{2}$/.test(payment.billingAddress.country)) payment.billingAddress.country = 'PT';
      for (const redirect of Array.isArray(body.redirects) ? body.redirects : []) {
        if (redirect && (typeof redirect.url !== 'string' || !URL.canParse(redirect.url))) redirect.url = 'https://merchant.example/done';
      }
    }),
  },
  {
    name: 'non-object-body-crashes',
    clause: 'CHK-12',
    description: 'POST /checkouts with a body that is not a JSON object answers 500.',
    transform: answerWhen((request) => request.route === 'createCheckout' && (request.json === null || typeof request.json !== 'object' || Array.isArray(request.json)), 500),
  },
];

const pageMutants: Mutant[] = [
  {
    name: 'hosted-page-fails',
    clause: 'PAGE-1',
    description: 'The hosted page of a web/basic/default checkout answers 500.',
    transform: {
      request(request, proxy) {
        const checkout = pageRequested(request, proxy);
        if (checkout && layoutOf(checkout.request) !== 'embed') return { status: 500, headers: { 'content-type': 'text/html' }, json: undefined, text: '<h1>Internal Server Error</h1>' };
      },
    },
  },
  {
    name: 'embed-script-empty',
    clause: 'PAGE-2',
    description: 'The embed script at checkoutUrl renders nothing.',
    transform: {
      request(request, proxy) {
        const checkout = pageRequested(request, proxy);
        if (checkout && layoutOf(checkout.request) === 'embed') return { status: 200, headers: { 'content-type': 'application/javascript' }, json: undefined, text: '/* widget unavailable */' };
      },
    },
  },
  {
    name: 'redirect-without-id',
    clause: 'PAGE-3',
    description: 'After payment the customer is sent to the action URL without `id`.',
    transform: { redirect: (url) => withQuery(url, (query) => query.delete('id')) },
  },
  {
    name: 'redirect-loses-query',
    clause: 'PAGE-3',
    description: 'After payment the action URL keeps `id` but loses its own query parameters.',
    transform: { redirect: (url) => withQuery(url, (query) => [...query.keys()].filter((name) => name !== 'id').forEach((name) => query.delete(name))) },
  },
  {
    name: 'deep-link-mangled',
    clause: 'PAGE-4',
    description: 'A deep link (custom scheme) loses one slash of its `://`.',
    transform: { redirect: (url) => (/^https?:/i.test(url) ? url : url.replace('://', ':/')) },
  },
  {
    name: 'atm-page-reference-cut',
    clause: 'PAGE-5',
    description: 'The ATM payment page shows the reference without its last digit.',
    transform: editAtmPage((html) => html.replace(/(?<![0-9])([0-9]{3}\s?[0-9]{3}\s?[0-9]{2})[0-9](?![0-9])/g, '$1')),
  },
  {
    name: 'consent-never-offered',
    clause: 'PAGE-6',
    description: '`allowRegistration` is ignored: the page never offers to store the method.',
    transform: editRequest('createCheckout', (body) => delete detailsOf(body).allowRegistration),
  },
  {
    name: 'posts-to-action-url',
    clause: 'PAGE-7',
    description: 'Besides redirecting the browser, the service POSTs to the action URL.',
    transform: {
      redirect(url, proxy) {
        if (/^https?:/i.test(url)) proxy.postInBackground(url, { id: URL.canParse(url) ? new URL(url).searchParams.get('id') : null, state: 'paid' });
        return url;
      },
    },
  },
  {
    name: 'widget-renders-into-first-form',
    clause: 'PAGE-2',
    description: 'The embed script fills the first form of the merchant page, not `form.paymentWidgets`.',
    transform: {
      response(response, request, proxy) {
        if (pageRequested(request, proxy) && response.json === undefined) response.text = response.text.replaceAll("querySelector('form.paymentWidgets')", "querySelector('form')");
      },
    },
  },
  {
    name: 'redirect-id-after-fragment',
    clause: 'PAGE-3',
    description: 'The service appends `?id=`/`&id=` to the end of the action URL, after its fragment, where it is no query parameter.',
    transform: {
      redirect(url) {
        if (!URL.canParse(url)) return url;
        const parsed = new URL(url);
        const id = parsed.searchParams.get('id');
        parsed.searchParams.delete('id');
        const naive = parsed.toString();
        return `${naive}${naive.includes('?') ? '&' : '?'}id=${id}`;
      },
    },
  },
  {
    name: 'redirect-by-link-only',
    clause: 'PAGE-3',
    description: 'After paying, the hosted page shows a link back to the shop instead of sending the browser there.',
    transform: answeredPayment((location) => answerHtml(200, `<p>Payment done.</p><p><a href="${escapeAttribute(location)}">Back to the shop</a></p>`)),
  },
  {
    name: 'redirect-made-server-side',
    clause: 'PAGE-3',
    description: 'After paying, the service itself requests the action URL and shows the customer a page of its own.',
    transform: answeredPayment(async (location) => {
      if (/^https?:/i.test(location)) await fetch(location).then((answer) => answer.arrayBuffer()).catch(() => undefined);
      return answerHtml(200, '<p>Payment done. You may close this page.</p>');
    }),
  },
  {
    name: 'dotted-scheme-deep-link-without-id',
    clause: 'PAGE-4',
    description: 'A deep link whose scheme has dots (com.shop.app://) is not recognised as one: the webview is sent there without `id`.',
    transform: { redirect: (url) => (/^[a-z0-9+-]+\.[a-z0-9.+-]*:/i.test(url) ? withQuery(url, (query) => query.delete('id')) : url) },
  },
  {
    name: 'atm-page-other-entity',
    clause: 'PAGE-5',
    description: 'The ATM payment page shows another entity than the payment has.',
    transform: editAtmPage((html) => html.replace(/(data-testid="atm-entity">)([0-9]+)/, (_match, before: string, entity: string) => `${before}${nextDigits(entity)}`)),
  },
  {
    name: 'consent-offered-on-basic-only',
    clause: 'PAGE-6',
    description: 'With layout `default`, `allowRegistration` is ignored: only basic pages offer to store the method.',
    transform: editRequest('createCheckout', (body) => layoutOf(body) === 'default' && delete detailsOf(body).allowRegistration),
  },
];

const tokenizationMutants: Mutant[] = [
  {
    name: 'create-registration-ignored',
    clause: 'TOK-1',
    description: '`createRegistration` is ignored: nothing is stored.',
    transform: editRequest('createCheckout', (body) => delete detailsOf(body).createRegistration),
  },
  {
    name: 'stores-without-consent',
    clause: 'TOK-2',
    description: 'The method is stored even when the customer declines the offer (pay helper and hosted form alike).',
    transform: combine(editRequest('payCheckout', (body) => (body.storeConsent = true)), consentAlwaysOnPage),
  },
  {
    name: 'stores-on-declined-payment',
    clause: 'TOK-3',
    description: 'A declined payment (outcome failure, or a card the issuer declines) in a checkout that stores methods is taken as a success.',
    transform: editRequest('payCheckout', (body, proxy, request) => {
      const checkout = request.param ? proxy.checkouts.get(request.param) : undefined;
      if (!checkout || !asksToStore(checkout.request)) return;
      takeAsSuccess(body);
    }),
  },
  {
    name: 'stores-always',
    clause: 'TOK-4',
    description: 'Every card or wallet checkout of a registered customer stores the method.',
    transform: editRequest('createCheckout', (body) => {
      const storable = ['CC', 'MW'].includes(body.payment?.paymentMethod?.code) && [undefined, 'basic', 'default'].includes(layoutOf(body) as string);
      if (typeof body.payment?.customer?.uuid === 'string' && storable && !asksToStore(body)) setDetail(body, 'createRegistration', true);
    }),
  },
  {
    name: 'stores-atm-method',
    clause: 'TOK-5',
    description: 'A customer who had an ATM (MB) checkout finds an `MB` method in the list.',
    transform: combine(
      editRequest('createCheckout', (body, proxy) => {
        if (body.payment?.paymentMethod?.code === 'MB' && typeof body.payment?.customer?.uuid === 'string') proxy.memo.set(`mb:${body.payment.customer.uuid}`, true);
      }),
      editData(['listMethods'], (data, proxy, request) => {
        if (Array.isArray(data) && proxy.memo.has(`mb:${request.param}`)) data.push({ type: 'MB', uuid: randomUUID() });
      }),
    ),
  },
  {
    name: 'methods-leak-across-customers',
    clause: 'TOK-6',
    description: "A customer's list also holds every other known customer's methods.",
    transform: listsOthersMethods(() => true),
  },
  {
    name: 'create-registration-ignored-for-wallets',
    clause: 'TOK-1',
    description: '`createRegistration` stores cards only: a mobile wallet paid in such a checkout is not stored.',
    transform: editRequest('createCheckout', (body) => body.payment?.paymentMethod?.code === 'MW' && delete detailsOf(body).createRegistration),
  },
  {
    name: 'wallet-stored-without-consent',
    clause: 'TOK-2',
    description: 'A mobile wallet is stored even where the customer declined the offer.',
    transform: editRequest('payCheckout', (body) => body.method === 'MW' && body.storeConsent === false && (body.storeConsent = true)),
  },
  {
    name: 'methods-shared-by-card',
    clause: 'TOK-6',
    // The model judges whole lists: the other customer's method is an element nobody stored here (PML-1).
    disturbs: ['PML-1'],
    description: "A customer's list also holds the methods other customers stored with a card or wallet this customer paid with.",
    transform: {
      request(request, proxy) {
        const customer = request.route === 'payCheckout' && request.param ? proxy.checkouts.get(request.param)?.request?.payment?.customer?.uuid : undefined;
        const paid = (request.json as Json)?.card?.number ?? (request.json as Json)?.wallet?.number;
        if (typeof customer === 'string' && typeof paid === 'string') proxy.memo.set(`paid:${customer}:${paid.slice(-3)}`, true);
      },
      response: listsOthersMethods((method, customer, proxy) => proxy.memo.has(`paid:${customer}:${String(method?.last4Digitis ?? method?.last3Digitis ?? '').slice(-3)}`)).response,
    },
  },
];

const storedMethodMutants: Mutant[] = [
  {
    name: 'methods-list-always-empty',
    clause: 'PML-1',
    description: 'The list is always empty, whatever is stored.',
    transform: editData(['listMethods'], (data) => Array.isArray(data) && data.splice(0)),
  },
  {
    name: 'stored-method-uuid-not-a-uuid',
    clause: 'PML-2',
    description: 'A stored method\'s `uuid` is written without dashes.',
    transform: editStoredMethods((method) => typeof method.uuid === 'string' && (method.uuid = method.uuid.replace(/-/g, ''))),
  },
  {
    name: 'last4Digits-spelled-correctly',
    clause: 'PML-3',
    description: 'A card carries `last4Digits`, not the reference\'s `last4Digitis`.',
    transform: editStoredMethods(renamed('last4Digitis', 'last4Digits')),
  },
  {
    name: 'expire-month-one-digit',
    clause: 'PML-3',
    description: '`expireMonth` `07` is written `7`.',
    transform: editStoredMethods((method) => typeof method.expireMonth === 'string' && (method.expireMonth = method.expireMonth.replace(/^0/, ''))),
  },
  {
    name: 'last3Digits-spelled-correctly',
    clause: 'PML-4',
    description: 'A wallet carries `last3Digits`, not the reference\'s `last3Digitis`.',
    transform: editStoredMethods(renamed('last3Digitis', 'last3Digits')),
  },
  {
    name: 'stored-last-digits-wrong',
    clause: 'PML-5',
    description: 'A stored card shows other last four digits than the card paid with.',
    transform: editStoredMethods((method) => typeof method.last4Digitis === 'string' && (method.last4Digitis = nextDigits(method.last4Digitis))),
  },
  {
    name: 'stored-methods-share-uuid',
    clause: 'PML-6',
    description: 'Every stored method of a list has the `uuid` of the first.',
    transform: editData(['listMethods'], (data) => Array.isArray(data) && data.forEach((method) => method && (method.uuid = data[0].uuid))),
  },
  {
    name: 'methods-list-first-page-only',
    clause: 'PML-1',
    description: 'The list shows the first ten stored methods only, with no sign of more.',
    transform: editData(['listMethods'], (data) => Array.isArray(data) && data.splice(10)),
  },
  {
    name: 'wallet-country-code-fixed',
    clause: 'PML-5',
    description: 'Every stored wallet shows the country code 351, whatever the wallet paid with.',
    transform: editStoredMethods((method) => method.type === 'MW' && (method.countryCode = '351')),
  },
];

const referenceOf = (data: Json): Json => data?.referenceDetails ?? {};

const referenceMutants: Mutant[] = [
  {
    name: 'reference-without-callback-refused',
    clause: 'REF-1',
    description: 'A reference request without `callbackUrl` is refused with 400.',
    transform: answerWhen((request) => request.route === 'createReference' && (request.json as Json)?.callbackUrl === undefined, 400),
  },
  {
    name: 'reference-as-number',
    clause: 'REF-2',
    description: 'The reference is a JSON number.',
    transform: editData(payments, (data) => typeof referenceOf(data).reference === 'string' && (data.referenceDetails.reference = Number(data.referenceDetails.reference))),
  },
  {
    name: 'reference-leading-zeros-dropped',
    clause: 'REF-2',
    description: 'A reference starting with zeros loses them.',
    transform: editData(payments, (data) => typeof referenceOf(data).reference === 'string' && (data.referenceDetails.reference = data.referenceDetails.reference.replace(/^0+/, ''))),
  },
  {
    name: 'reference-ten-digits',
    clause: 'REF-2',
    description: 'The reference has 10 digits.',
    transform: editData(payments, (data) => typeof referenceOf(data).reference === 'string' && (data.referenceDetails.reference += '0')),
  },
  {
    name: 'payment-method-without-name',
    clause: 'REF-3',
    description: '`availableMethods[]` of the payment lack `name`.',
    transform: editData(['getPayment'], (data) => Array.isArray(data.availableMethods) && data.availableMethods.forEach((method: Json) => delete method.name)),
  },
  {
    name: 'payment-timestamps-without-offset',
    clause: 'REF-4',
    description: '`createdAt` and `updatedAt` of the payment carry no offset.',
    transform: editData(['getPayment'], (data) => {
      for (const field of ['createdAt', 'updatedAt']) if (typeof data[field] === 'string') data[field] = withoutOffset(data[field]);
    }),
  },
  {
    name: 'payment-amount-in-major-units',
    clause: 'REF-5',
    description: 'The payment shows its amount in major units (500 → 5).',
    transform: editData(payments, (data) => typeof data.amount === 'number' && (data.amount /= 100)),
  },
  {
    name: 'confirmed-state-renamed',
    clause: 'REF-6',
    description: 'A confirmed payment is in state `paid` instead of `confirmed`.',
    transform: editData(payments, (data) => data.stateDetails?.state === 'confirmed' && (data.stateDetails.state = 'paid')),
  },
  {
    name: 'confirmation-outside-window-accepted',
    clause: 'REF-7',
    disturbs: ['EVT-4'],
    description: 'A payment outside the validity window confirms the reference (paidAt moved inside).',
    transform: editRequest('confirmPayment', (body, proxy, request) => {
      const validDate = request.param ? proxy.payments.get(request.param)?.request?.validDate : undefined;
      const [start, end] = [Date.parse(validDate?.start), Date.parse(validDate?.end)];
      const paidAt = typeof body.paidAt === 'string' ? Date.parse(body.paidAt) : Date.now();
      if (!Number.isNaN(start) && !Number.isNaN(end) && (paidAt < start || paidAt > end)) body.paidAt = new Date((start + end) / 2).toISOString();
    }),
  },
  {
    name: 'reference-repeated',
    clause: 'REF-8',
    description: 'Every reference gets the reference number of the first one.',
    transform: editData(payments, (data, proxy) => typeof referenceOf(data).reference === 'string' && (data.referenceDetails.reference = first(proxy, 'reference', data.referenceDetails.reference))),
  },
  {
    name: 'reference-end-before-start-accepted',
    clause: 'REF-9',
    description: 'A reference whose `validDate.end` is before its start is created (the dates swapped).',
    transform: editRequest('createReference', (body) => {
      const validDate = body.validDate;
      if (validDate && Date.parse(validDate.end) < Date.parse(validDate.start)) [validDate.start, validDate.end] = [validDate.end, validDate.start];
    }),
  },
  {
    name: 'reference-refusals-crash',
    clause: 'REF-9',
    description: 'A refused reference request answers 500 instead of 4xx.',
    transform: {
      response(response, request) {
        if (request.route === 'createReference' && response.status >= 400 && response.status < 500) response.status = 500;
      },
    },
  },
  {
    name: 'confirmed-reference-as-number',
    clause: 'REF-2',
    description: 'Once confirmed, the payment carries its reference as a number, leading zeros lost.',
    transform: editData(['getPayment'], (data) => data.stateDetails?.state === 'confirmed' && typeof referenceOf(data).reference === 'string' && (data.referenceDetails.reference = Number(data.referenceDetails.reference))),
  },
  {
    name: 'confirmed-timestamps-without-offset',
    clause: 'REF-4',
    description: 'Once confirmed, `updatedAt` and `stateDetails.createdAt` carry no offset.',
    transform: editData(['getPayment'], (data) => {
      if (data.stateDetails?.state !== 'confirmed') return;
      if (typeof data.updatedAt === 'string') data.updatedAt = withoutOffset(data.updatedAt);
      if (typeof data.stateDetails.createdAt === 'string') data.stateDetails.createdAt = withoutOffset(data.stateDetails.createdAt);
    }),
  },
  {
    name: 'window-checked-to-the-minute',
    clause: 'REF-7',
    // REF-7's closed window is paid a second after it closed: the mutant confirms it, and notifies (EVT-4).
    disturbs: ['EVT-4'],
    description: 'The validity window is checked to the minute: a payment less than a minute outside it confirms the reference.',
    transform: editRequest('confirmPayment', (body, proxy, request) => {
      const validDate = request.param ? proxy.payments.get(request.param)?.request?.validDate : undefined;
      const [start, end] = [Date.parse(validDate?.start), Date.parse(validDate?.end)];
      const paidAt = typeof body.paidAt === 'string' ? Date.parse(body.paidAt) : Date.now();
      if (paidAt < start && start - paidAt < 60_000) body.paidAt = new Date(start).toISOString();
      if (paidAt > end && paidAt - end < 60_000) body.paidAt = new Date(end).toISOString();
    }),
  },
  {
    name: 'references-recycled-after-100',
    clause: 'REF-8',
    description: 'References come from a pool of 100: the 101st reference valid at once repeats the first.',
    transform: editData(payments, (data, proxy) => {
      if (typeof referenceOf(data).reference !== 'string') return;
      const order = [...proxy.payments.keys()].indexOf(data.id);
      if (order < 0) return;
      if (order < 100) proxy.memo.set(`reference:${order}`, data.referenceDetails.reference);
      else data.referenceDetails.reference = proxy.memo.get(`reference:${order % 100}`) ?? data.referenceDetails.reference;
    }),
  },
];

const notificationMutants: Mutant[] = [
  {
    name: 'callback-notification-dropped',
    clause: 'EVT-1',
    description: 'No notification reaches `callbackUrl`.',
    transform: editNotifications((delivery) => (delivery.channel === 'callback' ? [] : [delivery])),
  },
  {
    name: 'callback-notification-sent-to-webhook',
    clause: 'EVT-1',
    description: 'Notifications meant for `callbackUrl` go to the webhook instead.',
    transform: editNotifications((delivery, proxy) => (delivery.channel !== 'callback' ? [delivery] : proxy.webhookUrl ? [{ ...delivery, to: proxy.webhookUrl }] : [])),
  },
  {
    name: 'webhook-notification-sent-to-callback',
    clause: 'EVT-2',
    description: 'Notifications meant for the webhook go to the last callbackUrl instead (or nowhere).',
    transform: editNotifications((delivery, proxy) => (delivery.channel !== 'webhook' ? [delivery] : proxy.lastCallbackUrl ? [{ ...delivery, to: proxy.lastCallbackUrl }] : [])),
  },
  {
    name: 'notification-without-ids',
    clause: 'EVT-3',
    description: 'Notifications carry no id and no reference of any kind.',
    transform: editNotifications((delivery) => {
      eachObject(delivery.json, (object) => Object.keys(object).filter((key) => /id$/i.test(key) || key === 'reference').forEach((key) => delete object[key]));
      return [delivery];
    }),
  },
  {
    name: 'notification-for-unpaid-reference',
    clause: 'EVT-4',
    description: 'A "payment confirmed" notification is sent right after a reference is created.',
    transform: editData(['createReference'], (data, proxy) => {
      const to = proxy.payments.get(data.id)?.callbackUrl ?? proxy.webhookUrl;
      if (to) proxy.postInBackground(to, fabricatedConfirmation(data));
    }),
  },
  {
    name: 'callback-query-dropped',
    clause: 'EVT-1',
    description: 'Notifications go to `callbackUrl` without its query string.',
    transform: editNotifications((delivery) => [delivery.channel === 'callback' && URL.canParse(delivery.to) ? { ...delivery, to: delivery.to.replace(/\?.*$/, '') } : delivery]),
  },
  {
    name: 'late-notification-for-unpaid-reference',
    clause: 'EVT-4',
    description: 'A "payment confirmed" notification is sent two seconds after a reference is created, unpaid.',
    transform: editData(['createReference'], (data, proxy) => {
      const to = proxy.payments.get(data.id)?.callbackUrl ?? proxy.webhookUrl;
      if (to) setTimeout(() => proxy.postInBackground(to, fabricatedConfirmation(data)), 2000);
    }),
  },
];

export const mutants: Mutant[] = [
  ...envelopeMutants,
  ...checkoutMutants,
  ...pageMutants,
  ...tokenizationMutants,
  ...storedMethodMutants,
  ...referenceMutants,
  ...notificationMutants,
  ...classCandidates.mutants,
  ...freedoms.mutants,
  ...modelCandidates.mutants,
];

/**
 * Upper-cases the UUIDs the target answers as values of their own (not those inside URLs, which
 * may be the merchant's), and maps them back where the suite sends them.
 */
function upperCaseUuids(): Transform {
  const original = new Map<string, string>();
  const upper = (text: string) => {
    if (!isUuid(text)) return text;
    original.set(text.toUpperCase(), text);
    return text.toUpperCase();
  };
  const lower = (text: string) => text.replace(uuidsInText, (uuid) => original.get(uuid) ?? uuid);
  return {
    request(request) {
      request.path = lower(request.path);
      for (const [name, value] of [...request.query]) request.query.set(name, lower(value));
      if (request.json !== undefined) request.json = mapStrings(request.json, lower);
      else request.text = lower(request.text);
    },
    response(response) {
      if (response.json !== undefined) response.json = mapStrings(response.json, upper);
    },
    notification: (delivery) => [{ ...delivery, json: mapStrings(delivery.json, upper) }],
  };
}

const shiftTimestamps = (value: Json) => mapStrings(value, (text) => (isIsoWithOffset(text) && /(Z|[+-]00:?00)$/.test(text) ? atPlusOneHour(text) : text));

const addExtraFields = (value: Json) => eachObject(value, (object) => (object.vendorExtension = { note: 'a field the reference does not name' }));

export const benignVariants: BenignVariant[] = [
  {
    name: 'extra-fields-everywhere',
    description: 'Every object of every answer and notification carries an unknown extra field.',
    transform: {
      response: (response) => addExtraFields(response.json),
      notification: (delivery) => {
        addExtraFields(delivery.json);
        return [delivery];
      },
    },
  },
  {
    name: 'apiVersion-1.4.0-everywhere',
    freedom: 'ENV-3',
    description: '`apiVersion` is `1.4.0`, and the payment query carries it too.',
    transform: editBody(envelopes, (body) => (body.apiVersion = '1.4.0')),
  },
  {
    name: 'created-201',
    description: 'The four operations answer 201 instead of 200.',
    transform: {
      response(response, request) {
        if (apiRoutes.has(request.route) && response.status === 200) response.status = 201;
      },
    },
  },
  {
    name: 'other-refusals',
    description: 'Refusals use other 4xx codes (400 ↔ 422) and another error body.',
    transform: {
      response(response, request) {
        if (!apiRoutes.has(request.route) || response.status < 400 || response.status >= 500 || response.status === 404) return;
        response.status = response.status === 400 ? 422 : 400;
        response.headers['content-type'] = 'application/problem+json';
        response.json = { type: 'about:blank', title: 'Request refused', errors: [{ code: 'invalid_request', detail: 'refused' }] };
      },
    },
  },
  {
    name: 'offset-plus-one-hour',
    description: 'Timestamps in UTC are written for the same instant at +01:00.',
    transform: {
      response: (response) => void shiftTimestamps(response.json),
      notification: (delivery) => [{ ...delivery, json: shiftTimestamps(delivery.json) }],
    },
  },
  {
    name: 'upper-case-uuids',
    description: 'UUIDs are answered in upper case (and accepted back in upper case).',
    transform: upperCaseUuids(),
  },
  {
    name: 'slow-answers',
    description: 'Every answer comes 150 ms later.',
    transform: { delayMs: 150 },
  },
  {
    name: 'duplicate-notifications',
    description: 'Every notification is delivered twice (same webhook.id).',
    transform: editNotifications((delivery) => [delivery, delivery]),
  },
  {
    name: 'checkoutUrl-on-localhost',
    description: '`checkoutUrl` names the host `localhost` instead of `127.0.0.1`.',
    transform: editData(['createCheckout'], (data) => typeof data.checkoutUrl === 'string' && (data.checkoutUrl = data.checkoutUrl.replace('//127.0.0.1:', '//localhost:'))),
  },
  {
    name: 'amounts-above-multibanco-limit-refused',
    description: 'Checkouts and references above 99,999.99 are refused with 422 (the reference shows no bounds).',
    transform: answerWhen((request) => ['createCheckout', 'createReference'].includes(request.route) && amountOf(request) > 9_999_999, 422),
  },
  {
    name: 'method-code-required',
    description: 'A checkout without `payment.paymentMethod.code` is refused with 400: every row of 4.1 names one.',
    transform: answerWhen((request) => request.route === 'createCheckout' && typeof (request.json as Json)?.payment === 'object' && (request.json as Json)?.payment?.paymentMethod?.code === undefined, 400),
  },
  {
    name: 'registered-customers-only',
    description: 'Checkouts naming a customer uuid it never registered are refused with 422, and their lists answer 404.',
    transform: answerWhen((request, proxy) => {
      const customer = request.route === 'createCheckout' ? (request.json as Json)?.payment?.customer?.uuid : request.route === 'listMethods' ? request.param : undefined;
      return isUuid(customer) && !proxy.customers.has(customer);
    }, request => (request.route === 'listMethods' ? 404 : 422)),
  },
  {
    name: 'pending-payment-sparse',
    description: 'A payment not yet paid is in state `pending_payment` and lacks `updatedAt`, `stateDetails.createdAt` and the methods\' `type` and `name`.',
    transform: editData(payments, (data) => {
      if (data.stateDetails?.state === 'confirmed') return;
      data.stateDetails = { state: 'pending_payment' };
      delete data.updatedAt;
      if (Array.isArray(data.availableMethods)) data.availableMethods = data.availableMethods.map((method: Json) => ({ code: method.code }));
    }),
  },
  {
    name: 'stored-values-normalised',
    description: 'Stored holders are upper case without accents, wallet country codes are written `+351`.',
    transform: editStoredMethods((method) => {
      if (typeof method.holder === 'string') method.holder = method.holder.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
      if (typeof method.countryCode === 'string') method.countryCode = `+${method.countryCode}`;
    }),
  },
  {
    name: 'pages-written-otherwise',
    description: 'Pages show the reference in groups (`123 456 789`) and amounts as `1.234,56 EUR`.',
    transform: {
      response(response, request, proxy) {
        if (!pageRequested(request, proxy) || response.json !== undefined) return;
        response.text = response.text
          .replace(/(data-testid="atm-reference">)([0-9]{3})([0-9]{3})([0-9]{3})/, '$1$2 $3 $4')
          .replace(/([0-9]+),([0-9]{2}) €/g, (_match, major: string, minor: string) => `${Number(major).toLocaleString('de-DE')},${minor} EUR`);
      },
    },
  },
  {
    name: 'pages-rendered-by-script',
    description: 'Hosted pages arrive empty and a script renders their content half a second later.',
    transform: {
      response(response, request, proxy) {
        const checkout = pageRequested(request, proxy);
        if (!checkout || layoutOf(checkout.request) === 'embed' || response.json !== undefined) return;
        response.text = response.text.replace(/<main>([\s\S]*)<\/main>/, (_match, content: string) =>
          `<main></main><script>setTimeout(function () { document.querySelector('main').innerHTML = ${JSON.stringify(content).replace(/</g, '\\u003c')}; }, 500)</script>`);
      },
    },
  },
  {
    name: 'redirect-by-meta-refresh',
    description: 'After paying, the hosted page sends the browser on with `<meta http-equiv="refresh">` instead of a 303.',
    transform: answeredPayment((location) => answerHtml(200, `<meta http-equiv="refresh" content="0;url=${escapeAttribute(location)}"><p>Payment done, returning to the shop…</p>`)),
  },
  {
    name: 'redirect-by-script',
    description: 'After paying, the hosted page sends the browser on with a script (`location.replace`) instead of a 303.',
    transform: answeredPayment((location) => answerHtml(200, `<p>Payment done, returning to the shop…</p><script>location.replace(${JSON.stringify(location).replace(/</g, '\\u003c')})</script>`)),
  },
  {
    name: 'helpers-answer-202',
    description: 'The pay and confirm helpers answer 202 at once and do the work 300 ms later.',
    transform: {
      request(request, proxy) {
        if (request.route !== 'payCheckout' && request.route !== 'confirmPayment') return;
        setTimeout(() => void proxy.callUpstream('POST', request.path, request.json ?? {}).catch(() => undefined), 300);
        const action = request.route === 'payCheckout' ? proxy.checkouts.get(request.param ?? '')?.request?.redirects?.find((redirect: Json) => redirect?.type === 'action')?.url : undefined;
        return answer(202, { accepted: true, ...(request.route === 'payCheckout' && { checkoutId: request.param, redirectUrl: action ? redirectWithId(action, request.param ?? '') : null }) });
      },
    },
  },
  {
    name: 'late-notifications',
    description: 'Every notification arrives 1.5 s after the confirmation, within the profile\'s eventMs.',
    transform: editNotifications((delivery, proxy) => {
      setTimeout(() => void proxy.deliver(delivery).catch(() => undefined), 1500);
      return [];
    }),
  },
  ...classCandidates.benignVariants,
  ...freedoms.benignVariants,
  ...modelCandidates.benignVariants,
];

/** A target with no test helpers (a real provider's sandbox): every /test-helpers path answers 404. */
export const withoutTestHelpers: Transform = {
  request: (request) => (request.path.startsWith('/test-helpers/') ? answer(404, { success: false, error: 'not found' }) : undefined),
};
