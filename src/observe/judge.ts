/**
 * The judging of one observed exchange: which operation of the reference it is, and what the answer
 * checks of the registry (src/checks/answers.ts) say of it. Unlike a run, the observer did not choose
 * the request, so those checks first ask what it is: one that breaks a documented rule is judged on
 * whether the target refused it, one the target was free to refuse is recorded, any other on its answer.
 */
import type { CheckoutRequest } from '../../schemas/generated/types.ts';
import { classifyReference, type ReferenceKind } from '../checks/answers.ts';
import { answerChecks } from '../checks/registry.ts';
import { classifyCheckout, type CheckoutKind } from '../checks/checkout-kinds.ts';
import { checkServedAtPath } from '../checks/envelope.ts';
import { storedMethodsOf } from '../checks/payment-methods.ts';
import { isRefusal, isSuccess, show, type Exchange, type Problem } from '../checks/problem.ts';
import { paymentOf } from '../checks/references.ts';
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

/** What a creation's request is (classifyCheckout, classifyReference); null for the queries. */
function kindOf(operation: Operation, exchange: Exchange, sentAt: number): CheckoutKind | ReferenceKind | null {
  if (operation === 'createCheckout') return classifyCheckout(exchange.request.body);
  if (operation === 'createReference') return classifyReference(exchange.request.body, sentAt);
  return null;
}

/**
 * One exchange judged by itself: its verdict from the answer checks of the registry (answerChecks),
 * and here only which clauses it let observe verify and what it records of the INFO clauses.
 * `createdHere` says whether a payment id was created through the observer (an unknown id may be
 * answered 404: REF-10); `sentAt` is when the request went out (a reference's window may have ended).
 */
export function judgeExchange(
  operation: Operation,
  exchange: Exchange,
  createdHere: (paymentId: string) => boolean,
  param: string | null,
  sentAt = Date.now(),
): Judged[] {
  if (operation === 'payCheckout' || operation === 'confirmPayment') return [];
  const title = titleOf(operation);
  const { status, body } = exchange.response;
  if (status === 401 || status === 403) return [judged(title, exchange, [], [], [{ clause: 'SEC-1', note: `${title} refused with ${status}`, value: body }])];
  // An operation of the reference not served at its path: a redirect elsewhere, or 405; 404 only
  // where no unknown id explains it (the queries may answer 404 for an id or customer they do not know).
  const creation = operation === 'createCheckout' || operation === 'createReference';
  if ((status >= 300 && status < 400) || status === 405 || (creation && status === 404))
    return [judged(title, exchange, ['ENV-4'], checkServedAtPath(exchange))];
  const problems = answerChecks[operation](exchange, { sentAt });
  const kind = kindOf(operation, exchange, sentAt);
  if (kind?.kind === 'broken')
    return [
      judged(
        title,
        exchange,
        kind.rules.map((rule) => rule.clause),
        problems,
      ),
    ];
  const freedom = kind?.kind === 'free' && isRefusal(status) ? kind : null;
  if (freedom)
    return [
      judged(
        title,
        exchange,
        [],
        [],
        [{ clause: freedom.freedom, note: `${freedom.why}, refused with ${status}`, value: { request: exchange.request.body, response: body } }],
      ),
    ];
  const notes = [statusNote(title, exchange)];
  switch (operation) {
    case 'createCheckout': {
      const row = kind?.kind === 'row' ? ['CHK-6'] : [];
      const layout = (exchange.request.body as CheckoutRequest).page?.layout;
      const clauses = isSuccess(status)
        ? ['ENV-1', 'ENV-2', 'ENV-4', 'CHK-1', 'CHK-2', 'CHK-3', 'CHK-4', ...(layout === 'default' ? ['CHK-5'] : []), ...row]
        : ['CHK-1', ...row];
      return [judged(title, exchange, clauses, problems, notes)];
    }
    case 'createReference':
      return [
        judged(title, exchange, ['ENV-4', 'REF-1'], problems, [
          ...notes,
          { clause: 'REF-10', note: `POST /payments/references answered ${status}`, value: body },
        ]),
      ];
    case 'getPayment': {
      if (!isSuccess(status) && !(param !== null && createdHere(param))) {
        return [judged(title, exchange, [], [], [{ clause: 'REF-10', note: `a payment id not created through the observer answered ${status}`, value: body }])];
      }
      const payment = paymentOf(exchange);
      const confirmed = payment?.stateDetails?.state === 'confirmed';
      const apiVersion = (body as { apiVersion?: unknown } | null)?.apiVersion;
      notes.push({ clause: 'ENV-3', note: apiVersion === undefined ? 'no apiVersion' : `apiVersion ${show(apiVersion)}`, value: apiVersion ?? null });
      if (!confirmed)
        notes.push({ clause: 'REF-10', note: `a payment not yet confirmed, in state ${show(payment?.stateDetails?.state)}`, value: payment ?? body });
      const clauses = isSuccess(status)
        ? ['ENV-1', 'REF-4', ...(typeof payment?.referenceDetails?.reference === 'string' ? ['REF-2'] : []), ...(confirmed ? ['REF-3', 'REF-6'] : [])]
        : ['REF-3'];
      return [judged(title, exchange, clauses, problems, notes)];
    }
    case 'listMethods': {
      if (!isSuccess(status)) return [judged(title, exchange, [], [], [{ clause: 'PML-7', note: `a list answered ${status}`, value: body }])];
      const methods = storedMethodsOf(exchange);
      const types = new Set(methods.map((method) => method?.type));
      const clauses = [
        'ENV-1',
        'ENV-2',
        'PML-1',
        ...(methods.length > 0 ? ['PML-2'] : []),
        ...(types.has('CC') ? ['PML-3'] : []),
        ...(types.has('MW') ? ['PML-4'] : []),
        ...(methods.length > 1 ? ['PML-6'] : []),
      ];
      return [judged(title, exchange, clauses, problems, notes)];
    }
  }
}
