/**
 * What a checkout request is, by the reference, and so what its answer owes: one that breaks a rule
 * of 2.2 is refused (CHK-9..12); a row of 4.1 is accepted (CHK-6); a storing row with MW in place of
 * CC is accepted too (section 1 and rule 3 name MW as storable); any other valid checkout may be
 * refused (CHK-13: required fields and values beyond those listed are not shown; SEC-2: no bounds),
 * and is answered per 2.3 where accepted. The run, the model and observe all judge by this one policy.
 */
import type { CheckoutRequest } from '../../schemas/generated/types.ts';
import { checkCheckoutCreated, checkCheckoutUsable, checkVariantAccepted, type AnswerContext } from './checkouts.ts';
import { isRefusal, isSuccess, show, type Exchange, type Problem } from './problem.ts';
import { brokenRules, checkRefused, type BrokenRule } from './refusal.ts';

/**
 * The amounts every row must be accepted with, 1.00 to 9,999.99 in minor units: the reference shows
 * no bounds (section 8), so past them a target may refuse (SEC-2); Multibanco's limit is 99,999.99.
 */
export const everydayAmounts = { min: 100, max: 999_999 } as const;

/** A leaf of a row's request: any value, or the one its row lists; `optional` where the row may leave it out. */
interface Leaf {
  value?: string | boolean;
  optional?: true;
}
const any: Leaf = {};
const is = (value: string | boolean, optional?: true): Leaf => ({ value, ...(optional && { optional }) });

const product = { 'payment.code': any, 'payment.summary': any };
const billingAddress = {
  'payment.billingAddress.country': any,
  'payment.billingAddress.city': any,
  'payment.billingAddress.street1': any,
  'payment.billingAddress.postCode': any,
};
const customerData = {
  'payment.customer.customerId': any,
  'payment.customer.firstName': any,
  'payment.customer.lastName': any,
  'payment.customer.phoneNumber': any,
  'payment.customer.email': any,
};
const embedded = (layout: string) => ({
  'payment.amount': any,
  ...product,
  ...customerData,
  ...billingAddress,
  'payment.paymentMethod.code': is('CC'),
  'page.language': is('PT'),
  'page.layout': is(layout),
  'redirects.0.type': is('action'),
  'redirects.0.url': any,
});

/**
 * The rows of 4.1 as the leaves of a request (arrays by index), read conservatively: what the row
 * lists with the values the reference shows, and for the embed rows the amount, product and
 * language a checkout carries. A request with any other leaf, or another value, is beyond the rows.
 */
export const checkoutRows = {
  storeMethod: {
    title: 'store a payment method (no page.layout)',
    storing: true,
    leaves: {
      'payment.amount': any,
      'payment.recurring.amountQualifier': is('ESTM'),
      'payment.customer.uuid': any,
      'payment.paymentMethod.code': is('CC'),
      'payment.paymentMethod.details.createRegistration': is(true),
      'page.language': is('PT'),
    },
  },
  storeWithConsent: {
    title: 'store with customer consent',
    storing: true,
    leaves: {
      'payment.amount': any,
      ...product,
      'payment.customer.uuid': any,
      ...billingAddress,
      'payment.paymentMethod.code': is('CC'),
      'payment.paymentMethod.details.allowRegistration': is(true),
      'page.layout': is('basic'),
      'page.language': is('PT', true),
    },
  },
  embedWeb: { title: 'embed in web page', storing: false, leaves: embedded('embed') },
  embedMobile: { title: 'embed in mobile application', storing: false, leaves: embedded('default') },
  atmPage: {
    title: 'ATM payment page',
    storing: false,
    leaves: { 'payment.amount': any, ...product, 'payment.paymentMethod.code': is('MB'), 'page.language': is('PT'), 'page.layout': is('web') },
  },
} satisfies Record<string, { title: string; storing: boolean; leaves: Record<string, Leaf> }>;
export type CheckoutRow = keyof typeof checkoutRows;

export type CheckoutKind =
  /** Breaks documented rules: to be refused. */
  | { kind: 'broken'; rules: BrokenRule[] }
  /** A row of 4.1: to be accepted (CHK-6) and answered per 2.3. */
  | { kind: 'row'; row: CheckoutRow }
  /** Valid and owed acceptance though not a row (CHK-1): a storing row with MW. */
  | { kind: 'owed'; why: string }
  /** Valid, and a target may refuse it: the freedom it takes, and why. */
  | { kind: 'free'; freedom: 'CHK-13' | 'SEC-2'; why: string };

/** The leaves of a JSON value by dotted path: scalars, and empty objects or arrays. */
function leavesOf(value: unknown, path = '', into = new Map<string, unknown>()): Map<string, unknown> {
  const entries = value !== null && typeof value === 'object' ? Object.entries(value) : [];
  if (entries.length === 0) into.set(path, value);
  for (const [key, child] of entries) leavesOf(child, path ? `${path}.${key}` : key, into);
  return into;
}

