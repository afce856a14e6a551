import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import type { Exchange, RecordedRequest } from '../core/evidence.ts';
import type { SchemaProblem } from '../core/schemas.ts';

/** One departure from the reference, named against the clause it breaks. */
export interface Problem {
  clause: ClauseId;
  message: string;
}

export type { Exchange } from '../core/evidence.ts';

/** A check: an observation (and its context) in, the problems found out. */
export type Check = (...observation: never[]) => Problem[];

/** "POST /checkouts": how a message names the operation an exchange belongs to. */
export function operationOf(request: RecordedRequest): string {
  return `${request.method} ${new URL(request.url).pathname}`;
}

export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Schema problems as Problems, each named against the first clause its schema keyword serves. */
export function fromSchema(problems: SchemaProblem[], where: string, fallbackClause: ClauseId): Problem[] {
  return problems.map((problem) => ({
    clause: problem.clauses[0] ?? fallbackClause,
    message: `${where} ${problem.path}: expected ${problem.expected}, got ${show(problem.actual)}`,
  }));
}

export const isSuccess = (status: number) => status >= 200 && status < 300;

/** A 4xx: the target refused the request (any 4xx, any body: the reference shows no errors). */
export const isRefusal = (status: number) => status >= 400 && status < 500;

/**
 * A successful answer, else one problem naming the status and body that came instead.
 *
 * Inputs: the scenario classes of the clause it is told (src/generators/classes.ts).
 */
export function checkSuccess(exchange: Exchange, clause: ClauseId): Problem[] {
  const { status, body } = exchange.response;
  if (isSuccess(status)) return [];
  return [{ clause, message: `${operationOf(exchange.request)}: expected a 2xx status, got ${status} with body ${show(body)}` }];
}

export function onlyClause(problems: Problem[], clause: ClauseId): Problem[] {
  return problems.filter((problem) => problem.clause === clause);
}

/** "CHK-5: message" lines, one per problem. */
export function describeProblems(problems: readonly Problem[]): string {
  return problems.map((problem) => `${problem.clause}: ${problem.message}`).join('\n');
}

/** What a test found: the problems of every clause, and whether it reached its judgement. */
export interface Judgement {
  problems: Problem[];
  judged: boolean;
}
