/**
 * The judging of one observed exchange: which operation of the reference it is, and what the checks
 * of a run (src/checks/) say of it. Unlike a run, the observer did not choose the request, so it
 * first asks whether the request was valid: a valid one is judged on its answer's shape, one that
 * breaks a documented rule on whether the target refused it.
 */
import type { CheckoutRequest } from '../../schemas/generated/types.ts';
import { checkCheckoutAnswer, classifyCheckout, freedomTaken } from '../checks/checkout-kinds.ts';
import { checkServedAtPath } from '../checks/envelope.ts';
import { checkStoredMethods, storedMethodsOf } from '../checks/payment-methods.ts';
import { isSuccess, show, type Exchange, type Problem } from '../checks/problem.ts';
import { checkConfirmed, checkPayment, checkReferenceCreated, paymentOf } from '../checks/references.ts';
import { brokenRules, checkRefused, type BrokenRule } from '../checks/refusal.ts';
import { operationAt, titleOf, type OperationName } from '../core/operations.ts';

/** The operations observe judges: the reference's four, and the pay and confirm helpers (what the observer can see cause a change). */
export type Operation = Extract<OperationName, 'createCheckout' | 'listMethods' | 'createReference' | 'getPayment' | 'payCheckout' | 'confirmPayment'>;

/** The operation a request calls, where observe judges it, and its path parameter; null for any other request. */
export function operationOf(method: string, pathAndQuery: string): { operation: Operation; param: string | null } | null {
  const called = operationAt(method, pathAndQuery);
  if (!called || !(called.operation.ofReference || called.operation.name === 'payCheckout' || called.operation.name === 'confirmPayment')) return null;
  return { operation: called.operation.name as Operation, param: called.param };
}

/** An INFO clause's record of what the target did where the reference says "not shown". */
export interface Noted {
  clause: string;
  note: string;
  value: unknown;
}

/** What one check made of the traffic. */
export interface Judged {
  /** The report's test title: the operation, or the stateful check. */
  title: string;
  /** The MUST/SHOULD clauses the traffic let it verify, whether they passed or not. */
  clauses: string[];
  problems: Problem[];
  notes: Noted[];
  /** The exchanges that show a failure. */
  exchanges: Exchange[];
}

const statusNote = (title: string, exchange: Exchange): Noted => ({
  clause: 'ENV-5',
  note: `${title} answered ${exchange.response.status} (${exchange.response.headers['content-type'] ?? 'no Content-Type'})`,
  value: { status: exchange.response.status, contentType: exchange.response.headers['content-type'] ?? null },
});

const judged = (title: string, exchange: Exchange, clauses: string[], problems: Problem[], notes: Noted[] = []): Judged => ({
  title,
  clauses,
  problems,
  notes,
  exchanges: [exchange],
});

/**
 * The checks that one exchange answers by itself. `createdHere` says whether a payment id was
 * created through the observer (an unknown id may be answered 404: REF-10).
 */