/** Whether the leaves are exactly a row's, with its values; `code` stands in for the row's method code. */
function hasContentsOf(leaves: Map<string, unknown>, row: CheckoutRow, code: string): boolean {
  const wanted: Record<string, Leaf> = checkoutRows[row].leaves;
  for (const [path, leaf] of Object.entries(wanted)) {
    if (!leaves.has(path) && !leaf.optional) return false;
    const expected = path === 'payment.paymentMethod.code' ? code : leaf.value;
    if (leaves.has(path) && expected !== undefined && leaves.get(path) !== expected) return false;
  }
  return [...leaves.keys()].every((path) => path in wanted);
}

/** Text the rows are sent with: Latin script, up to 128 characters. Past it the reference sets no bound, and a target may refuse (SEC-2). */
const everydayText = /^[\u0020-\u024F]{0,128}$/u;

/**
 * Valid forms of a formatted field that the reference's words do not settle: a target may refuse a
 * row that takes one (CHK-13). "E-mail address" (RFC 6531 letters, a quoted local part),
 * "<country_code>#<number>" (a + before the code), "two-letter country code" (ISO 3166 writes
 * capitals), a redirect `url` (a shop may be required to be on https).
 */
const formsNotSettled: Array<{ path: string; form: RegExp; why: string }> = [
  { path: 'payment.customer.email', form: /[^\x20-\x7e]|"/, why: 'an e-mail address with letters beyond ASCII or a quoted local part' },
  { path: 'payment.customer.phoneNumber', form: /^\+/, why: 'a phone number with + before its country code' },
  { path: 'payment.billingAddress.country', form: /[a-z]/, why: 'a country code in small letters' },
  { path: 'redirects.0.url', form: /^http:/i, why: 'a redirect URL on http' },
];

/** What a checkout request is (see the file's opening comment). */
export function classifyCheckout(request: unknown): CheckoutKind {
  const rules = brokenRules('createCheckout', request);
  if (rules.length > 0) return { kind: 'broken', rules };
  const leaves = leavesOf(request);
  const rows = Object.keys(checkoutRows) as CheckoutRow[];
  const row = rows.find((name) => hasContentsOf(leaves, name, checkoutRows[name].leaves['payment.paymentMethod.code'].value as string));
  const walletRow = rows.find((name) => checkoutRows[name].storing && hasContentsOf(leaves, name, 'MW'));
  if (!row && !walletRow) return { kind: 'free', freedom: 'CHK-13', why: 'a valid checkout beyond the rows of 4.1' };
  const amount = (request as CheckoutRequest).payment?.amount as number;
  if (amount < everydayAmounts.min || amount > everydayAmounts.max)
    return { kind: 'free', freedom: 'SEC-2', why: `amount ${show(amount)}, past the everyday amounts the rows are sent with` };
  const corner = [...leaves].find(([, value]) => typeof value === 'string' && !everydayText.test(value));
  if (corner) return { kind: 'free', freedom: 'SEC-2', why: `text past the everyday at ${corner[0]} (the reference sets no bound)` };
  const unsettled = formsNotSettled.find(({ path, form }) => typeof leaves.get(path) === 'string' && form.test(leaves.get(path) as string));
  if (unsettled) return { kind: 'free', freedom: 'CHK-13', why: `${unsettled.why}, a form the reference leaves open` };
  if (row) return { kind: 'row', row };
  return { kind: 'owed', why: `the row "${checkoutRows[walletRow!].title}" with paymentMethod.code MW, which section 1 and rule 3 name as storable` };
}

/** CHK-6 of a row of 4.1 the target did not accept; nothing for any other checkout. */
function checkRowAccepted(exchange: Exchange, kind: CheckoutKind): Problem[] {
  return kind.kind === 'row' ? checkVariantAccepted(exchange, { variant: checkoutRows[kind.row].title }) : [];
}

/**
 * The answer to any checkout, by its kind (classified here unless the caller did): a broken one
 * refused (each rule it breaks), a refusal only where the target was free to refuse, and an accepted
 * one answered per 2.3 (CHK-1..5).
 */
export function checkCheckoutAnswer(exchange: Exchange, context: AnswerContext & { kind?: CheckoutKind } = {}): Problem[] {
  const kind = context.kind ?? classifyCheckout(exchange.request.body);
  if (kind.kind === 'broken') return kind.rules.flatMap((rule) => checkRefused(exchange, rule));
  if (kind.kind === 'free' && isRefusal(exchange.response.status)) return [];
  return [...checkRowAccepted(exchange, kind), ...checkCheckoutCreated(exchange, context)];
}

/**
 * A checkout that a later step opens or pays, where it was created: its answer carries what 2.3
 * gives to use it (checkCheckoutUsable), and a row refused fails CHK-6 too.
 */
export function checkCheckoutCreatedForUse(exchange: Exchange): Problem[] {
  if (isSuccess(exchange.response.status)) return checkCheckoutUsable(exchange);
  return [...checkRowAccepted(exchange, classifyCheckout(exchange.request.body)), ...checkCheckoutUsable(exchange)];
}
