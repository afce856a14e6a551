import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import type { CardPayRequest, StoredPaymentMethod, WalletPayRequest } from '../../schemas/generated/types.ts';
import { validateResponse } from '../core/schemas.ts';
import { checkSuccess, fromSchema, operationOf, show, type Exchange, type Problem } from './problem.ts';

/** What the customer paid with, as the pay helper or the hosted page was given it. */
export type PaidWith = CardPayRequest | WalletPayRequest;

/** The stored methods of a GET /customers/{uuid}/paymentMethods answer (empty where there is no list). */
export function storedMethodsOf(exchange: Exchange): StoredPaymentMethod[] {
  const data = (exchange.response.body as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? (data as StoredPaymentMethod[]) : [];
}

/**
 * PML-1 for a step that reads a list: it is answered. How a target answers for a customer with
 * nothing stored is PML-7's (not shown): a 404 is that customer's empty list, and the checks of what
 * a list must hold (checkMethodCount, checkMethodStored, checkStoredMethods) fail it where something
 * is stored.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkListAnswered(exchange: Exchange): Problem[] {
  return exchange.response.status === 404 ? [] : checkSuccess(exchange, 'PML-1');
}

/** Another customer's methods in a list (foreignMethods): left to TOK-6 by the checks of the list's count and shape. */
export interface Foreign {
  foreign?: readonly unknown[];
}

/** Whether a listed element holds the last digits of what was paid with, in any field (a malformed element of one's own is still one's own). */
function holdsLastDigits(method: unknown, paid: PaidWith): boolean {
  const digits = paid.method === 'CC' ? paid.card.number.slice(-4) : paid.wallet.number.slice(-3);
  return method !== null && typeof method === 'object' && Object.values(method).some((value) => value === digits);
}

/**
 * The elements of a fresh customer's list that are another customer's: those it held before paying
 * anything, and, where it holds more than its payments stored, those that hold the last digits of
 * none of them (another test's customer may store a method while this one pays).
 */
export function foreignMethods(list: Exchange, context: { before: readonly unknown[]; paid: readonly PaidWith[] }): unknown[] {
  const earlier = new Set(context.before.map((method) => JSON.stringify(method)));
  const [fromBefore, since] = [
    storedMethodsOf(list).filter((method) => earlier.has(JSON.stringify(method))),
    storedMethodsOf(list).filter((method) => !earlier.has(JSON.stringify(method))),
  ];
  if (since.length <= context.paid.length) return fromBefore;
  return [...fromBefore, ...since.filter((method) => !context.paid.some((paid) => holdsLastDigits(method, paid)))];
}

/**
 * TOK-6 on the list of a customer the suite registered and paid for: it holds no method of another
 * customer (foreignMethods), whatever shape that method has.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkOnlyOwnMethods(list: Exchange, context: { before: readonly unknown[]; paid: readonly PaidWith[] }): Problem[] {
  const foreign = foreignMethods(list, context);
  if (foreign.length === 0) return [];
  return [
    {
      clause: 'TOK-6',
      message: `${operationOf(list.request)} response /data: expected only the methods of this customer's ${context.paid.length} storing payments, got ${foreign.length} of another customer too: ${show(foreign)}`,
    },
  ];
}

/**
 * The answer without the elements of `foreign`, compared whole (another customer's method may be
 * malformed too): those are TOK-6's (checkNothingStored), not this list's count or shape.
 */
function withoutForeign(exchange: Exchange, foreign: readonly unknown[] = []): Exchange {
  const known = new Set(foreign.map((method) => JSON.stringify(method)));
  const body = exchange.response.body as { data?: unknown } | null;
  if (known.size === 0 || !Array.isArray(body?.data)) return exchange;
  const data = body.data.filter((method) => !known.has(JSON.stringify(method)));
  return { ...exchange, response: { ...exchange.response, body: { ...body, data } } };
}

/** The listed methods that are not among `foreign`. */
export const ownMethods = (exchange: Exchange, foreign?: readonly unknown[]) => storedMethodsOf(withoutForeign(exchange, foreign));

/**
 * PML-1..4 and PML-6: the list is the versioned envelope holding well-formed methods with distinct
 * uuids; the elements of another customer (`foreign`) are left to TOK-6.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: methods stored through allowRegistration (the TOK specs judge values, not shape).
 */
export function checkStoredMethods(answered: Exchange, context: Foreign = {}): Problem[] {
  const refused = checkSuccess(answered, 'PML-1');
  if (refused.length > 0) return refused;
  const exchange = withoutForeign(answered, context.foreign);
  const where = `${operationOf(exchange.request)} response`;
  const problems = fromSchema(validateResponse('listMethods', exchange.response.body), where, 'PML-1');
  const seen = new Set<unknown>();
  storedMethodsOf(exchange).forEach((method, index) => {
    if (method?.uuid !== undefined && seen.has(method.uuid)) {
      problems.push({ clause: 'PML-6', message: `${where} /data/${index}/uuid: expected a uuid no other stored method has, got ${show(method.uuid)} again` });
    }
    seen.add(method?.uuid);
  });
  return problems;
}

/**
 * PML-1: the list has one element per stored method, for a customer with `stored` methods stored
 * (another customer's methods, `foreign`, are TOK-6's).
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkMethodCount(exchange: Exchange, context: { stored: number } & Foreign): Problem[] {
  const methods = ownMethods(exchange, context.foreign);
  if (methods.length === context.stored) return [];
  return [
    {
      clause: 'PML-1',
      message: `${operationOf(exchange.request)} response /data: expected ${context.stored} elements for ${context.stored} stored methods, got ${methods.length}: ${show(methods)}`,
    },
  ];
}

/**
 * PML-3 (CC) or PML-4 (MW), for a customer with a method of that type stored: the list holds an
 * element of that type, whose fields the shape check can then judge.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkMethodTypeListed(exchange: Exchange, context: { type: 'CC' | 'MW' } & Foreign): Problem[] {
  const methods = ownMethods(exchange, context.foreign);
  if (methods.some((method) => method?.type === context.type)) return [];
  return [
    {
      clause: context.type === 'CC' ? 'PML-3' : 'PML-4',
      message: `${operationOf(exchange.request)} response /data: expected an element of type ${context.type} after storing one, got ${show(methods)}`,
    },
  ];
}

/** Letters that Unicode does not decompose into a base letter and a mark, as cards write them. */
const plainLetters: Record<string, string> = { Ł: 'L', Ø: 'O', Đ: 'D', Æ: 'AE', Œ: 'OE', ß: 'SS', Þ: 'TH' };

/** A holder as a card shows it: case, accents and spacing are the issuer's or the target's to normalise. */
const plainName = (name: unknown) =>
  typeof name === 'string'
    ? name
        .normalize('NFD')
        .replace(/\p{M}/gu, '')
        .replace(/\s+/g, ' ')
        .trim()
        .toUpperCase()
        .replace(/[ŁØĐÆŒßÞ]/g, (letter) => plainLetters[letter])
    : name;
/** A telephone country code written 351, +351 or 00351. */
const plainCountryCode = (code: unknown) => (typeof code === 'string' ? code.replace(/^\s*(\+|00)/, '').trim() : code);

/**
 * Whether a stored method holds part of what was paid with: for a card two of its last digits,
 * holder and expiry, for a wallet its last digits. Another customer's method (a target that leaks
 * them) seldom does; one stored with a value written wrong does.
 */
export function holdsPartOf(method: StoredPaymentMethod, paid: PaidWith): boolean {
  const stored = method as unknown as Record<string, unknown>;
  if (stored?.type !== paid.method) return false;
  if (paid.method === 'MW') return stored.last3Digitis === paid.wallet.number.slice(-3);
  const held = [
    stored.last4Digitis === paid.card.number.slice(-4),
    plainName(stored.holder) === plainName(paid.card.holder),
    stored.expireMonth === paid.card.expireMonth && stored.expireYear === paid.card.expireYear,
  ];
  return held.filter(Boolean).length >= 2;
}

/** Whether a stored method holds the values paid with, as the reference lets a target write them. */
export function paidMatches(method: StoredPaymentMethod, paid: PaidWith): boolean {
  if (paid.method === 'CC') {
    return (
      method.type === 'CC' &&
      method.last4Digitis === paid.card.number.slice(-4) &&
      plainName(method.holder) === plainName(paid.card.holder) &&
      method.expireMonth === paid.card.expireMonth &&
      method.expireYear === paid.card.expireYear
    );
  }
  return method.type === 'MW' && plainCountryCode(method.countryCode) === paid.wallet.countryCode && method.last3Digitis === paid.wallet.number.slice(-3);
}

function describePaid(paid: PaidWith): string {
  return paid.method === 'CC'
    ? `a CC with last4Digitis ${show(paid.card.number.slice(-4))}, holder ${show(paid.card.holder)}, expireMonth ${show(paid.card.expireMonth)}, expireYear ${show(paid.card.expireYear)}`
    : `an MW with countryCode ${show(paid.wallet.countryCode)} and last3Digitis ${show(paid.wallet.number.slice(-3))}`;
}

/** The listed methods whose uuid was not among those listed `before`. */
export function methodsAddedSince(exchange: Exchange, before: StoredPaymentMethod[] = []): StoredPaymentMethod[] {
  const known = new Set(before.map((method) => method.uuid));
  return storedMethodsOf(exchange).filter((method) => !known.has(method?.uuid));
}

/**
 * TOK-1/TOK-2 and PML-5: the list holds a method, not there `before` and not that of one of the
 * `others` paid with, whose values are those paid with.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: allowRegistration in layout default.
 */
export function checkMethodStored(
  exchange: Exchange,
  context: { paidWith: PaidWith; clause: ClauseId; before?: StoredPaymentMethod[]; others?: readonly PaidWith[] },
): Problem[] {
  const ofOthers = storedMethodsOf(exchange).filter((method) => context.others?.some((other) => paidMatches(method, other)));
  const methods = methodsAddedSince(exchange, [...(context.before ?? []), ...ofOthers]);
  if (methods.some((method) => paidMatches(method, context.paidWith))) return [];
  const sameType = methods.some((method) => method?.type === context.paidWith.method);
  return [
    {
      clause: sameType ? 'PML-5' : context.clause,
      message: `${operationOf(exchange.request)} response /data: expected ${describePaid(context.paidWith)}, got ${show(methods)}`,
    },
  ];
}

/**
 * TOK-2/3/4/6: nothing stored (beyond the methods that were there before).
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkNothingStored(exchange: Exchange, context: { clause: ClauseId; why: string; before?: StoredPaymentMethod[] }): Problem[] {
  const added = methodsAddedSince(exchange, context.before);
  if (added.length === 0) return [];
  return [{ clause: context.clause, message: `${operationOf(exchange.request)} response /data: expected no stored method ${context.why}, got ${show(added)}` }];
}

/**
 * TOK-6: a customer's list holds none of `others`, the methods another customer's list showed. They
 * are told apart by uuid: the same card stored by two customers is a method in each one's list.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkNoneOfOthers(exchange: Exchange, context: { others: readonly StoredPaymentMethod[]; why: string }): Problem[] {
  const theirs = new Set(context.others.map((method) => method?.uuid).filter((uuid) => typeof uuid === 'string'));
  const found = storedMethodsOf(exchange).filter((method) => theirs.has(method?.uuid));
  if (found.length === 0) return [];
  return [{ clause: 'TOK-6', message: `${operationOf(exchange.request)} response /data: expected none of the methods ${context.why}, got ${show(found)}` }];
}

/**
 * TOK-5: only cards and mobile wallets are ever stored.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkOnlyStorableTypes(exchange: Exchange): Problem[] {
  return storedMethodsOf(exchange)
    .map((method, index) => ({ method, index }))
    .filter(({ method }) => method?.type !== 'CC' && method?.type !== 'MW')
    .map(({ method, index }) => ({
      clause: 'TOK-5',
      message: `${operationOf(exchange.request)} response /data/${index}/type: expected CC or MW, got ${show(method?.type)}`,
    }));
}
