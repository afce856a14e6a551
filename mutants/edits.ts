/**
 * The building blocks of the catalogue: small transforms bound to one operation, and the few
 * value rewrites (timestamps, UUIDs, digits) that several mutants and variants share.
 */
import { randomUUID } from 'node:crypto';
import { uuidPattern } from '../src/core/operations.ts';
import { signature } from '../src/sandbox/notifications.ts';
import { callOperation, type Delivery, type ProxyContext, type ProxyRequest, type ProxyResponse, type Route, type Transform } from './proxy.ts';

export type Json = any;

export const layoutOf = (body: Json): unknown => body?.page?.layout;

/** The checkout whose hosted page (or embed script) a GET asks for. */
export function pageRequested(request: ProxyRequest, proxy: ProxyContext) {
  return request.method === 'GET' && request.route === 'other' ? proxy.checkoutOfPage(request.path) : undefined;
}

/** A customer's list also holds the methods of other known customers that `leaks` picks, as `shown` writes them. */
export function listsOthersMethods(
  leaks: (method: Json, customer: string, proxy: ProxyContext) => boolean,
  shown: (method: Json) => Json = (method) => method,
): Transform {
  return {
    async response(response, request, proxy) {
      const data = (response.json as Json)?.data;
      if (request.route !== 'listMethods' || !Array.isArray(data) || !request.param) return;
      const customer = request.param.toLowerCase();
      for (const other of proxy.customers) {
        if (other === customer) continue;
        const theirs = (await callOperation(proxy, 'listMethods', { param: other })).json as Json;
        if (Array.isArray(theirs?.data)) data.push(...theirs.data.filter((method: Json) => leaks(method, customer, proxy)).map(shown));
      }
    },
  };
}

/** A 2xx answer. */
export const succeeded = (response: ProxyResponse) => response.status >= 200 && response.status < 300;

/** Edits the request body of one operation before it is forwarded. */
export function editRequest(route: Route, edit: (body: Json, proxy: ProxyContext, request: ProxyRequest) => void): Transform {
  return {
    request(request, proxy) {
      if (request.route === route && request.json && typeof request.json === 'object') edit(request.json, proxy, request);
    },
  };
}

/** Edits `data` of the successful answers of the given operations. */
export function editData(routes: Route[], edit: (data: Json, proxy: ProxyContext, request: ProxyRequest) => void): Transform {
  return {
    response(response, request, proxy) {
      const body = response.json as { data?: unknown } | undefined;
      if (routes.includes(request.route) && succeeded(response) && body?.data !== undefined) edit(body.data, proxy, request);
    },
  };
}

/** Edits the whole JSON body of the successful answers of the given operations. */
export function editBody(routes: Route[], edit: (body: Json, proxy: ProxyContext, request: ProxyRequest) => void): Transform {
  return {
    response(response, request, proxy) {
      if (routes.includes(request.route) && succeeded(response) && response.json && typeof response.json === 'object') edit(response.json, proxy, request);
    },
  };
}

/** Every stored method of every list answer. */
export function editStoredMethods(edit: (method: Json, index: number) => void): Transform {
  return editData(['listMethods'], (data) => Array.isArray(data) && data.forEach((method, index) => method && edit(method, index)));
}

/** The scratch set of a transform, under its key. */
export function memoSet<T>(proxy: ProxyContext, key: string): Set<T> {
  if (!proxy.memo.has(key)) proxy.memo.set(key, new Set<T>());
  return proxy.memo.get(key) as Set<T>;
}

/** The scratch map of a transform, under its key. */
export function memoMap<K, V>(proxy: ProxyContext, key: string): Map<K, V> {
  if (!proxy.memo.has(key)) proxy.memo.set(key, new Map<K, V>());
  return proxy.memo.get(key) as Map<K, V>;
}

/** A declined payment of the pay helper taken as a success: its outcome, and a card the sandbox's issuer declines (ending in 0002) swapped for another. */
export function takeAsSuccess(body: Json): void {
  body.outcome = 'success';
  if (typeof body.card?.number === 'string' && body.card.number.endsWith('0002')) body.card.number = '4111111111111111';
}

