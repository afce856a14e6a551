/**
 * The judgement of one answer by itself, whoever sent the request: what the request is (broken, owed
 * acceptance, or free to be refused) and what its answer owes. observe takes every answer's verdict
 * from these (the registry's answerChecks); the run's properties judge with the same checks.
 */
import type { ReferenceRequest } from '../../schemas/generated/types.ts';
import { everydayAmounts } from './checkout-kinds.ts';
import type { AnswerContext } from './checkouts.ts';
import { isRefusal, show, type Exchange, type Problem } from './problem.ts';
import { checkConfirmed, checkPayment, checkReferenceCreated, paymentOf } from './references.ts';
import { brokenRules, checkRefused, type BrokenRule } from './refusal.ts';

export type ReferenceKind =
  /** Breaks rules of 2.5: to be refused (REF-9). */
  | { kind: 'broken'; rules: BrokenRule[] }
  /** Valid, its window still to come or open: to be accepted (REF-1). */
  | { kind: 'owed' }
  /** Valid, and a target may refuse it: its window over when sent (REF-1 leaves it open; recorded under REF-10), or an amount past the everyday ones (SEC-2). */
  | { kind: 'free'; freedom: 'REF-10' | 'SEC-2'; why: string };

/** What a reference request sent at `sentAt` is (see ReferenceKind). */
export function classifyReference(request: unknown, sentAt: number): ReferenceKind {
  const rules = brokenRules('reference', request);
  if (rules.length > 0) return { kind: 'broken', rules };
  const { amount, validDate } = request as ReferenceRequest;
  if (amount < everydayAmounts.min || amount > everydayAmounts.max)
    return { kind: 'free', freedom: 'SEC-2', why: `amount ${show(amount)}, past the everyday amounts` };
  if (Date.parse(validDate.end) < sentAt) return { kind: 'free', freedom: 'REF-10', why: `a window that had ended (${validDate.end}) when it was sent` };
  return { kind: 'owed' };
}

/** When a request was sent (a reference's window may have ended), and what is known of the target. */
export interface Sent extends AnswerContext {
  sentAt: number;
}

/** The answer to any reference request, by its kind: a broken one refused (each rule it breaks), a refusal only where the target was free to refuse, else created (REF-1). */
export function checkReferenceAnswer(exchange: Exchange, context: Sent): Problem[] {
  const kind = classifyReference(exchange.request.body, context.sentAt);
  if (kind.kind === 'broken') return kind.rules.flatMap((rule) => checkRefused(exchange, rule));
  if (kind.kind === 'free' && isRefusal(exchange.response.status)) return [];
  return checkReferenceCreated(exchange);
}

/** A payment read, at the stage it shows: the whole shape of 2.6 and a confirmed payment's REF-6 once confirmed, the types of the fields it carries before. */
export function checkPaymentAnswer(exchange: Exchange): Problem[] {
  const confirmed = paymentOf(exchange)?.stateDetails?.state === 'confirmed';
  return [...checkPayment(exchange, { stage: confirmed ? 'confirmed' : 'not yet paid' }), ...(confirmed ? checkConfirmed(exchange) : [])];
}
