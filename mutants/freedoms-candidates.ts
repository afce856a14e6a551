/**
 * Mutants that prove the suite blames the clause a departure breaks (a page with no way to pay, another
 * customer's methods in a list, paths answered by a redirect), and benign variants for the freedoms
 * the reference leaves ("not shown", the INFO clauses), each doing what real payment providers do there
 * (../shared/spec/provider-facts.md and their public API documentation).
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { BenignVariant, Mutant } from './kinds.ts';
import { answer, answerHtml, editBody, editNotifications, eachObject, layoutOf, listsOthersMethods, pageRequested, type Json } from './edits.ts';
import { apiRoutes, type ProxyContext, type ProxyRequest, type ProxyResponse, type Transform } from './proxy.ts';

/** A page that opens (200) and says the checkout is not there: nothing to fill in, a button back to the shop. */
const notFoundPage = () =>
  answerHtml(200, '<h1>Not found</h1><p>This payment is not available.</p><form action="/"><button type="submit">Back to the shop</button></form>');

/** Answers the hosted pages that `which` picks (by the request of their checkout) with the "not found" page. */
function pagesNotFound(which: (checkoutRequest: Json) => boolean): Transform {
  return {
    request(request, proxy) {
      const checkout = pageRequested(request, proxy);
      if (checkout && layoutOf(checkout.request) !== 'embed' && which(checkout.request)) return notFoundPage();
    },
  };
}

/** A stored method written as a careless target writes another customer's: misspelled fields, a uuid without dashes. */
function malformed(method: Json): Json {
  const { last4Digitis, last3Digitis, uuid, ...rest } = method;
  return {
    ...rest,
    ...(last4Digitis !== undefined && { last4Digits: last4Digitis }),
    ...(last3Digitis !== undefined && { last3Digits: last3Digitis }),
    uuid: typeof uuid === 'string' ? uuid.replace(/-/g, '') : uuid,
  };
}

export const mutants: Mutant[] = [
  {
    name: 'hosted-page-not-found',
    clause: 'PAGE-1',
    description: 'Every hosted page answers 200 with "not found": no payment form, no ATM details, only a button back to the shop.',
    transform: pagesNotFound(() => true),
  },
  {
    name: 'atm-page-not-found',
    clause: 'PAGE-5',
    description: 'The ATM payment page answers 200 with "not found": no reference, no entity.',
    transform: pagesNotFound((checkoutRequest) => checkoutRequest?.payment?.paymentMethod?.code === 'MB'),
  },
  {
    name: 'foreign-methods-malformed',
    clause: 'TOK-6',
    // Every element of a list has the fields of 2.4: the model, judging whole lists, finds the misspelled ones (PML-2, and PML-3 or PML-4 for a card or a wallet).
    disturbs: ['PML-2', 'PML-3', 'PML-4'],
    description: "A customer's list also holds every other known customer's methods, misspelled (last4Digits, last3Digits) and with uuids without dashes.",
    transform: listsOthersMethods(() => true, malformed),
  },
  {
    name: 'paths-redirect-to-v1',
    clause: 'ENV-4',
    description: 'The four paths answer only with a 308 to the same path under `/v1`, which serves them.',
    transform: {
      request(request, proxy) {
        if (apiRoutes.has(request.route)) {
          const query = request.query.toString();
          return { status: 308, headers: { location: `${proxy.origin}/v1${request.path}${query ? `?${query}` : ''}` }, json: undefined, text: '' };
        }
        if (request.path.startsWith('/v1/')) request.path = request.path.slice(3);
      },
    },
  },
];

/** A refusal as RFC 9457 problem details, as many providers write them. */
function problem(status: number, title: string, detail: string): ProxyResponse {
  return { ...answer(status, { type: 'about:blank', title, status, detail }), headers: { 'content-type': 'application/problem+json' } };
}

/** Refuses the requests the predicate picks with a problem-details answer. */
function refuseWhen(predicate: (request: ProxyRequest, proxy: ProxyContext) => boolean, status: number, title: string, detail: string): Transform {
  return { request: (request, proxy) => (predicate(request, proxy) ? problem(status, title, detail) : undefined) };
}

/** Whether a checkout of layout web or basic is one the rows of 4.1 show: web for MB, basic to store a method (any other layout passes). */
function fullPageAsShown(body: Json): boolean {
  const details = body?.payment?.paymentMethod?.details ?? {};
  if (layoutOf(body) === 'web') return body?.payment?.paymentMethod?.code === 'MB';
  if (layoutOf(body) === 'basic') return details.createRegistration === true || details.allowRegistration === true;
  return true;
}

/**
 * At most `perSecond` requests of the reference's operations in any second; past it, 429 with
 * Retry-After: 1, as rate-limited APIs answer (the reference shows no limit: SEC-2).
 */
function rateLimited(perSecond: number): Transform {
  const recent: number[] = [];
  return {
    request(request) {
      if (!apiRoutes.has(request.route)) return;
      const now = Date.now();
      while (recent.length > 0 && recent[0] <= now - 1000) recent.shift();
      if (recent.length >= perSecond) {
        const refused = problem(429, 'Too Many Requests', `at most ${perSecond} requests a second`);
        return { ...refused, headers: { ...refused.headers, 'retry-after': '1' } };
      }
      recent.push(now);
    },
  };
}

/** Whether any string in a JSON value is longer than `limit` characters. */
function hasLongerString(value: Json, limit: number): boolean {
  let found = false;
  eachObject(value, (object) => (found ||= Object.values(object).some((field) => typeof field === 'string' && field.length > limit)));
  return found;
}

