/**
 * Benign variants of the sandbox: departures the reference allows (extra fields, other offsets, other
 * status codes, later notifications) and the freedoms it leaves ("not shown", the INFO clauses), done
 * as real payment providers do them (../shared/spec/provider-facts.md), which the suite must pass.
 */
import { createHmac, randomUUID } from 'node:crypto';
import {
  answer,
  answeredPayment,
  answerHtml,
  answerWhen,
  atPlusOneHour,
  eachObject,
  escapeAttribute,
  editBody,
  editData,
  editNotifications,
  editStoredMethods,
  isIsoWithOffset,
  isUuid,
  layoutOf,
  mapStrings,
  pageRequested,
  uuidsInText,
  type Json,
  envelopes,
  payments,
  amountOf,
  withQueryRewritten,
  int32Limit,
  timestampParts,
} from './edits.ts';
import { apiRoutes, type Transform, type ProxyContext, type ProxyRequest, type ProxyResponse } from './proxy.ts';
import type { BenignVariant } from './kinds.ts';
import { redirectWithId } from '../src/sandbox/payments.ts';
import { titleOf } from '../src/core/operations.ts';

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

/** A reference's leading zeros as nines: the same reference wherever it shows (a JSON string, a page's text), never one starting with 0. */
const nines = (reference: string) => reference.replace(/^0+/, (zeros) => '9'.repeat(zeros.length));
const referenceInJson = (text: string) => (/^0[0-9]{8}$/.test(text) ? nines(text) : text);
const referenceInPage = (text: string) => text.replace(/(?<![0-9A-Za-z-])0[0-9]{8}(?![0-9A-Za-z-])/g, nines);

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
    name: 'long-text-refused',
    freedom: 'SEC-2',
    description: 'A checkout with a text field past 200 characters is refused with 422 (the reference sets no bound).',
    transform: answerWhen((request) => request.route === 'createCheckout' && /"[^"]{201,}"/.test(request.text), 422),
  },
  {
    name: 'open-forms-refused',
    freedom: 'CHK-13',
    description:
      "A checkout is refused with 400 where a field takes a form the reference leaves open: an e-mail address beyond ASCII or quoted, a + before the country code, a country code in small letters. Not an action URL on http: the suite's receiver is on http.",
    transform: answerWhen((request) => {
      if (request.route !== 'createCheckout') return false;
      const payment = (request.json as Json)?.payment;
      const text = (value: unknown) => (typeof value === 'string' ? value : '');
      return (
        /[^\x20-\x7e]|"/.test(text(payment?.customer?.email)) ||
        text(payment?.customer?.phoneNumber).startsWith('+') ||
        /[a-z]/.test(text(payment?.billingAddress?.country))
      );
    }, 400),
  },
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
    transform: editData(
      ['createCheckout'],
      (data) => typeof data.checkoutUrl === 'string' && (data.checkoutUrl = data.checkoutUrl.replace('//127.0.0.1:', '//localhost:')),
    ),
  },
  {
    name: 'amounts-above-multibanco-limit-refused',
    description: 'Checkouts and references above 99,999.99 are refused with 422 (the reference shows no bounds).',
    transform: answerWhen((request) => ['createCheckout', 'createReference'].includes(request.route) && amountOf(request) > 9_999_999, 422),
  },
  {
    name: 'method-code-required',
    description: 'A checkout without `payment.paymentMethod.code` is refused with 400: every row of 4.1 names one.',
    transform: answerWhen(
      (request) =>
        request.route === 'createCheckout' &&
        typeof (request.json as Json)?.payment === 'object' &&
        (request.json as Json)?.payment?.paymentMethod?.code === undefined,
      400,
    ),
  },
  {
    name: 'registered-customers-only',
    description: 'Checkouts naming a customer uuid it never registered are refused with 422, and their lists answer 404.',
    transform: answerWhen(
      (request, proxy) => {
        const customer =
          request.route === 'createCheckout' ? (request.json as Json)?.payment?.customer?.uuid : request.route === 'listMethods' ? request.param : undefined;
        return isUuid(customer) && !proxy.customers.has(customer.toLowerCase());
      },
      (request) => (request.route === 'listMethods' ? 404 : 422),
    ),
  },
  {
    name: 'pending-payment-sparse',
    description: "A payment not yet paid is in state `pending_payment` and lacks `updatedAt`, `stateDetails.createdAt` and the methods' `type` and `name`.",
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
        response.text = response.text.replace(
          /<main>([\s\S]*)<\/main>/,
          (_match, content: string) =>
            `<main></main><script>setTimeout(function () { document.querySelector('main').innerHTML = ${JSON.stringify(content).replace(/</g, '\\u003c')}; }, 500)</script>`,
        );
      },
    },
  },
  {
    name: 'redirect-by-meta-refresh',
    description: 'After paying, the hosted page sends the browser on with `<meta http-equiv="refresh">` instead of a 303.',
    transform: answeredPayment((location) =>
      answerHtml(200, `<meta http-equiv="refresh" content="0;url=${escapeAttribute(location)}"><p>Payment done, returning to the shop…</p>`),
    ),
  },
  {
    name: 'redirect-by-script',
    description: 'After paying, the hosted page sends the browser on with a script (`location.replace`) instead of a 303.',
    transform: answeredPayment((location) =>
      answerHtml(200, `<p>Payment done, returning to the shop…</p><script>location.replace(${JSON.stringify(location).replace(/</g, '\\u003c')})</script>`),
    ),
  },
  {
    name: 'helpers-answer-202',
    description: 'The pay and confirm helpers answer 202 at once and do the work 300 ms later.',
    transform: {
      request(request, proxy) {
        if (request.route !== 'payCheckout' && request.route !== 'confirmPayment') return;
        setTimeout(() => void proxy.callUpstream('POST', request.path, request.json ?? {}).catch(() => undefined), 300);
        const action =
          request.route === 'payCheckout'
            ? proxy.checkouts.get(request.param ?? '')?.request?.redirects?.find((redirect: Json) => redirect?.type === 'action')?.url
            : undefined;
        return answer(202, {
          accepted: true,
          ...(request.route === 'payCheckout' && { checkoutId: request.param, redirectUrl: action ? redirectWithId(action, request.param ?? '') : null }),
        });
      },
    },
  },
  {
    name: 'late-notifications',
    description: "Every notification arrives 1.5 s after the confirmation, within the profile's eventMs.",
    transform: editNotifications((delivery, proxy) => {
      setTimeout(() => void proxy.deliver(delivery).catch(() => undefined), 1500);
      return [];
    }),
  },
  {
    name: 'amounts-beyond-int32-refused',
    description: 'Checkouts and references of 2^31 minor units or more are refused with 422 (the reference shows no bounds: SEC-2).',
    transform: answerWhen((request) => ['createCheckout', 'createReference'].includes(request.route) && amountOf(request) >= int32Limit, 422),
  },
  {
    name: 'references-never-start-with-zero',
    description: 'No reference starts with 0 (its leading zeros are nines, wherever it shows): the suite searches for one, and says it never came.',
    transform: {
      response(response) {
        if (response.json !== undefined) mapStrings(response.json, referenceInJson);
        else response.text = referenceInPage(response.text);
      },
      notification: (delivery) => [{ ...delivery, json: mapStrings(delivery.json, referenceInJson) }],
    },
  },
  {
    name: 'notification-query-reencoded',
    description:
      'Notifications go to callbackUrl or the webhook with the query of the address encoded anew (a space as +, names and values otherwise as sent): the same query, written otherwise.',
    transform: editNotifications((delivery) => [withQueryRewritten(delivery, (query) => new URLSearchParams(query).toString())]),
  },
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
    name: 'validDate-in-utc-to-nanoseconds',
    description:
      'validDate is echoed in UTC, its fraction of a second written to nanoseconds (…04:30:00.123000000Z for …10:00:00.123+05:30): the same instant.',
    transform: {
      response(response, request) {
        const data = (response.json as { data?: { validDate?: Record<string, unknown> } } | undefined)?.data;
        if (!isApiAnswer(request, response) || !data?.validDate) return;
        for (const edge of ['start', 'end']) {
          const parts = typeof data.validDate[edge] === 'string' ? timestampParts(data.validDate[edge]) : null;
          if (!parts) continue;
          const utc = new Date(Date.parse(`${parts.clock}${parts.offset}`)).toISOString().slice(0, 19);
          data.validDate[edge] = `${utc}.${parts.fraction.slice(0, 9).padEnd(9, '0')}Z`;
        }
      },
    },
  },
  {
    name: 'answers-in-chunks-then-closed',
    description:
      'Every answer comes in chunks (Transfer-Encoding: chunked, no Content-Length) with Connection: close, as a streaming server behind a proxy sends it.',
    transform: {
      response(response) {
        response.headers['transfer-encoding'] = 'chunked';
        response.headers.connection = 'close';
      },
    },
  },
  {
    name: 'answers-gzipped',
    description: 'Every answer to a request that accepts gzip comes gzipped (Content-Encoding: gzip), as a server behind a compressing proxy sends it.',
    transform: {
      response(response, request) {
        if (/\bgzip\b/i.test(request.headers['accept-encoding'] ?? '')) response.headers['content-encoding'] = 'gzip';
      },
    },
  },
  {
    name: 'creations-accepted-202',
    freedom: 'ENV-5',
    description: `${titleOf('createCheckout')} and ${titleOf('createReference')} answer 202 Accepted on success, as asynchronous APIs do.`,
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
    description: `${titleOf('createReference')} answers only the payment id and its reference details, not the whole payment.`,
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
