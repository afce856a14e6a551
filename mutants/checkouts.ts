/** Mutants of the CHK clauses: creating checkouts (2.2, 2.3, 4.1). */
import { randomUUID } from 'node:crypto';
import {
  answerWhen,
  editBody,
  editData,
  editRequest,
  isUuid,
  layoutOf,
  withoutOffset,
  type Json,
  asksToStore,
  withQuery,
  first,
  int32Limit,
  asInt32,
} from './edits.ts';
import type { Mutant } from './kinds.ts';
import { titleOf } from '../src/core/operations.ts';

const isPhoneOfRule = (phone: unknown) => typeof phone === 'string' && /^\+?[0-9]{1,4}#[0-9]{1,20}$/.test(phone);

/** The phone number repaired into one the sandbox takes where `lets` lets it through, as a validator that checks too little would. */
const phoneLetThrough = (lets: (phone: string) => boolean) =>
  editRequest('createCheckout', (body) => {
    const customer = body.payment?.customer;
    if (typeof customer?.phoneNumber === 'string' && !isPhoneOfRule(customer.phoneNumber) && lets(customer.phoneNumber)) customer.phoneNumber = '351#912345678';
  });

const customerOf = (request: { json: unknown }): Json => (request.json as Json)?.payment?.customer;
const narrowEmail = /^[a-z0-9.-]+@[a-z0-9.-]+\.[a-z]{2,7}$/;

/** Whether the request's text has a character past the Basic Multilingual Plane (four bytes in UTF-8). */
const hasAstralCharacter = (request: { text: string }) => [...request.text].some((character) => character.codePointAt(0)! > 0xffff);