/** A notification's address with its query rewritten (none where it has no query). */
export function withQueryRewritten(delivery: Delivery, rewrite: (query: string) => string): Delivery {
  const url = new URL(delivery.to);
  return url.search === '' ? delivery : { ...delivery, to: `${url.origin}${url.pathname}?${rewrite(url.search.slice(1))}` };
}

/** The hosted page's form posts storeConsent on, whatever the customer answered. */
export const consentAlwaysOnPage: Transform = {
  request(request, proxy) {
    if (request.method !== 'POST' || !proxy.checkoutOfPage(request.path) || request.json !== undefined) return;
    const form = new URLSearchParams(request.text);
    form.set('storeConsent', 'on');
    request.text = form.toString();
  },
};

/** Answers the request itself, without forwarding it. */
export function answer(status: number, json: Json): ProxyResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, json, text: '' };
}

/** Answers the requests the predicate picks with the given status (or the status for that request), as a target that refuses or crashes would. */
export function answerWhen(
  predicate: (request: ProxyRequest, proxy: ProxyContext) => boolean,
  status: number | ((request: ProxyRequest) => number),
): Transform {
  return {
    request: (request, proxy) =>
      predicate(request, proxy) ? answer(typeof status === 'number' ? status : status(request), { success: false, error: 'refused by the proxy' }) : undefined,
  };
}

export function editNotifications(edit: (delivery: Delivery, proxy: ProxyContext) => Delivery[]): Transform {
  return { notification: edit };
}

/** Applies several transforms in order (request, response, redirect, notification alike). */
export function combine(...transforms: Transform[]): Transform {
  return {
    async request(request, proxy) {
      for (const transform of transforms) {
        const answered = await transform.request?.(request, proxy);
        if (answered) return answered;
      }
    },
    async response(response, request, proxy) {
      for (const transform of transforms) await transform.response?.(response, request, proxy);
    },
    redirect: (location, proxy, request) => transforms.reduce((url, transform) => transform.redirect?.(url, proxy, request) ?? url, location),
    notification: (delivery, proxy) =>
      transforms.reduce<Delivery[]>(
        (deliveries, transform) => (transform.notification ? deliveries.flatMap((d) => transform.notification!(d, proxy)) : deliveries),
        [delivery],
      ),
    delayMs: transforms.reduce((total, transform) => total + (transform.delayMs ?? 0), 0),
  };
}

/** Every string in a JSON value passed through `map`, in place where the value is an object. */
export function mapStrings(value: Json, map: (text: string) => string): Json {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) value.forEach((item, index) => (value[index] = mapStrings(item, map)));
  else if (value && typeof value === 'object') for (const key of Object.keys(value)) value[key] = mapStrings(value[key], map);
  return value;
}

/** Every object in a JSON value, depth first (not those the visit itself adds). */
export function eachObject(value: Json, visit: (object: Record<string, Json>) => void): void {
  if (Array.isArray(value)) value.forEach((item) => eachObject(item, visit));
  else if (value && typeof value === 'object') {
    const children = Object.values(value);
    visit(value);
    children.forEach((item) => eachObject(item, visit));
  }
}

/** Every UUID in a text (for replace). */
export const uuidsInText = new RegExp(uuidPattern.source.replace(/^\^|\$$/g, ''), 'gi');

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && uuidPattern.test(value);
}

/** An ISO 8601 timestamp with a time zone designator, as a whole string. */
const isoWithOffset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

export function isIsoWithOffset(text: string): boolean {
  return isoWithOffset.test(text);
}

/** The same instant written with the offset +01:00. */
export function atPlusOneHour(timestamp: string): string {
  const instant = new Date(Date.parse(timestamp) + 3_600_000).toISOString();
  const fraction = /\.\d+/.exec(timestamp.replace(/.*T/, ''))?.[0] ?? '';
  return `${instant.slice(0, 19)}${fraction}+01:00`;
}

/** The timestamp with its time zone designator cut off. */
export function withoutOffset(timestamp: string): string {
  return timestamp.replace(/(Z|[+-]\d{2}:?\d{2})$/, '');
}

