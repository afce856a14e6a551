import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import { served, statusHint } from '../core/needs.ts';
import { validateRequest } from '../core/schemas.ts';
import { isRefusal, isSuccess, operationOf, show, type Exchange, type Problem } from './problem.ts';

/** A documented rule a request breaks: its clause, and what broke it. */
export interface BrokenRule {
  clause: ClauseId;
  broken: string;
}

/** The clauses a request that breaks a documented rule is judged by: refused, or a SHOULD finding. */
const refusalClauses = new Set<ClauseId>(['CHK-9', 'CHK-10', 'CHK-11', 'CHK-12', 'REF-9']);

/** The rules of 2.2 (a checkout) or 2.5 (a reference) a request body breaks, a clause at most once. */
export function brokenRules(operation: 'createCheckout' | 'createReference', value: unknown): BrokenRule[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return operation === 'createCheckout' ? [{ clause: 'CHK-12', broken: `a body that is not a JSON object (${show(value)})` }] : [];
  }
  const broken = new Map<ClauseId, string>();
  for (const problem of validateRequest(operation, value)) {
    const clause = problem.clauses.find((id) => refusalClauses.has(id));
    if (clause && !broken.has(clause)) broken.set(clause, `${problem.path} breaking ${clause} (expected ${problem.expected}, got ${show(problem.actual)})`);
  }
  return [...broken].map(([clause, what]) => ({ clause, broken: what }));
}

/**
 * A request that breaks a stated rule is refused: any 4xx, with any body. A 2xx accepts what the
 * reference forbids, a 5xx is a crash rather than a refusal, and a 3xx is neither.
 *
 * Inputs: the broken cases of the clause it is told (src/generators/broken.ts, through src/generators/classes.ts).
 * Not covered: CHK-10 with a method code other than MB. CHK-12 is checkRefusedAndStillServing's.
 */
export function checkRefused(exchange: Exchange, context: BrokenRule): Problem[] {
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
