/**
 * The judging of one observed exchange: which operation of the reference it is, and its verdict from
 * judgeAnswer (src/checks/answers.ts), told what the observer knows: when the request went out and
 * whether the payment it reads was created through the observer. Unlike a run, the observer did not
 * choose the request, nor its credentials: what it cannot know is left free.
 */
import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import { judgeAnswer, type Note } from '../checks/answers.ts';
import type { Exchange, Problem } from '../checks/problem.ts';
import { operationAt, titleOf, type OperationName } from '../core/operations.ts';

/** The operations observe judges: the reference's four, and the pay and confirm helpers (what the observer can see cause a change). */
export type JudgedOperation = Extract<OperationName, 'createCheckout' | 'listMethods' | 'createReference' | 'getPayment' | 'payCheckout' | 'confirmPayment'>;

/** The operation a request calls, where observe judges it, and its path parameter; null for any other request. */
export function operationOf(method: string, pathAndQuery: string): { operation: JudgedOperation; param: string | null } | null {
  const called = operationAt(method, pathAndQuery);
  if (!called || !(called.operation.ofReference || called.operation.name === 'payCheckout' || called.operation.name === 'confirmPayment')) return null;
  return { operation: called.operation.name as JudgedOperation, param: called.param };
}

/** What one check made of the traffic. */
export interface Judged {
  /** The report's test title: the operation, or the stateful check. */
  title: string;
  /** The MUST/SHOULD clauses the traffic let it verify, whether they passed or not. */
  clauses: ClauseId[];
  problems: Problem[];
  notes: Note[];
  /** The exchanges that show a failure. */
  exchanges: Exchange[];
}

/**
 * One exchange judged by itself. `createdHere` says whether a payment id was created through the
 * observer; `sentAt` is when the request went out.
 */
export function judgeExchange(
  operation: JudgedOperation,
  exchange: Exchange,
  createdHere: (paymentId: string) => boolean,
  param: string | null,
  sentAt = Date.now(),
): Judged[] {
  if (operation === 'payCheckout' || operation === 'confirmPayment') return [];
  const verdict = judgeAnswer(operation, exchange, { sentAt, paymentCreated: param !== null && createdHere(param) });
  return [{ title: titleOf(operation), clauses: verdict.verified, problems: verdict.problems, notes: verdict.notes, exchanges: [exchange] }];
}
