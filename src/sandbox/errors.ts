import type { RequestBodies } from '../core/operations.ts';
import { validateRequest, type SchemaProblem } from '../core/schemas.ts';
import { isoWithOffset } from './time.ts';

/** One reason a request is refused. `field` is a dotted path into the body ('' for the body itself). */
export interface RefusalReason {
  code: string;
  message: string;
  field: string | null;
  rule: string;
  clauses: string[];
}

/** Thrown by a handler to refuse a request; the error handler turns it into the refusal body. */
export class Refusal extends Error {
  readonly statusCode: number;
  readonly reasons: RefusalReason[];

  constructor(statusCode: number, reasons: RefusalReason | RefusalReason[]) {
    const list = Array.isArray(reasons) ? reasons : [reasons];
    super(list[0].message);
    this.statusCode = statusCode;
    this.reasons = list;
  }
}

export function refuse(statusCode: number, code: string, message: string, rule: string, field: string | null = null, clauses: string[] = []): Refusal {
  return new Refusal(statusCode, { code, message, field, rule, clauses });
}

/** `{ success: false, date, error, errors }`: `error` is the first reason, `errors` all of them. */
export function refusalBody(reasons: RefusalReason[]) {
  return { success: false, date: isoWithOffset(), error: reasons[0], errors: reasons };
}

const ruleTexts: Record<string, string> = {
  'CHK-9': 'rule 1 of 2.2: an embedded checkout (page.layout embed) requires a redirect of type action',
  'CHK-10': 'rule 3 of 2.2: storing a payment method requires paymentMethod.code CC or MW and page.layout basic or default',
};

function dotted(path: string): string {
  return path.split('/').filter(Boolean).join('.');
}

/** Schema problems of a request body as refusal reasons: the field, and the rule or type it breaks. */
export function reasonsFromProblems(problems: SchemaProblem[]): RefusalReason[] {
  return problems.map((problem) => {
    const ruleClause = problem.clauses.find((clause) => clause in ruleTexts);
    const field = dotted(problem.path);
    const expectation = problem.expected.startsWith('must') ? problem.expected : `expected ${problem.expected}`;
    const shown = problem.actual === undefined ? '' : ` (got ${JSON.stringify(problem.actual)})`;
    return {
      code: ruleClause ? 'rule_broken' : 'invalid_field',
      message: `${field || 'the body'}: ${expectation}${shown}`,
      field,
      rule: ruleClause ? ruleTexts[ruleClause] : expectation,
      clauses: problem.clauses,
    };
  });
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A body of the operation, checked against its schema: 400 when it is not a JSON object, 422 naming each field the schema refuses. */
export function validatedBody<Name extends keyof RequestBodies>(operation: Name, body: unknown): RequestBodies[Name] {
  if (!isJsonObject(body)) {
    throw refuse(400, 'not_an_object', 'the body must be a JSON object', 'the body is a JSON object', '');
  }
  const problems = validateRequest(operation, body);
  if (problems.length > 0) throw new Refusal(422, reasonsFromProblems(problems));
  return body as RequestBodies[Name];
}
