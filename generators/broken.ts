/**
 * Requests that break exactly one rule or documented type, each labelled with the clause it breaks.
 * Each starts from a valid request and changes one thing.
 */
import fc from 'fast-check';
import type { ReferenceRequest } from '../schemas/generated/types.ts';
import { checkoutVariants } from './checkouts.ts';
import { validReference } from './references.ts';
import { formatWithOffset, httpsUrl, matching, utcOffset } from './values.ts';

export interface BrokenCase {
  name: string;
  /** The clause the request breaks (CHK-9, CHK-10, CHK-11, REF-9). */
  clause: string;
  description: string;
  arbitrary: fc.Arbitrary<unknown>;
}

/** A copy of value with the property at path set (or removed, for undefined). */
export function withValueAt<T>(value: T, path: readonly string[], replacement: unknown): T {
  const copy = structuredClone(value) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (replacement === undefined) delete node[last];
  else node[last] = replacement;
  return copy as T;
}

/** The base arbitrary with the property at path replaced by a value drawn from replacement. */
function breaking<T>(base: fc.Arbitrary<T>, path: readonly string[], replacement: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(base, replacement).map(([value, bad]) => withValueAt(value, path, bad));
}

const { storeMethod, storeWithConsent, embedWeb, embedMobile } = checkoutVariants;
const anyVariant = fc.constantFrom(...Object.values(checkoutVariants)).chain((variant) => variant);
const otherRedirectTypes = fc.constantFrom('success', 'cancel', 'back');

export const brokenCheckouts: BrokenCase[] = [
  {
    name: 'embed without redirects',
    clause: 'CHK-9',
    description: 'page.layout embed and no redirects at all (rule 1).',
    arbitrary: breaking(embedWeb, ['redirects'], fc.constant(undefined)),
  },
  {
    name: 'embed with redirects but none of type action',
    clause: 'CHK-9',
    description: 'page.layout embed, redirects only of other types (rule 1).',
    arbitrary: breaking(embedWeb, ['redirects'], fc.array(fc.record({ type: otherRedirectTypes, url: httpsUrl() }), { maxLength: 3 })),
  },
  {
    name: 'createRegistration with MB',
    clause: 'CHK-10',
    description: 'Storing a payment method with paymentMethod.code MB (rule 3).',
    arbitrary: breaking(storeMethod, ['payment', 'paymentMethod', 'code'], fc.constant('MB')),
  },
  {
    name: 'allowRegistration with MB',
    clause: 'CHK-10',
    description: 'Offering to store a payment method with paymentMethod.code MB (rule 3).',
    arbitrary: breaking(storeWithConsent, ['payment', 'paymentMethod', 'code'], fc.constant('MB')),
  },
  {
    name: 'registration with layout web',
    clause: 'CHK-10',
    description: 'allowRegistration true with page.layout web (rule 3).',
    arbitrary: breaking(storeWithConsent, ['page', 'layout'], fc.constant('web')),
  },
  {
    name: 'registration with layout embed',
    clause: 'CHK-10',
    description: 'createRegistration true with page.layout embed, its action redirect present so rule 1 holds (rule 3).',
    arbitrary: fc
      .tuple(storeMethod, embedWeb)
      .map(([checkout, embed]) => withValueAt(withValueAt(checkout, ['page', 'layout'], 'embed'), ['redirects'], embed.redirects)),
  },
  {
    name: 'amount not an integer',
    clause: 'CHK-11',
    description: 'payment.amount 5.5 or another fraction.',
    arbitrary: breaking(anyVariant, ['payment', 'amount'], fc.oneof(fc.constant(5.5), fc.integer({ min: 0, max: 100_000 }).map((n) => n + 0.25))),
  },
  {
    name: 'amount as a string',
    clause: 'CHK-11',
    description: 'payment.amount "500", a number written as a string.',
    arbitrary: breaking(anyVariant, ['payment', 'amount'], fc.oneof(fc.constant('500'), fc.integer({ min: 1 }).map(String))),
  },
  {
    name: 'amount zero or negative',
    clause: 'CHK-11',
    description: 'payment.amount 0 or below.',
    arbitrary: breaking(anyVariant, ['payment', 'amount'], fc.oneof(fc.constant(0), fc.integer({ min: -1_000_000, max: 0 }))),
  },
  {
    name: 'customer uuid not a UUID',
    clause: 'CHK-11',
    description: 'payment.customer.uuid that is not a UUID.',
    arbitrary: breaking(
      fc.oneof(storeMethod, storeWithConsent),
      ['payment', 'customer', 'uuid'],
      fc.oneof(fc.constantFrom('12345', 'not-a-uuid', 'e2343605-cf46-43de-b20b'), fc.uuid().map((uuid) => uuid.replace(/-/g, '').slice(0, 30))),
    ),
  },
  {
    name: 'country of three letters',
    clause: 'CHK-11',
    description: 'billingAddress.country PRT, not two letters.',
    arbitrary: breaking(fc.oneof(embedWeb, storeWithConsent), ['payment', 'billingAddress', 'country'], fc.constantFrom('PRT', 'ESP', 'P', '12')),
  },
  {
    name: 'phone number without #',
    clause: 'CHK-11',
    description: 'payment.customer.phoneNumber not <country_code>#<number>.',
    arbitrary: breaking(embedWeb, ['payment', 'customer', 'phoneNumber'], matching('^\\+?351 ?9[0-9]{8}$')),
  },
  {
    name: 'e-mail not an e-mail address',
    clause: 'CHK-11',
    description: 'payment.customer.email that is not an e-mail address.',
    arbitrary: breaking(embedWeb, ['payment', 'customer', 'email'], fc.constantFrom('jose.silva', 'jose@', '@email.com', 'jose silva@email.com')),
  },
  {
    name: 'redirect url not a URL',
    clause: 'CHK-11',
    description: 'redirects[0].url that is not a URL (no scheme, or spaces).',
    arbitrary: breaking(
      fc.oneof(embedWeb, embedMobile),
      ['redirects', '0', 'url'],
      fc.constantFrom('www.shop.example/done', 'not a url', '/relative/path', 'https://shop example/done'),
    ),
  },
];

