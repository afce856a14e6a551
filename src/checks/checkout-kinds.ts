/**
 * What a checkout request is, by the reference, and so what its answer owes: one that breaks a rule
 * of 2.2 is refused (CHK-9..12); a row of 4.1 is accepted (CHK-6); a storing row with MW in place of
 * CC is accepted too (section 1 and rule 3 name MW as storable); any other valid checkout may be
 * refused (CHK-13: required fields and values beyond those listed are not shown; SEC-2: no bounds),
 * and is answered per 2.3 where accepted. The run, the model and observe all judge by this one policy.
 */
import type { CheckoutRequest } from '../../schemas/generated/types.ts';
import { checkoutRows, everydayAmounts, type CheckoutRow, type Leaf } from '../core/checkout-rows.ts';
import { checkCheckoutCreated, checkCheckoutUsable, checkVariantAccepted, type AnswerContext } from './checkouts.ts';
import { isRefusal, isSuccess, show, type Exchange, type Problem } from './problem.ts';
import { brokenRules, checkRefused, type BrokenRule } from './refusal.ts';

export type CheckoutClassification =
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
export function classifyCheckout(request: unknown): CheckoutClassification {
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
function checkRowAccepted(exchange: Exchange, kind: CheckoutClassification): Problem[] {
  return kind.kind === 'row' ? checkVariantAccepted(exchange, { variant: checkoutRows[kind.row].title }) : [];
}

/**
 * The answer to any checkout, by its kind (classified here unless the caller did): a broken one
 * refused (each rule it breaks), a refusal only where the target was free to refuse, and an accepted
 * one answered per 2.3 (CHK-1..5).
 */
export function checkCheckoutAnswer(exchange: Exchange, context: AnswerContext & { kind?: CheckoutClassification } = {}): Problem[] {
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
