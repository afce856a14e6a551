import { served, statusHint } from '../needs.ts';
import { isRefusal, isSuccess, operationOf, show, type Exchange, type Problem } from './problem.ts';

/**
 * A request that breaks a stated rule is refused: any 4xx, with any body. A 2xx accepts what the
 * reference forbids, a 5xx is a crash rather than a refusal, and a 3xx is neither.
 *
 * Input space (a property per broken case, on targets that refuse broken rules): CHK-9, the embed
 * row with no redirects, or only success/cancel/back ones; CHK-10, a registration with code MB,
 * allowRegistration in layout web, createRegistration in embed; CHK-11, an amount fractional, a
 * string, zero or negative, a malformed uuid, country (PRT, P, 12), phone (no #), e-mail or redirect
 * url; REF-9, end before start, no MB, type refund/PAYMENT/'', amount 0, negative, 5.5 or "100".
 * Not covered: CHK-10 with a method code other than MB. CHK-12 is checkRefusedAndStillServing's.
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

/**
 * A refusal shows a rule enforced only by a target that serves the operation: a 401 or 404 for
 * everything refuses every broken request too. control is a valid request to the same operation:
 * null where it was accepted, else why this test's refusals verify nothing (the test is skipped).
 */
export function unservedReason(control: Exchange): string | null {
  const { status } = control.response;
  if (isSuccess(status)) return null;
  const hint = statusHint(status);
  return `${served.reason}: a valid ${operationOf(control.request)} was answered ${status}${hint ? ` (${hint})` : ''}`;
}