export function judgeExchange(operation: Operation, exchange: Exchange, createdHere: (paymentId: string) => boolean, param: string | null): Judged[] {
  const title = titleOf(operation);
  const { status } = exchange.response;
  if (status === 401 || status === 403) {
    return [judged(title, exchange, [], [], [{ clause: 'SEC-1', note: `${title} refused with ${status}`, value: exchange.response.body }])];
  }
  // An operation of the reference not served at its path: a redirect elsewhere, or 405; 404 only
  // where no unknown id explains it (the queries may answer 404 for an id or customer they do not know).
  const creation = operation === 'createCheckout' || operation === 'createReference';
  const misrouted = (status >= 300 && status < 400) || status === 405 || (creation && status === 404);
  if (misrouted && operation !== 'payCheckout' && operation !== 'confirmPayment') return [judged(title, exchange, ['ENV-4'], checkServedAtPath(exchange))];
  switch (operation) {
    case 'createCheckout': {
      const kind = classifyCheckout(exchange.request.body);
      if (kind.kind === 'broken') return judgeRefusals(title, exchange, kind.rules);
      const freedom = freedomTaken(exchange);
      if (freedom)
        return [
          judged(
            title,
            exchange,
            [],
            [],
            [
              {
                clause: freedom.freedom,
                note: `${freedom.why}, refused with ${status}`,
                value: { request: exchange.request.body, response: exchange.response.body },
              },
            ],
          ),
        ];
      const layout = (exchange.request.body as CheckoutRequest).page?.layout;
      const row = kind.kind === 'row' ? ['CHK-6'] : [];
      const clauses = isSuccess(status)
        ? ['ENV-1', 'ENV-2', 'ENV-4', 'CHK-1', 'CHK-2', 'CHK-3', 'CHK-4', ...(layout === 'default' ? ['CHK-5'] : []), ...row]
        : ['CHK-1', ...row];
      return [judged(title, exchange, clauses, checkCheckoutAnswer(exchange), [statusNote(title, exchange)])];
    }
    case 'createReference':
      return judgeRequestThenAnswer(title, exchange, () => {
        return judged(title, exchange, ['ENV-4', 'REF-1'], checkReferenceCreated(exchange), [
          statusNote(title, exchange),
          { clause: 'REF-10', note: `POST /payments/references answered ${status}`, value: exchange.response.body },
        ]);
      });
    case 'getPayment':
      return [judgePayment(title, exchange, param !== null && createdHere(param))];
    case 'listMethods': {
      if (!isSuccess(status)) return [judged(title, exchange, [], [], [{ clause: 'PML-7', note: `a list answered ${status}`, value: exchange.response.body }])];
      const types = new Set(storedMethodsOf(exchange).map((method) => method?.type));
      const count = storedMethodsOf(exchange).length;
      const clauses = [
        'ENV-1',
        'ENV-2',
        'PML-1',
        ...(count > 0 ? ['PML-2'] : []),
        ...(types.has('CC') ? ['PML-3'] : []),
        ...(types.has('MW') ? ['PML-4'] : []),
        ...(count > 1 ? ['PML-6'] : []),
      ];
      return [judged(title, exchange, clauses, checkStoredMethods(exchange), [statusNote(title, exchange)])];
    }
    case 'payCheckout':
    case 'confirmPayment':
      return [];
  }
}

/** A reference that breaks a rule is judged on whether it was refused; a valid one by `judgeAnswer`. */
function judgeRequestThenAnswer(title: string, exchange: Exchange, judgeAnswer: () => Judged): Judged[] {
  const rules = brokenRules('reference', exchange.request.body);
  return rules.length === 0 ? [judgeAnswer()] : judgeRefusals(title, exchange, rules);
}

const judgeRefusals = (title: string, exchange: Exchange, rules: BrokenRule[]): Judged[] =>
  rules.map((rule) => judged(title, exchange, [rule.clause], checkRefused(exchange, rule)));

/**
 * A payment owes the whole shape of 2.6 once confirmed (REF-3), only its fields' types before; an
 * id the observer did not see created may be unknown to the target (REF-10).
 */
function judgePayment(title: string, exchange: Exchange, createdHere: boolean): Judged {
  const { status, body } = exchange.response;
  if (!isSuccess(status) && !createdHere)
    return judged(title, exchange, [], [], [{ clause: 'REF-10', note: `a payment id not created through the observer answered ${status}`, value: body }]);
  const payment = paymentOf(exchange);
  const confirmed = payment?.stateDetails?.state === 'confirmed';
  const clauses = ['ENV-1', 'REF-4', ...(typeof payment?.referenceDetails?.reference === 'string' ? ['REF-2'] : []), ...(confirmed ? ['REF-3', 'REF-6'] : [])];
  const problems = [...checkPayment(exchange, { stage: confirmed ? 'confirmed' : 'not yet paid' }), ...(confirmed ? checkConfirmed(exchange) : [])];
  const apiVersion = (body as { apiVersion?: unknown } | null)?.apiVersion;
  const notes: Noted[] = [
    statusNote(title, exchange),
    { clause: 'ENV-3', note: apiVersion === undefined ? 'no apiVersion' : `apiVersion ${show(apiVersion)}`, value: apiVersion ?? null },
  ];
  if (!confirmed) notes.push({ clause: 'REF-10', note: `a payment not yet confirmed, in state ${show(payment?.stateDetails?.state)}`, value: payment ?? body });
  return judged(title, exchange, isSuccess(status) ? clauses : ['REF-3'], problems, notes);
}