export const checkoutMutants: Mutant[] = [
  {
    name: 'astral-characters-crash-checkout',
    clause: 'CHK-1',
    description:
      'A checkout whose text holds a character past the Basic Multilingual Plane (an emoji) fails with 500, as a database column of three-byte UTF-8 does.',
    transform: answerWhen((request) => request.route === 'createCheckout' && hasAstralCharacter(request), 500),
  },
  {
    name: 'checkout-data-in-array',
    clause: 'CHK-1',
    description: `${titleOf('createCheckout')} answers \`data\` as a one-element array instead of the checkout object.`,
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
    transform: editData(
      ['createCheckout'],
      (data) => typeof data.stateDetails?.timestamp === 'string' && (data.stateDetails.timestamp = withoutOffset(data.stateDetails.timestamp)),
    ),
  },
  {
    name: 'default-layout-without-page_layout',
    clause: 'CHK-5',
    description: '`checkoutUrl` of a layout-default checkout lacks the `page_layout` parameter.',
    transform: editData(
      ['createCheckout'],
      (data) => typeof data.checkoutUrl === 'string' && (data.checkoutUrl = withQuery(data.checkoutUrl, (query) => query.delete('page_layout'))),
    ),
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
      if (layoutOf(body) === 'embed' && !hasAction)
        body.redirects = [...(Array.isArray(body.redirects) ? body.redirects : []), { type: 'action', url: 'https://merchant.example/added-by-mutant' }];
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
      if (payment.billingAddress && 'country' in payment.billingAddress && !/^[A-Za-z]{2}$/.test(payment.billingAddress.country))
        payment.billingAddress.country = 'PT';
      for (const redirect of Array.isArray(body.redirects) ? body.redirects : []) {
        if (redirect && (typeof redirect.url !== 'string' || !URL.canParse(redirect.url))) redirect.url = 'https://merchant.example/done';
      }
    }),
  },
  {
    name: 'non-object-body-crashes',
    clause: 'CHK-12',
    description: `${titleOf('createCheckout')} with a body that is not a JSON object answers 500.`,
    transform: answerWhen(
      (request) => request.route === 'createCheckout' && (request.json === null || typeof request.json !== 'object' || Array.isArray(request.json)),
      500,
    ),
  },
  {
    name: 'storing-checkout-ids-repeated',
    clause: 'CHK-7',
    description:
      'Every checkout that asks to store a method is answered with the `id` and `paymentId` of the first such checkout; the others are numbered apart.',
    transform: editData(['createCheckout'], (data, proxy, request) => {
      if (!asksToStore(request.json)) return;
      data.id = first(proxy, 'storing id', data.id);
      data.paymentId = first(proxy, 'storing paymentId', data.paymentId);
    }),
  },
  {
    name: 'storing-checkout-createdAt-with-T',
    clause: 'CHK-3',
    description:
      'A checkout that stores the method (createRegistration or allowRegistration) answers `data.createdAt` written with `T`; every other checkout is right.',
    transform: editData(
      ['createCheckout'],
      (data, _proxy, request) => asksToStore(request.json) && typeof data.createdAt === 'string' && (data.createdAt = data.createdAt.replace(' ', 'T')),
    ),
  },
  {
    name: 'checkout-amount-int32',
    clause: 'CHK-8',
    description: "A checkout's payment stores its amount in a 32-bit integer: from 2^31 on, GET /payments/{paymentId} shows another amount.",
    transform: editData(['getPayment'], (data, proxy) => {
      if (!proxy.payments.has(data?.id) && Number.isInteger(data?.amount) && data.amount >= int32Limit) data.amount = asInt32(data.amount);
    }),
  },
  {
    name: 'rule-3-ignored-for-unknown-codes',
    clause: 'CHK-10',
    description: 'Rule 3 is checked against the listed codes only: storing with a code it does not know (DD, cc, mw) is taken as a card.',
    transform: editRequest('createCheckout', (body) => {
      const method = body.payment?.paymentMethod;
      if (asksToStore(body) && typeof method?.code === 'string' && !['CC', 'MW', 'MB'].includes(method.code)) method.code = 'CC';
    }),
  },
  {
    name: 'layout-case-folded',
    clause: 'CHK-10',
    description: 'page.layout is read in lower case: storing with layout BASIC or Default is created.',
    transform: editRequest('createCheckout', (body) => {
      if (typeof body.page?.layout === 'string' && ['basic', 'default'].includes(body.page.layout.toLowerCase()))
        body.page.layout = body.page.layout.toLowerCase();
    }),
  },
  {
    name: 'email-checked-by-a-narrow-pattern',
    clause: 'CHK-1',
    disturbs: ['CHK-6'],
    description:
      'A checkout whose e-mail address is not small letters, digits, dots and hyphens before a top-level domain of 2 to 7 letters is refused with 400: a plus tag, capitals, an apostrophe, an underscore, .photography.',
    transform: answerWhen((request) => request.route === 'createCheckout' && !narrowEmail.test(customerOf(request)?.email ?? 'a@b.pt'), 400),
  },
  {
    name: 'phone-checked-by-a-narrow-pattern',
    clause: 'CHK-1',
    disturbs: ['CHK-6'],
    description:
      'A checkout whose phone number is not 1 to 3 digits, #, and 9 digits is refused with 400: a country code of 4 digits, a number of 7, 10 or 13.',
    transform: answerWhen(
      (request) => request.route === 'createCheckout' && !/^[0-9]{1,3}#[0-9]{9}$/.test(customerOf(request)?.phoneNumber ?? '351#912345678'),
      400,
    ),
  },
  {
    name: 'redirect-url-checked-by-a-narrow-pattern',
    clause: 'CHK-1',
    disturbs: ['CHK-6'],
    description:
      'A checkout whose https action URL is not https://, a host of small letters, digits and dots, then a path of its own is refused with 400: a port, capitals, an IPv4 address, percent-encoding, no path.',
    transform: answerWhen(
      (request) =>
        request.route === 'createCheckout' &&
        ((request.json as Json)?.redirects ?? []).some(
          (redirect: Json) => /^https:/i.test(String(redirect?.url)) && !/^https:\/\/[a-z][a-z0-9.-]*\/[\w\-./?=&#]*$/.test(String(redirect?.url)),
        ),
      400,
    ),
  },
  {
    name: 'hash-only-phone-accepted',
    clause: 'CHK-11',
    description: 'A phone number is checked only for its #: "#", "351#" and "#912345678" are taken.',
    transform: phoneLetThrough((phone) => phone.includes('#')),
  },
  {
    name: 'phone-letters-accepted',
    clause: 'CHK-11',
    description: 'A phone number is checked only for one # between two non-empty parts: letters around it are taken.',
    transform: phoneLetThrough((phone) => /^[^#]+#[^#]+$/.test(phone)),
  },
  {
    name: 'empty-redirects-taken-as-action',
    clause: 'CHK-9',
    description: 'Rule 1 is checked only where redirects has elements: an embed checkout with redirects [] is created.',
    transform: editRequest('createCheckout', (body) => {
      if (body.page?.layout === 'embed' && Array.isArray(body.redirects) && body.redirects.length === 0)
        body.redirects = [{ type: 'action', url: 'https://merchant.example/added-by-mutant' }];
    }),
  },
  {
    name: 'redirect-without-type-taken-as-action',
    clause: 'CHK-9',
    description: 'A redirect without a type is taken as one of type action.',
    transform: editRequest('createCheckout', (body) => {
      for (const redirect of Array.isArray(body.redirects) ? body.redirects : [])
        if (redirect && typeof redirect === 'object' && redirect.type === undefined) redirect.type = 'action';
    }),
  },
];