const reference = validReference();

/** A valid reference whose end is moved before its start (by instant, whatever the offsets). */
const endBeforeStart = fc
  .tuple(reference, fc.integer({ min: 1, max: 30 * 24 * 60 * 60 }), utcOffset())
  .map(([request, secondsEarlier, offset]): ReferenceRequest => {
    const start = Date.parse(request.validDate.start);
    return { ...request, validDate: { ...request.validDate, end: formatWithOffset(start - secondsEarlier * 1000, offset) } };
  });

export const brokenReferences: BrokenCase[] = [
  {
    name: 'end before start',
    clause: 'REF-9',
    description: 'validDate.end earlier than validDate.start.',
    arbitrary: endBeforeStart,
  },
  {
    name: 'no MB among availableMethods',
    clause: 'REF-9',
    description: 'availableMethods empty, or with other codes only.',
    arbitrary: breaking(reference, ['availableMethods'], fc.array(fc.record({ code: fc.constantFrom('CC', 'MW', 'mb') }), { maxLength: 3 })),
  },
  {
    name: 'type other than payment',
    clause: 'REF-9',
    description: 'type refund, PAYMENT or empty.',
    arbitrary: breaking(reference, ['type'], fc.constantFrom('refund', 'PAYMENT', '', 'reference')),
  },
  {
    name: 'amount zero or negative',
    clause: 'REF-9',
    description: 'amount 0 or below.',
    arbitrary: breaking(reference, ['amount'], fc.oneof(fc.constant(0), fc.integer({ min: -1_000_000, max: 0 }))),
  },
  {
    name: 'amount not an integer',
    clause: 'REF-9',
    description: 'amount 5.5 or "100".',
    arbitrary: breaking(reference, ['amount'], fc.constantFrom(5.5, 100.25, '100')),
  },
];
