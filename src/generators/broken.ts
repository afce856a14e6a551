/**
 * Requests that break exactly one rule or documented type, each labelled with the clause it breaks.
 * Each starts from a valid request and changes one thing.
 */
import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import fc from 'fast-check';
import type { ReferenceRequest } from '../../schemas/generated/types.ts';
import { anyCheckoutVariant, checkoutVariants } from './checkouts.ts';
import { validReference } from './references.ts';
import type { InputClass } from './input-class.ts';
import { formatWithOffset, httpsUrl, matching, utcOffset } from './values.ts';
import { formattedPaths, rowOfLeaf } from './corners.ts';

export interface BrokenCase {
  name: string;
  /** The clause the request breaks (CHK-9, CHK-10, CHK-11, REF-9). */
  clause: ClauseId;
  description: string;
  /** The ways of breaking the rule, each exercised on every run; arbitrary draws from all of them. */
  classes: InputClass[];
  arbitrary: fc.Arbitrary<unknown>;
}

function brokenCase(name: string, clause: ClauseId, description: string, classes: InputClass[]): BrokenCase {
  return { name, clause, description, classes, arbitrary: fc.oneof(...classes.map((c) => c.arbitrary)) };
}

/** One class per value: "<prefix><value>". */
const valueClasses = (prefix: string, base: fc.Arbitrary<unknown>, path: readonly string[], values: readonly unknown[]): InputClass[] =>
  values.map((value) => ({ name: `${prefix}${JSON.stringify(value)}`, arbitrary: breaking(base, path, fc.constant(value)) }));

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

/**
 * What a lenient parser takes for a UUID but its string representation (RFC 9562 section 4: 32 hex
 * digits in groups of 8-4-4-4-12 joined by dashes, either letter case) is not: a GUID's braces, the
 * URN that names it, the 32 digits without their dashes (as JSON Schema's format reads it too), a
 * digit short or long, a letter past f, a dash out of place.
 */
export const uuidNearMisses: ReadonlyArray<readonly [name: string, nearMiss: (uuid: string) => string]> = [
  ['in braces', (uuid) => `{${uuid}}`],
  ['as a URN (urn:uuid:)', (uuid) => `urn:uuid:${uuid}`],
  ['of 32 hex digits without dashes', (uuid) => uuid.replace(/-/g, '')],
  ['of 30 hex digits without dashes', (uuid) => uuid.replace(/-/g, '').slice(0, 30)],
  ['a hex digit short', (uuid) => uuid.slice(0, -1)],
  ['a hex digit long', (uuid) => `${uuid}0`],
  ['with g, not a hex digit', (uuid) => `${uuid.slice(0, -1)}g`],
  ['with its first dash a digit late', (uuid) => `${uuid.slice(0, 8)}${uuid[9]}-${uuid.slice(10)}`],
];
const otherRedirectTypes = fc.constantFrom('success', 'cancel', 'back');

const registrations = [
  ['createRegistration', storeMethod],
  ['allowRegistration', storeWithConsent],
] as const;
const codePath = ['payment', 'paymentMethod', 'code'];

/** A storing checkout of each registration with page.layout set (an embed one keeps its action redirect, so that rule 1 holds). */
const storingWithLayout = (layout: string): InputClass[] =>
  registrations.map(([registration, base]) => ({
    name: `${registration} with layout ${JSON.stringify(layout)}`,
    arbitrary: fc.tuple(base, embedWeb).map(([checkout, embed]) => {
      const withLayout = withValueAt(checkout, ['page', 'layout'], layout);
      return layout === 'embed' ? withValueAt(withLayout, ['redirects'], embed.redirects) : withLayout;
    }),
  }));

const storingWithCode = (code: string): InputClass[] =>
  registrations.map(([registration, base]) => ({
    name: `${registration} with code ${JSON.stringify(code)}`,
    arbitrary: breaking(base, codePath, fc.constant(code)),
  }));

/** Each class again without the customer: rule 3 holds whoever the customer is, and whether one is named (presence). */
const alsoWithoutCustomer = (classes: InputClass[]): InputClass[] => [
  ...classes,
  ...classes.map((one) => ({ name: `${one.name}, no customer`, arbitrary: breaking(one.arbitrary, ['payment', 'customer'], fc.constant(undefined)) })),
];