/** The notification as an event of the Standard Webhooks kind: an event object around the payment, signed in webhook-* headers. */
function asSignedEvent(json: Json, headers: Record<string, string>): { json: Json; headers: Record<string, string> } {
  const id = `evt_${randomUUID().replace(/-/g, '')}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const event = { id, type: 'payment.confirmed', created: Number(timestamp), data: { object: Array.isArray(json?.payments) ? json.payments[0] : json } };
  const body = JSON.stringify(event);
  const signature = createHmac('sha256', 'whsec-catalogue').update(`${id}.${timestamp}.${body}`).digest('base64');
  const { 'paypay-signature': _signature, ...kept } = headers;
  return { json: event, headers: { ...kept, 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` } };
}

const isApiAnswer = (request: ProxyRequest, response: ProxyResponse) => apiRoutes.has(request.route) && response.json !== undefined;

export const benignVariants: BenignVariant[] = [
  {
    name: 'empty-list-404',
    freedom: 'PML-7',
    description: 'The list of a customer with nothing stored answers 404 with an error body instead of an empty array.',
    transform: {
      response(response, request) {
        const data = (response.json as Json)?.data;
        if (request.route !== 'listMethods' || response.status >= 300 || !Array.isArray(data) || data.length > 0) return;
        Object.assign(response, answer(404, { success: false, errors: [{ code: 'not_found', message: 'no payment methods stored for this customer' }] }));
      },
    },
  },
  {
    name: 'closed-windows-refused',
    freedom: 'REF-10',
    description: 'A reference whose validDate.end has already passed is refused with 422.',
    transform: refuseWhen(
      (request) => request.route === 'createReference' && Date.parse((request.json as Json)?.validDate?.end) <= Date.now(),
      422,
      'Invalid validity window',
      'validDate.end is in the past',
    ),
  },
  {
    name: 'content-type-uppercase-charset',
    freedom: 'ENV-5',
    description: 'JSON answers carry `Content-Type: application/json;charset=UTF-8`, as Java frameworks write it.',
    transform: {
      response(response, request) {
        if (isApiAnswer(request, response)) response.headers['content-type'] = 'application/json;charset=UTF-8';
      },
    },
  },
  {
    name: 'creations-accepted-202',
    freedom: 'ENV-5',
    description: 'POST /checkouts and POST /payments/references answer 202 Accepted on success, as asynchronous APIs do.',
    transform: {
      response(response, request) {
        if ((request.route === 'createCheckout' || request.route === 'createReference') && response.status >= 200 && response.status < 300)
          response.status = 202;
      },
    },
  },
  {
    name: 'euro-only',
    freedom: 'CHK-13',
    description: 'A checkout in a currency other than the euro is refused with 422 (the provider takes euros only).',
    transform: refuseWhen(
      (request) =>
        request.route === 'createCheckout' && (request.json as Json)?.payment?.currency !== undefined && (request.json as Json)?.payment?.currency !== 'EUR',
      422,
      'Unsupported currency',
      'only EUR is accepted',
    ),
  },
  {
    name: 'reference-creation-minimal',
    freedom: 'REF-10',
    description: 'POST /payments/references answers only the payment id and its reference details, not the whole payment.',
    transform: editBody(['createReference'], (body) => {
      if (body.data && typeof body.data === 'object') body.data = { id: body.data.id, referenceDetails: body.data.referenceDetails };
    }),
  },
  {
    name: 'notifications-as-signed-events',
    freedom: 'EVT-5',
    description: 'Notifications are events (`{ id, type, created, data: { object: payment } }`) signed in Standard Webhooks headers, not PayPay-Signature.',
    transform: editNotifications((delivery) => [{ ...delivery, ...asSignedEvent(delivery.json, delivery.headers) }]),
  },
  {
    name: 'credentials-required',
    freedom: 'SEC-1',
    description: 'A request to the four operations without an Authorization header is refused with 401 and WWW-Authenticate.',
    transform: {
      request(request) {
        if (apiRoutes.has(request.route) && !request.headers.authorization) {
          return {
            ...problem(401, 'Unauthorized', 'credentials required'),
            headers: { 'content-type': 'application/problem+json', 'www-authenticate': 'Basic realm="api"' },
          };
        }
      },
    },
  },
  {
    name: 'full-pages-only-as-4.1-shows-them',
    freedom: 'CHK-13',
    description:
      'Layout web only for the ATM page (MB) and layout basic only to store a method, as the rows of 4.1 show them: any other checkout of those layouts is refused with 422.',
    transform: refuseWhen(
      (request) => request.route === 'createCheckout' && !fullPageAsShown(request.json),
      422,
      'Unsupported layout',
      'web is the ATM page, basic the page that stores',
    ),
  },
  {
    name: 'rate-limited',
    freedom: 'SEC-2',
    description: 'At most 20 requests a second reach the API; past that, 429 Too Many Requests with Retry-After: 1.',
    transform: rateLimited(20),
  },
  {
    name: 'long-fields-refused',
    freedom: 'SEC-2',
    description: 'A checkout or reference with a text field longer than 255 characters is refused with 400.',
    transform: refuseWhen(
      (request) => (request.route === 'createCheckout' || request.route === 'createReference') && hasLongerString(request.json, 255),
      400,
      'Field too long',
      'text fields hold at most 255 characters',
    ),
  },
];