/** The customer a checkout request names, in small letters (a UUID is read without regard to letter case). */
export const customerOf = (request: Json): string | undefined => {
  const uuid = request?.payment?.customer?.uuid;
  return typeof uuid === 'string' ? uuid.toLowerCase() : undefined;
};

/** The customer whose checkout a pay helper's request pays, in small letters. */
export const payerOf = (request: ProxyRequest, proxy: ProxyContext): string | undefined =>
  request.route === 'payCheckout' && request.param ? customerOf(proxy.checkouts.get(request.param)?.request) : undefined;

/** The payment a notification of the sandbox is about. */
export const paymentOfDelivery = (json: Json): string | undefined => json?.payments?.[0]?.id;

/** A timestamp's clock, fraction of a second and offset (2030-01-01T10:30:00, 123456, +05:30); null where it is written otherwise. */
export function timestampParts(timestamp: string): { clock: string; fraction: string; offset: string } | null {
  const match = /^(.+T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/.exec(timestamp);
  return match && { clock: match[1], fraction: match[2] ?? '', offset: match[3] };
}

/** Each digit replaced by the next one (9 → 0): the same length, never the same digits. */
export function nextDigits(digits: string): string {
  return digits.replace(/[0-9]/g, (digit) => String((Number(digit) + 1) % 10));
}

/** An HTML page answered by the proxy itself. */
export function answerHtml(status: number, body: string): ProxyResponse {
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    json: undefined,
    text: `<!doctype html><html><head><meta charset="utf-8"><title>Payment</title></head><body>${body}</body></html>`,
  };
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * Replaces the hosted form's answer to a payment (a 30x to the action URL or deep link) by what
 * `answer` makes of that address: a page with a link, a meta refresh, a script…
 */
export function answeredPayment(answer: (location: string) => ProxyResponse | Promise<ProxyResponse>): Transform {
  return {
    async response(response, request) {
      const location = response.headers.location;
      if (request.method !== 'POST' || request.route !== 'other' || response.status < 300 || response.status > 399 || !location) return;
      const replacement = await answer(location);
      response.headers = replacement.headers;
      Object.assign(response, { status: replacement.status, json: replacement.json, text: replacement.text });
    },
  };
}

export const envelopes: Route[] = ['createCheckout', 'listMethods', 'createReference', 'getPayment'];
export const payments: Route[] = ['createReference', 'getPayment'];

export const amountOf = (request: ProxyRequest): number => Number((request.json as Json)?.payment?.amount ?? (request.json as Json)?.amount);
export const detailsOf = (body: Json): Json => body?.payment?.paymentMethod?.details ?? {};
export const asksToStore = (body: Json): boolean => detailsOf(body).createRegistration === true || detailsOf(body).allowRegistration === true;
export const setDetail = (body: Json, name: string, value: unknown) => {
  const method = ((body.payment ??= {}).paymentMethod ??= {});
  (method.details ??= {})[name] = value;
};

/** A stored-method edit that spells a field otherwise. */
export const renamed = (from: string, to: string) => (method: Json) => {
  if (!(from in method)) return;
  method[to] = method[from];
  delete method[from];
};

/** Edits the HTML of the ATM payment page (the hosted page of an MB checkout). */
export function editAtmPage(edit: (html: string) => string): Transform {
  return {
    response(response, request, proxy) {
      const checkout = pageRequested(request, proxy);
      if (checkout?.request?.payment?.paymentMethod?.code === 'MB' && response.json === undefined) response.text = edit(response.text);
    },
  };
}

/** The URL with its query edited (an unparseable URL as it is). */
export function withQuery(url: string, edit: (query: URLSearchParams) => void): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  edit(parsed.searchParams);
  return parsed.toString();
}

/** The first value a mutant saw under a key, for mutants that repeat it. */
export function first<T>(proxy: ProxyContext, key: string, value: T): T {
  if (!proxy.memo.has(key)) proxy.memo.set(key, value);
  return proxy.memo.get(key) as T;
}