export const brokenCheckouts: BrokenCase[] = [
  brokenCase('embed without redirects', 'CHK-9', 'page.layout embed and no redirects at all (rule 1).', [
    { name: 'redirects absent', arbitrary: breaking(embedWeb, ['redirects'], fc.constant(undefined)) },
    { name: 'redirects empty', arbitrary: breaking(embedWeb, ['redirects'], fc.constant([])) },
  ]),
  brokenCase('embed with redirects but none of type action', 'CHK-9', 'page.layout embed, redirects only of other types (rule 1).', [
    {
      name: 'one redirect of type success',
      arbitrary: breaking(
        embedWeb,
        ['redirects'],
        httpsUrl().map((url) => [{ type: 'success', url }]),
      ),
    },
    {
      name: 'redirects of other types',
      arbitrary: breaking(embedWeb, ['redirects'], fc.array(fc.record({ type: otherRedirectTypes, url: httpsUrl() }), { minLength: 2, maxLength: 3 })),
    },
    {
      name: 'a redirect without a type',
      arbitrary: breaking(
        embedWeb,
        ['redirects'],
        httpsUrl().map((url) => [{ url }]),
      ),
    },
  ]),
  brokenCase(
    'registration with MB',
    'CHK-10',
    'Storing, or offering to store, a payment method with paymentMethod.code MB (rule 3), with the customer or without one.',
    alsoWithoutCustomer(storingWithCode('MB')),
  ),
  brokenCase(
    'registration with another method code',
    'CHK-10',
    'Storing with a paymentMethod.code that is neither CC nor MW: unknown, or CC and MW in lower case (rule 3).',
    alsoWithoutCustomer(['DD', 'cc', 'mw'].flatMap(storingWithCode)),
  ),
  brokenCase(
    'registration with layout web or embed',
    'CHK-10',
    'Storing with page.layout web or embed (rule 3), with the customer or without one.',
    alsoWithoutCustomer(['web', 'embed'].flatMap(storingWithLayout)),
  ),
  brokenCase(
    'registration with another layout',
    'CHK-10',
    'Storing with a page.layout that is neither basic nor default: unknown, or basic and default written otherwise (rule 3).',
    alsoWithoutCustomer(['popup', 'BASIC', 'Default'].flatMap(storingWithLayout)),
  ),
  brokenCase('amount not an integer', 'CHK-11', 'payment.amount with a fraction.', [
    ...valueClasses('amount ', anyCheckoutVariant, ['payment', 'amount'], [5.5]),
    {
      name: 'amount n + 0.25',
      arbitrary: breaking(
        anyCheckoutVariant,
        ['payment', 'amount'],
        fc.integer({ min: 0, max: 100_000 }).map((n) => n + 0.25),
      ),
    },
  ]),
  brokenCase('amount as a string', 'CHK-11', 'payment.amount written as a string.', [
    ...valueClasses('amount ', anyCheckoutVariant, ['payment', 'amount'], ['500']),
    { name: 'amount of any digits as a string', arbitrary: breaking(anyCheckoutVariant, ['payment', 'amount'], fc.integer({ min: 1 }).map(String)) },
  ]),
  brokenCase('amount zero or negative', 'CHK-11', 'payment.amount 0 or below.', [
    ...valueClasses('amount ', anyCheckoutVariant, ['payment', 'amount'], [0, -1]),
    { name: 'amount below -1', arbitrary: breaking(anyCheckoutVariant, ['payment', 'amount'], fc.integer({ min: -1_000_000, max: -2 })) },
  ]),
  brokenCase('customer uuid not a UUID', 'CHK-11', 'payment.customer.uuid that is not a UUID, far from one or a near miss of its string representation.', [
    ...valueClasses('uuid ', fc.oneof(storeMethod, storeWithConsent), ['payment', 'customer', 'uuid'], ['12345', 'not-a-uuid', 'e2343605-cf46-43de-b20b']),
    ...uuidNearMisses.map(([name, nearMiss]) => ({
      name: `uuid ${name}`,
      arbitrary: breaking(fc.oneof(storeMethod, storeWithConsent), ['payment', 'customer', 'uuid'], fc.uuid().map(nearMiss)),
    })),
  ]),
  brokenCase(
    'country not two letters',
    'CHK-11',
    'billingAddress.country of three letters, one letter, digits, a letter and a digit, or two letters and a space.',
    valueClasses('country ', fc.oneof(embedWeb, storeWithConsent), ['payment', 'billingAddress', 'country'], ['PRT', 'P', '12', 'P1', 'PT ']),
  ),
  brokenCase(
    'phone number not <country_code>#<number>',
    'CHK-11',
    'payment.customer.phoneNumber without #, with # but no digits on a side, with letters, with two #, with a dash in place of #, or with spaces around #.',
    [
      { name: 'phone without #', arbitrary: breaking(embedWeb, ['payment', 'customer', 'phoneNumber'], matching('^\\+?351 ?9[0-9]{8}$')) },
      ...valueClasses(
        'phone ',
        embedWeb,
        ['payment', 'customer', 'phoneNumber'],
        ['#', '351#', '#912345678', '351#9123abc78', '35x#912345678', '351#912#345678', '351-912345678', '351 # 912345678'],
      ),
    ],
  ),
  brokenCase(
    'e-mail not an e-mail address',
    'CHK-11',
    'payment.customer.email that is not an e-mail address: no @, nothing on a side of it, a space, an @ unquoted in the local part, two addresses.',
    valueClasses(
      'email ',
      embedWeb,
      ['payment', 'customer', 'email'],
      ['jose.silva', 'jose@', '@email.com', 'jose silva@email.com', 'jose@silva@email.com', 'ana@email.com,rui@email.com'],
    ),
  ),
  brokenCase(
    'redirect url not a URL',
    'CHK-11',
    'redirects[0].url that is not a URL (no scheme, a scheme without its colon, spaces, an IPv6 host left open).',
    valueClasses(
      'url ',
      fc.oneof(embedWeb, embedMobile),
      ['redirects', '0', 'url'],
      ['www.shop.example/done', 'not a url', '/relative/path', 'https://shop example/done', 'https//shop.example/done', 'https://[::1/done'],
    ),
  ),
  brokenCase(
    'a formatted field empty or of another JSON type',
    'CHK-11',
    'Every field of a documented format or pattern that a row of 4.1 leaves open, sent as the empty string or as a number: neither is a value of its type.',
    formattedPaths.flatMap((path) => valueClasses(`${path} `, checkoutVariants[rowOfLeaf(path)], path.split('.'), ['', 12345])),
  ),
];

