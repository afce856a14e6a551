/**
 * Faults that only one class of input shows (generators/classes.ts), each killed on its own clause
 * by the class every run exercises, whatever the seed; and freedoms of those classes the suite must
 * pass.
 */
import type { BenignVariant, Mutant } from './kinds.ts';
import {
  amountOf,
  answerWhen,
  asksToStore,
  editData,
  first,
  editRequest,
  editStoredMethods,
  mapStrings,
  memoSet,
  rewriteCallbackQuery,
  takeAsSuccess,
  withoutOffset,
  payments,
  type Json,
} from './edits.ts';

const int32Limit = 2 ** 31;
/** What a 32-bit integer column makes of an amount: 2^31 becomes -2^31, 2^53-1 becomes -1. */
const asInt32 = (amount: number) => amount | 0;
const isPhoneOfRule = (phone: unknown) => typeof phone === 'string' && /^\+?[0-9]{1,4}#[0-9]{1,20}$/.test(phone);

/** The phone number repaired into one the sandbox takes where `lets` lets it through, as a validator that checks too little would. */
const phoneLetThrough = (lets: (phone: string) => boolean) =>
  editRequest('createCheckout', (body) => {
    const customer = body.payment?.customer;
    if (typeof customer?.phoneNumber === 'string' && !isPhoneOfRule(customer.phoneNumber) && lets(customer.phoneNumber)) customer.phoneNumber = '351#912345678';
  });

/** A reference's leading zeros as nines: the same reference wherever it shows (a JSON string, a page's text), never one starting with 0. */
const nines = (reference: string) => reference.replace(/^0+/, (zeros) => '9'.repeat(zeros.length));
const referenceInJson = (text: string) => (/^0[0-9]{8}$/.test(text) ? nines(text) : text);
const referenceInPage = (text: string) => text.replace(/(?<![0-9A-Za-z-])0[0-9]{8}(?![0-9A-Za-z-])/g, nines);

const isRecurring = (body: Json) => body?.payment?.recurring?.amountQualifier === 'ESTM';

export const mutants: Mutant[] = [
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
    name: 'reference-zeros-dropped-once-confirmed',
    clause: 'REF-2',
    description: 'A reference keeps its leading zeros until it is paid; the confirmed payment shows it without them.',
    transform: editData(payments, (data) => {
      const reference = data?.referenceDetails?.reference;
      if (data.stateDetails?.state === 'confirmed' && typeof reference === 'string') data.referenceDetails.reference = reference.replace(/^0+/, '');
    }),
  },
  {
    name: 'reference-amount-int32',
    clause: 'REF-5',
    description: 'A reference stores its amount in a 32-bit integer: from 2^31 on, the payment shows another amount.',
    transform: editData(payments, (data, proxy) => {
      if (proxy.payments.has(data?.id) && Number.isInteger(data.amount) && data.amount >= int32Limit) data.amount = asInt32(data.amount);
    }),
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
  {
    name: 'validDate-compared-as-written',
    clause: 'REF-9',
    description: 'validDate.end is compared with validDate.start as strings: an end before the start, written at a later offset, is taken.',
    transform: editRequest('createReference', (body) => {
      const { start, end } = body.validDate ?? {};
      if (typeof start === 'string' && typeof end === 'string' && end > start && Date.parse(end) < Date.parse(start))
        body.validDate.end = new Date(Date.parse(start) + 86_400_000).toISOString();
    }),
  },
  {
    name: 'consent-ignored-for-recurring',
    clause: 'TOK-2',
    description: 'A recurring (ESTM) checkout with allowRegistration never stores the method, whatever the customer answers.',
    transform: editRequest('createCheckout', (body) => {
      if (isRecurring(body) && body.payment?.paymentMethod?.details?.allowRegistration === true) delete body.payment.paymentMethod.details.allowRegistration;
    }),
  },
  {
    name: 'recurring-stored-without-flags',
    clause: 'TOK-4',
    description: 'A recurring (ESTM) checkout is taken as one that stores the method, with neither createRegistration nor allowRegistration.',
    transform: editRequest('createCheckout', (body) => {
      if (isRecurring(body) && !asksToStore(body) && body.payment?.paymentMethod)
        body.payment.paymentMethod.details = { ...body.payment.paymentMethod.details, createRegistration: true };
    }),
  },
  {
    name: 'declined-consenting-payment-stores',
    clause: 'TOK-3',
    description:
      'A declined payment in an `allowRegistration` checkout whose customer consented is taken as a success and stores the method; a declined payment with `createRegistration` stores nothing.',
    transform: editRequest('payCheckout', (body, proxy, request) => {
      const checkout = request.param ? proxy.checkouts.get(request.param) : undefined;
      if (checkout?.request?.payment?.paymentMethod?.details?.allowRegistration !== true || body.storeConsent !== true || body.outcome !== 'failure') return;
      takeAsSuccess(body);
    }),
  },
  {
    name: 'amex-last-digits-reversed',
    clause: 'PML-5',
    description: 'A stored AMEX card (15 digits) shows its last four digits in reverse order; 16-digit cards are right.',
    transform: editStoredMethods((method) => {
      const digits = method.last4Digitis;
      if (method.type === 'CC' && method.brand === 'AMEX' && typeof digits === 'string') method.last4Digitis = [...digits].reverse().join('');
    }),
  },
  {
    name: 'short-country-codes-padded',
    clause: 'PML-5',
    description: 'A stored wallet of a one- or two-digit country code (1, 34) shows it padded to three digits (001, 034); 351 is right.',
    transform: editStoredMethods((method) => {
      if (method.type === 'MW' && typeof method.countryCode === 'string') method.countryCode = method.countryCode.padStart(3, '0');
    }),
  },
  {
    name: 'callback-query-decoded',
    clause: 'EVT-1',
    description: 'The notification goes to callbackUrl with its query percent-decoded: a plain query arrives as sent, an encoded `&` or space does not.',
    transform: rewriteCallbackQuery(decodeURIComponent),
  },
  {
    name: 'half-hour-offsets-dropped',
    clause: 'REF-4',
    // The instant is lost with the offset: the echo of validDate (REF-5) breaks too.
    disturbs: ['REF-5'],
    description:
      'A validity instant the request wrote at an offset of a half or three quarters of an hour (+05:30, +05:45, -09:30) is answered without its offset; whole-hour offsets are kept.',
    transform: editData(payments, (data) => {
      for (const edge of ['start', 'end']) {
        const instant = data.validDate?.[edge];
        if (typeof instant === 'string' && /[+-]\d\d:(30|45)$/.test(instant)) data.validDate[edge] = withoutOffset(instant);
      }
    }),
  },
  {
    name: 'confirmed-callback-payment-without-entity',
    clause: 'REF-3',
    description: 'Once confirmed, the payment of a reference created with `callbackUrl` has no `referenceDetails.entity`; one created without keeps it.',
    transform: editData(payments, (data, proxy, request) => {
      const withCallback = memoSet<string>(proxy, 'with-callback');
      if (request.route === 'createReference' && (request.json as Json)?.callbackUrl !== undefined) withCallback.add(data.id);
      if (request.route === 'getPayment' && data.stateDetails?.state === 'confirmed' && withCallback.has(data.id)) delete data.referenceDetails?.entity;
    }),
  },
];

export const benignVariants: BenignVariant[] = [
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
    name: 'callback-query-reencoded',
    description:
      'The notification goes to callbackUrl with its query encoded anew (a space as +, names and values otherwise as sent): the same query, written otherwise.',
    transform: rewriteCallbackQuery((query) => new URLSearchParams(query).toString()),
  },
];