/** A payment_confirmed notification made up for a payment the target did not confirm. */
export function fabricatedConfirmation(payment: Json) {
  const now = new Date().toISOString();
  return {
    webhook: { id: randomUUID(), action: 'payment_confirmed', createdAt: now },
    payments: [{ ...payment, stateDetails: { state: 'confirmed', createdAt: now }, updatedAt: now }],
  };
}

export const int32Limit = 2 ** 31;
/** What a 32-bit integer column makes of an amount: 2^31 becomes -2^31, 2^53-1 becomes -1. */
export const asInt32 = (amount: number) => amount | 0;

/** Applies an edit to the field at the path (keys, `[]` for every element of an array) in every object the path reaches. */
export function atPath(value: Json, path: string[], edit: (holder: Json, name: string) => void): void {
  if (value === null || typeof value !== 'object') return;
  const [head, ...rest] = path;
  if (head === '[]') {
    if (Array.isArray(value)) for (const element of value) atPath(element, rest, edit);
  } else if (rest.length === 0) {
    if (head in value) edit(value, head);
  } else atPath(value[head], rest, edit);
}

/** Now, as the reference sandbox writes an instant: to the second, at +00:00. */
export const nowIso = () => new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');

/** A refusal written as the reference sandbox writes its own. */
export function refusal(status: number, code: string, message: string, field: string | null) {
  const reason = { code, message, field, rule: message, clauses: [] as string[] };
  return answer(status, { success: false, date: nowIso(), error: reason, errors: [reason] });
}

/** The checkout whose hosted page (/pay/{id}) a path names: the form post of the hosted page and of the embed widget. */
export function checkoutOfPayPath(path: string, proxy: ProxyContext) {
  const match = /^\/pay\/([^/]+)\/?$/.exec(path);
  return match ? proxy.checkouts.get(decodeURIComponent(match[1])) : undefined;
}

/** The checkout a payment was made for: the pay helper's, or the hosted form's. */
export function paidCheckout(request: ProxyRequest, proxy: ProxyContext) {
  if (request.route === 'payCheckout' && request.param) return proxy.checkouts.get(request.param);
  return request.method === 'POST' && request.route === 'other' ? checkoutOfPayPath(request.path, proxy) : undefined;
}

/** Rule 3 of 2.2 holds for the body: method code and layout absent or among those that store. */
export const rule3Holds = (body: Json) => {
  const code = body?.payment?.paymentMethod?.code;
  const layout = body?.page?.layout;
  return (code === undefined || code === 'CC' || code === 'MW') && (layout === undefined || layout === 'basic' || layout === 'default');
};

/** A URL of a scheme of its own (a mobile deep link), not http or https. */
export const isCustomScheme = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url) && !/^https?:/i.test(url);

export const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The secret the reference sandbox signs notifications with unless told otherwise. */
export const sandboxSecret = 'sandbox-notification-secret';

/**
 * A notification with another body, signed again where the target's signature verifies with the
 * sandbox's secret: the departure is the body, not a broken signature.
 */
export function withBody(delivery: Delivery, json: Json): Delivery {
  const headers = { ...delivery.headers };
  const written = headers['paypay-signature'];
  const ts = written ? /(?:^|,)ts=(\d+)/.exec(written)?.[1] : undefined;
  if (written && ts && signature(sandboxSecret, JSON.stringify(delivery.json), Number(ts)) === written) {
    headers['paypay-signature'] = signature(sandboxSecret, JSON.stringify(json), Number(ts));
  }
  return { ...delivery, json, headers };
}

/** Applies `edit` to every payment a notification carries (signed again). */
export const editNotifiedPayments =
  (edit: (payment: Json, proxy: ProxyContext) => void) =>
  (delivery: Delivery, proxy: ProxyContext): Delivery[] => {
    const payments = (delivery.json as Json)?.payments;
    if (!Array.isArray(payments)) return [delivery];
    const json = structuredClone(delivery.json as Json);
    json.payments.forEach((payment: Json) => payment && edit(payment, proxy));
    return JSON.stringify(json) === JSON.stringify(delivery.json) ? [delivery] : [withBody(delivery, json)];
  };
