import type { StoredPaymentMethod } from '../../schemas/generated/types.ts';
import { validateResponse } from '../schemas.ts';
import { checkSuccess, fromSchema, operationOf, show, type Exchange, type Problem } from './problem.ts';

/** What the customer paid with, as the pay helper or the hosted page was given it. */
export type PaidWith =
  | { method: 'CC'; card: { number: string; holder: string; expireMonth: string; expireYear: string } }
  | { method: 'MW'; wallet: { countryCode: string; number: string } };

/** The stored methods of a GET /customers/{uuid}/paymentMethods answer (empty where there is no list). */
export function storedMethodsOf(exchange: Exchange): StoredPaymentMethod[] {
  const data = (exchange.response.body as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? (data as StoredPaymentMethod[]) : [];
}

/** PML-1..4 and PML-6: the list is the versioned envelope holding well-formed methods with distinct uuids. */
export function checkStoredMethods(exchange: Exchange): Problem[] {
  const refused = checkSuccess(exchange, 'PML-1');
  if (refused.length > 0) return refused;
  const where = `${operationOf(exchange.request)} response`;
  const problems = fromSchema(validateResponse('storedPaymentMethods', exchange.response.body), where, 'PML-1');
  const seen = new Set<unknown>();
  storedMethodsOf(exchange).forEach((method, index) => {
    if (method?.uuid !== undefined && seen.has(method.uuid)) {
      problems.push({ clause: 'PML-6', message: `${where} /data/${index}/uuid: expected a uuid no other stored method has, got ${show(method.uuid)} again` });
    }
    seen.add(method?.uuid);
  });
  return problems;
}

function matches(method: StoredPaymentMethod, paid: PaidWith): boolean {
  if (paid.method === 'CC') {
    return (
      method.type === 'CC' &&
      method.last4Digitis === paid.card.number.slice(-4) &&
      method.holder === paid.card.holder &&
      method.expireMonth === paid.card.expireMonth &&
      method.expireYear === paid.card.expireYear
    );
  }
  return method.type === 'MW' && method.countryCode === paid.wallet.countryCode && method.last3Digitis === paid.wallet.number.slice(-3);
}

function describePaid(paid: PaidWith): string {
  return paid.method === 'CC'
    ? `a CC with last4Digitis ${show(paid.card.number.slice(-4))}, holder ${show(paid.card.holder)}, expireMonth ${show(paid.card.expireMonth)}, expireYear ${show(paid.card.expireYear)}`
    : `an MW with countryCode ${show(paid.wallet.countryCode)} and last3Digitis ${show(paid.wallet.number.slice(-3))}`;
}

/** TOK-1/TOK-2 and PML-5: the list holds a method whose values are those paid with. */
export function checkMethodStored(exchange: Exchange, context: { paidWith: PaidWith; clause: string }): Problem[] {
  const methods = storedMethodsOf(exchange);
  if (methods.some((method) => matches(method, context.paidWith))) return [];
  const sameType = methods.some((method) => method?.type === context.paidWith.method);
  return [
    {
      clause: sameType ? 'PML-5' : context.clause,
      message: `${operationOf(exchange.request)} response /data: expected ${describePaid(context.paidWith)}, got ${show(methods)}`,
    },
  ];
}

/** TOK-2/3/4/6: nothing stored (beyond the methods that were there before). */
export function checkNothingStored(exchange: Exchange, context: { clause: string; why: string; before?: StoredPaymentMethod[] }): Problem[] {
  const known = new Set((context.before ?? []).map((method) => method.uuid));
  const added = storedMethodsOf(exchange).filter((method) => !known.has(method?.uuid));
  if (added.length === 0) return [];
  return [{ clause: context.clause, message: `${operationOf(exchange.request)} response /data: expected no stored method ${context.why}, got ${show(added)}` }];
}

/** TOK-5: only cards and mobile wallets are ever stored. */
export function checkOnlyStorableTypes(exchange: Exchange): Problem[] {
  return storedMethodsOf(exchange)
    .map((method, index) => ({ method, index }))
    .filter(({ method }) => method?.type !== 'CC' && method?.type !== 'MW')
    .map(({ method, index }) => ({
      clause: 'TOK-5',
      message: `${operationOf(exchange.request)} response /data/${index}/type: expected CC or MW, got ${show(method?.type)}`,
    }));
}
