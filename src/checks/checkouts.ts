import type { Checkout, CheckoutRequest } from '../../schemas/generated/types.ts';
import { validateResponse } from '../schemas.ts';
import { checkSuccess, fromSchema, operationOf, show, type Exchange, type Problem } from './problem.ts';

/** The checkout in a POST /checkouts answer, where there is one. */
export function checkoutOf(exchange: Exchange): Checkout | undefined {
  const data = (exchange.response.body as { data?: Checkout } | null)?.data;
  return data && typeof data === 'object' ? data : undefined;
}

/**
 * CHK-1..5 (with ENV-1/2 of its envelope): a valid POST /checkouts is accepted and answered per
 * 2.3; for layout default, checkoutUrl carries page_layout.
 */
export function checkCheckoutCreated(exchange: Exchange): Problem[] {
  const refused = checkSuccess(exchange, 'CHK-1');
  if (refused.length > 0) return refused;
  const problems = fromSchema(validateResponse('checkoutCreated', exchange.response.body), `${operationOf(exchange.request)} response`, 'CHK-1');
  const layout = (exchange.request.body as CheckoutRequest | undefined)?.page?.layout;
  const checkoutUrl = checkoutOf(exchange)?.checkoutUrl;
  if (layout === 'default' && typeof checkoutUrl === 'string' && URL.canParse(checkoutUrl)) {
    if (!new URL(checkoutUrl).searchParams.has('page_layout')) {
      problems.push({ clause: 'CHK-5', message: `POST /checkouts response /data/checkoutUrl: expected query parameter page_layout for layout default, got ${show(checkoutUrl)}` });
    }
  }
  return problems;
}

/** CHK-7: two checkouts created one after the other are told apart by id and by paymentId. */
export function checkDistinctCheckouts(first: Exchange, second: Exchange): Problem[] {
  const [a, b] = [checkoutOf(first), checkoutOf(second)];
  const problems: Problem[] = [];
  for (const field of ['id', 'paymentId'] as const) {
    if (a?.[field] !== undefined && a[field] === b?.[field]) {
      problems.push({ clause: 'CHK-7', message: `POST /checkouts twice: expected different data.${field}, got ${show(a[field])} both times` });
    }
  }
  return problems;
}
