import { isRefusal, operationOf, show, type Exchange, type Problem } from './problem.ts';

/**
 * A request that breaks a stated rule is refused: any 4xx, with any body. A 2xx accepts what the
 * reference forbids, a 5xx is a crash rather than a refusal, and a 3xx is neither.
 */
export function checkRefused(exchange: Exchange, context: { clause: string; broken: string }): Problem[] {
  const { status, body } = exchange.response;
  if (isRefusal(status)) return [];
  return [
    {
      clause: context.clause,
      message: `${operationOf(exchange.request)} with ${context.broken}: expected a 4xx refusal, got ${status} with body ${show(body)}`,
    },
  ];
}
