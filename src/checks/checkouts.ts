import type { Checkout, CheckoutRequest } from '../../schemas/generated/types.ts';
import { validateResponse } from '../core/schemas.ts';
import { titleOf } from '../core/operations.ts';
import { checkSuccess, fromSchema, isSuccess, onlyClause, operationOf, show, type Exchange, type Problem } from './problem.ts';
import { checkRefused } from './refusal.ts';
import { paymentOf } from './references.ts';

/**
 * What a check of an answer knows of the target: `answersItsRequest` false for a stateless mock,
 * which answers its example whatever was asked (so the answer cannot show what the request asked for).
 */
export interface AnswerContext {
  answersItsRequest?: boolean;
}

/** The checkout in a POST /checkouts answer, where there is one. */
export function checkoutOf(exchange: Exchange): Checkout | undefined {
  const data = (exchange.response.body as { data?: Checkout } | null)?.data;
  return data && typeof data === 'object' && !Array.isArray(data) ? data : undefined;
}

/**
 * CHK-1..5 (with ENV-1/2 of its envelope): a valid POST /checkouts is accepted and answered per
 * 2.3; for layout default, checkoutUrl carries page_layout.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkCheckoutCreated(exchange: Exchange, context: AnswerContext = {}): Problem[] {
  const refused = checkSuccess(exchange, 'CHK-1');
  if (refused.length > 0) return refused;
  const problems = fromSchema(validateResponse('createCheckout', exchange.response.body), `${operationOf(exchange.request)} response`, 'CHK-1');
  const layout = (exchange.request.body as CheckoutRequest | undefined)?.page?.layout;
  const checkoutUrl = checkoutOf(exchange)?.checkoutUrl;
  if (context.answersItsRequest !== false && layout === 'default' && typeof checkoutUrl === 'string' && URL.canParse(checkoutUrl)) {
    if (!new URL(checkoutUrl).searchParams.has('page_layout')) {
      problems.push({
        clause: 'CHK-5',
        message: `${titleOf('createCheckout')} response /data/checkoutUrl: expected query parameter page_layout for layout default, got ${show(checkoutUrl)}`,
      });
    }
  }
  return problems;
}

/**
 * CHK-1/CHK-2 of a checkout that a later step opens or pays: it was created, and its answer carries
 * the id, paymentId and absolute checkoutUrl of 2.3. The rest of the answer is checkCheckoutCreated's.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkCheckoutUsable(exchange: Exchange): Problem[] {
  const refused = checkSuccess(exchange, 'CHK-1');
  if (refused.length > 0) return refused;
  if (!checkoutOf(exchange)) {
    return [
      {
        clause: 'CHK-1',
        message: `${operationOf(exchange.request)} response /data: expected the checkout object, got ${show((exchange.response.body as { data?: unknown } | null)?.data)}`,
      },
    ];
  }
  return onlyClause(checkCheckoutCreated(exchange), 'CHK-2');
}

/**
 * CHK-6: a variant of 4.1, sent with exactly the contents its row lists, is accepted.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: the rows' edge cases of the property are not fed here (a refusal there fails CHK-1).
 */
export function checkVariantAccepted(exchange: Exchange, context: { variant: string }): Problem[] {
  const { status, body } = exchange.response;
  if (isSuccess(status)) return [];
  return [
    {
      clause: 'CHK-6',
      message: `${operationOf(exchange.request)} with the "${context.variant}" variant of 4.1: expected it accepted, got ${status} with body ${show(body)}`,
    },
  ];
}

/** How opening an address went: the HTTP status it answered, or why no answer came. */
export type Opened = { url: string; status: number } | { url: string; error: string };

/**
 * CHK-2: the checkoutUrl opens (a GET of it answers 2xx).
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: the checkoutUrls of the storing and mobile (default) rows.
 */
export function checkCheckoutUrlOpens(opened: Opened): Problem[] {
  if ('status' in opened && isSuccess(opened.status)) return [];
  return [{ clause: 'CHK-2', message: `GET ${opened.url}: expected the checkoutUrl to open, got ${'error' in opened ? opened.error : opened.status}` }];
}

/**
 * CHK-7: two checkouts created one after the other are told apart by id and by paymentId.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkDistinctCheckouts(first: Exchange, second: Exchange): Problem[] {
  const [a, b] = [checkoutOf(first), checkoutOf(second)];
  const problems: Problem[] = [];
  for (const field of ['id', 'paymentId'] as const) {
    if (a?.[field] !== undefined && a[field] === b?.[field]) {
      problems.push({ clause: 'CHK-7', message: `${titleOf('createCheckout')} twice: expected different data.${field}, got ${show(a[field])} both times` });
    }
  }
  return problems;
}

/**
 * CHK-8 on GET /payments/{paymentId} of a checkout: the payment is for the amount sent, in minor
 * units.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: other amounts, card or wallet checkouts, the payment once made.
 */
export function checkChargedAmount(exchange: Exchange, context: { amount: number }): Problem[] {
  const charged = paymentOf(exchange)?.amount;
  if (charged === context.amount) return [];
  return [
    {
      clause: 'CHK-8',
      message: `${operationOf(exchange.request)} response /data/amount: expected ${context.amount}, the amount sent in minor units, got ${show(charged)}`,
    },
  ];
}

/**
 * CHK-12: a body that is not a JSON object is refused with a 4xx, and a valid checkout sent after it
 * is still created.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: JSON null, a number or a boolean, an empty body, another Content-Type.
 */
export function checkRefusedAndStillServing(refused: Exchange, after: Exchange, context: { broken: string }): Problem[] {
  const problems = checkRefused(refused, { clause: 'CHK-12', broken: context.broken });
  const { status, body } = after.response;
  if (!isSuccess(status)) {
    problems.push({
      clause: 'CHK-12',
      message: `${operationOf(after.request)} with a valid body after ${context.broken}: expected the target still serving (2xx), got ${status} with body ${show(body)}`,
    });
  }
  return problems;
}