const reference = validReference();

/** A valid reference whose end is moved before its start (by instant, whatever the offsets). */
const endBeforeStart = fc
  .tuple(reference, fc.integer({ min: 1, max: 30 * 24 * 60 * 60 }), utcOffset())
  .map(([request, secondsEarlier, offset]): ReferenceRequest => {
    const start = Date.parse(request.validDate.start);
    return { ...request, validDate: { ...request.validDate, end: formatWithOffset(start - secondsEarlier * 1000, offset) } };
  });

/**
 * A valid reference whose end is before its start by instant, yet after it as written: start at
 * -12:00, end at +14:00 (a target that compares the strings lets it through).
 */
const endBeforeStartAsWritten = fc.tuple(reference, fc.integer({ min: 1, max: 12 * 60 * 60 })).map(([request, secondsEarlier]): ReferenceRequest => {
  const start = Date.parse(request.validDate.start);
  return { ...request, validDate: { start: formatWithOffset(start, '-12:00'), end: formatWithOffset(start - secondsEarlier * 1000, '+14:00') } };
});

export const brokenReferences: BrokenCase[] = [
  brokenCase('end before start', 'REF-9', 'validDate.end earlier than validDate.start.', [
    {
      name: 'end one second before start',
      arbitrary: reference.map((request) => ({
        ...request,
        validDate: { ...request.validDate, end: new Date(Date.parse(request.validDate.start) - 1000).toISOString() },
      })),
    },
    { name: 'end up to 30 days before start', arbitrary: endBeforeStart },
    { name: 'end before start by instant, after it as written', arbitrary: endBeforeStartAsWritten },
  ]),
  brokenCase(
    'no MB among availableMethods',
    'REF-9',
    'availableMethods empty, or with other codes only.',
    valueClasses('availableMethods ', reference, ['availableMethods'], [[], [{ code: 'CC' }], [{ code: 'mb' }], [{ code: 'CC' }, { code: 'MW' }]]),
  ),
  brokenCase(
    'type other than payment',
    'REF-9',
    'type refund, PAYMENT, empty or reference.',
    valueClasses('type ', reference, ['type'], ['refund', 'PAYMENT', '', 'reference']),
  ),
  brokenCase('amount zero or negative', 'REF-9', 'amount 0 or below.', [
    ...valueClasses('amount ', reference, ['amount'], [0, -1]),
    { name: 'amount below -1', arbitrary: breaking(reference, ['amount'], fc.integer({ min: -1_000_000, max: -2 })) },
  ]),
  brokenCase(
    'amount not an integer',
    'REF-9',
    'amount with a fraction, or written as a string.',
    valueClasses('amount ', reference, ['amount'], [5.5, 100.25, '100']),
  ),
];
