/** Benign variants of the sandbox: departures the reference allows (extra fields, other offsets, other status codes, later notifications), which the suite must pass. */
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
} from './edits.ts';
import { apiRoutes, type Transform } from './proxy.ts';
import type { BenignVariant } from './kinds.ts';
import { redirectWithId } from '../src/sandbox/payments.ts';

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
        return isUuid(customer) && !proxy.customers.has(customer);
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
];
