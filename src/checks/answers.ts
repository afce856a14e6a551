/**
 * The verdict on one answer, whoever sent the request: what the request is (broken, owed
 * acceptance, or free to be refused), what its answer owes, which clauses it let one verify and what
 * the INFO clauses record of it. Every freedom a target has over a single answer is decided here:
 * the run's answer tests, the model and observe all take their verdict from judgeAnswer, told what
 * each of them knows.
 */
import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import type { CheckoutRequest, ReferenceRequest } from '../../schemas/generated/types.ts';
import { titleOf, type OperationName } from '../core/operations.ts';
import { validateRequest } from '../core/schemas.ts';
import { everydayAmounts } from '../core/checkout-rows.ts';
import { checkCheckoutAnswer, classifyCheckout, type CheckoutClassification } from './checkout-kinds.ts';
import type { AnswerContext } from './checkouts.ts';
import { checkServedAtPath } from './envelope.ts';
import { checkStoredMethods, storedMethodsOf } from './payment-methods.ts';
import { isRefusal, isSuccess, show, type Check, type Exchange, type Problem } from './problem.ts';
import { checkConfirmed, checkPayment, checkReferenceCreated, paymentOf, writtenPastTheMillisecond } from './references.ts';
import { brokenRules, checkRefused, type BrokenRule } from './refusal.ts';

export type ReferenceKind =
  /** Breaks rules of 2.5: to be refused (REF-9). */
  | { kind: 'broken'; rules: BrokenRule[] }
  /** Valid, its window still to come or open: to be accepted (REF-1). */
  | { kind: 'owed' }
  /**
   * A target may refuse it: a body that breaks a documented type of 2.5 that REF-9 does not name (REF-1:
   * not a valid body), or its window over when sent (REF-1 leaves it open), each recorded under REF-10;
   * or an amount past the everyday ones, or a validDate written past the millisecond (SEC-2).
   */
  | { kind: 'free'; freedom: 'REF-10' | 'SEC-2'; why: string };

/** What a reference request sent at `sentAt` is (see ReferenceKind). */
export function classifyReference(request: unknown, sentAt: number): ReferenceKind {
  const rules = brokenRules('createReference', request);
  if (rules.length > 0) return { kind: 'broken', rules };
  const [typeBroken] = validateRequest('createReference', request);
  if (typeBroken)
    return {
      kind: 'free',
      freedom: 'REF-10',
      why: `a body that breaks a documented type of 2.5 (${typeBroken.path || 'the body'}: expected ${typeBroken.expected}, got ${show(typeBroken.actual)})`,
    };
  const { amount, validDate } = request as ReferenceRequest;
  if (amount < everydayAmounts.min || amount > everydayAmounts.max)
    return { kind: 'free', freedom: 'SEC-2', why: `amount ${show(amount)}, past the everyday amounts` };
  const finer = (['start', 'end'] as const).find((edge) => writtenPastTheMillisecond(validDate[edge]));
  if (finer)
    return { kind: 'free', freedom: 'SEC-2', why: `validDate.${finer} written past the millisecond (${validDate[finer]}), a precision a target may not keep` };
  if (Date.parse(validDate.end) < sentAt) return { kind: 'free', freedom: 'REF-10', why: `a window that had ended (${validDate.end}) when it was sent` };
  return { kind: 'owed' };
}

/**
 * The answer to any reference request, by its kind (classified here unless the caller did): a broken
 * one refused (each rule it breaks), a refusal only where the target was free to refuse, else
 * created (REF-1). `sentAt` is when it was sent: a reference's window may have ended by then.
 */
export function checkReferenceAnswer(exchange: Exchange, context: { sentAt: number; kind?: ReferenceKind }): Problem[] {
  const kind = context.kind ?? classifyReference(exchange.request.body, context.sentAt);
  if (kind.kind === 'broken') return kind.rules.flatMap((rule) => checkRefused(exchange, rule));
  if (kind.kind === 'free' && isRefusal(exchange.response.status)) return [];
  return checkReferenceCreated(exchange);
}

/**
 * A payment read, at the stage it is at: the whole shape of 2.6 and a confirmed payment's REF-6 once
 * confirmed, the types of the fields it carries before. `confirmed` where the caller knows the stage;
 * else the payment's own state says. A read that is not answered shows no state: REF-3 alone owns it.
 */
export function checkPaymentAnswer(exchange: Exchange, context: { confirmed?: boolean } = {}): Problem[] {
  const confirmed = context.confirmed ?? paymentOf(exchange)?.stateDetails?.state === 'confirmed';
  const stateShown = confirmed && isSuccess(exchange.response.status);
  return [...checkPayment(exchange, { stage: confirmed ? 'confirmed' : 'not yet paid' }), ...(stateShown ? checkConfirmed(exchange) : [])];
}

/** The operations of the reference, whose every answer judgeAnswer judges. */
export type AnsweredOperation = Extract<OperationName, 'createCheckout' | 'createReference' | 'getPayment' | 'listMethods'>;

/** The checks judgeAnswer judges each operation's answer by: where a test or a judge takes its verdict from judgeAnswer, what it can fail. */
export const answerChecks: Readonly<Record<AnsweredOperation, readonly Check[]>> = {
  createCheckout: [checkServedAtPath, checkCheckoutAnswer],
  createReference: [checkServedAtPath, checkReferenceAnswer],
  getPayment: [checkServedAtPath, checkPaymentAnswer],
  listMethods: [checkServedAtPath, checkStoredMethods],
};

/** What the caller knows beyond the exchange. What it does not know is left free. */
export interface Known extends AnswerContext {
  /** When the request was sent (else now, the latest it can have been): a reference whose window had ended by then may be refused (REF-10). */
  sentAt?: number;
  /** The request went with the credentials the suite was given; where not known (observed traffic), a 401 or 403 is recorded (SEC-1). */
  suiteCredentials?: boolean;
  /** A payment read: its creation was seen; an id whose creation was not may be answered anything but a 2xx (REF-10). */
  paymentCreated?: boolean;
  /** A payment read: whether it is confirmed; where not known, the payment's own state says what it owes. */
  confirmed?: boolean;
  /** A list: what its customer has stored. With nothing, a 404 is its empty list; a customer not known may be answered anything but a 2xx (PML-7). */
  stored?: 'nothing' | 'methods';
}

/** The INFO clauses a verdict's notes record: the status and envelope seen, and every freedom a target may take over one answer. */
export const noteClauses = ['ENV-3', 'ENV-5', 'REF-10', 'PML-7', 'SEC-1', 'SEC-2', 'CHK-13'] as const;

/** An INFO clause's record of what the target did where the reference says "not shown". */
export interface Note {
  clause: (typeof noteClauses)[number];
  note: string;
  value: unknown;
}

export interface Verdict {
  /** The MUST and SHOULD clauses the answer let one verify, whether they passed or not. */
  verified: ClauseId[];
  problems: Problem[];
  notes: Note[];
  /** The freedom the target took (also among the notes), where it took one: the answer then owes nothing more. */
  taken: Note | null;
}

const tookFreedom = (taken: Note): Verdict => ({ verified: [], problems: [], notes: [taken], taken });

const statusNote = (operation: AnsweredOperation, exchange: Exchange): Note => ({
  clause: 'ENV-5',
  note: `${titleOf(operation)} answered ${exchange.response.status} (${exchange.response.headers['content-type'] ?? 'no Content-Type'})`,
  value: { status: exchange.response.status, contentType: exchange.response.headers['content-type'] ?? null },
});

/** Where a creation's request broke rules, the clauses it verified; where the target refused what it was free to, that freedom; else null. */
function verdictOfKind(exchange: Exchange, kind: CheckoutClassification | ReferenceKind, problems: Problem[]): Verdict | null {
  if (kind.kind === 'broken') return { verified: kind.rules.map((rule) => rule.clause), problems, notes: [], taken: null };
  const { status, body } = exchange.response;
  if (kind.kind !== 'free' || !isRefusal(status)) return null;
  return tookFreedom({ clause: kind.freedom, note: `${kind.why}, refused with ${status}`, value: { request: exchange.request.body, response: body } });
}

function checkoutVerdict(exchange: Exchange, known: Known): Verdict {
  const kind = classifyCheckout(exchange.request.body);
  const problems = checkCheckoutAnswer(exchange, { ...known, kind });
  const byKind = verdictOfKind(exchange, kind, problems);
  if (byKind) return byKind;
  const row: ClauseId[] = kind.kind === 'row' ? ['CHK-6'] : [];
  const layoutJudged = (exchange.request.body as CheckoutRequest).page?.layout === 'default' && known.answersItsRequest !== false;
  const verified: ClauseId[] = isSuccess(exchange.response.status)
    ? ['ENV-1', 'ENV-2', 'ENV-4', 'CHK-1', 'CHK-2', 'CHK-3', 'CHK-4', ...(layoutJudged ? (['CHK-5'] as const) : []), ...row]
    : ['CHK-1', ...row];
  return { verified, problems, notes: [statusNote('createCheckout', exchange)], taken: null };
}

function referenceVerdict(exchange: Exchange, known: Known): Verdict {
  // A request the target made wait left again after the wait: its window is judged as it was then.
  const sentAt = known.sentAt === undefined ? Date.now() : known.sentAt + (exchange.response.waitedMs ?? 0);
  const kind = classifyReference(exchange.request.body, sentAt);
  const problems = checkReferenceAnswer(exchange, { sentAt, kind });
  const byKind = verdictOfKind(exchange, kind, problems);
  if (byKind) return byKind;
  const { status, body } = exchange.response;
  const notes: Note[] = [statusNote('createReference', exchange), { clause: 'REF-10', note: `${titleOf('createReference')} answered ${status}`, value: body }];
  return { verified: ['ENV-4', 'REF-1'], problems, notes, taken: null };
}

function paymentVerdict(exchange: Exchange, known: Known): Verdict {
  const { status, body } = exchange.response;
  if (!isSuccess(status) && !known.paymentCreated)
    return tookFreedom({ clause: 'REF-10', note: `a payment id whose creation was not seen answered ${status}`, value: body });
  const payment = paymentOf(exchange);
  const confirmed = known.confirmed ?? payment?.stateDetails?.state === 'confirmed';
  const apiVersion = (body as { apiVersion?: unknown } | null)?.apiVersion;
  const notes: Note[] = [
    statusNote('getPayment', exchange),
    { clause: 'ENV-3', note: apiVersion === undefined ? 'no apiVersion' : `apiVersion ${show(apiVersion)}`, value: apiVersion ?? null },
    ...(confirmed
      ? []
      : [{ clause: 'REF-10' as const, note: `a payment not yet confirmed, in state ${show(payment?.stateDetails?.state)}`, value: payment ?? body }]),
  ];
  const verified: ClauseId[] = isSuccess(status)
    ? [
        'ENV-1',
        'REF-4',
        ...(typeof payment?.referenceDetails?.reference === 'string' ? (['REF-2'] as const) : []),
        ...(confirmed ? (['REF-3', 'REF-6'] as const) : []),
      ]
    : ['REF-3'];
  return { verified, problems: checkPaymentAnswer(exchange, { confirmed }), notes, taken: null };
}

function listVerdict(exchange: Exchange, known: Known): Verdict {
  const { status, body } = exchange.response;
  const mayBeRefused = known.stored === undefined || (known.stored === 'nothing' && status === 404);
  if (!isSuccess(status) && mayBeRefused) return tookFreedom({ clause: 'PML-7', note: `a list answered ${status}`, value: body });
  const problems = checkStoredMethods(exchange);
  const notes = [statusNote('listMethods', exchange)];
  if (!isSuccess(status)) return { verified: ['PML-1'], problems, notes, taken: null };
  const methods = storedMethodsOf(exchange);
  const types = new Set(methods.map((method) => method?.type));
  const verified: ClauseId[] = [
    'ENV-1',
    'ENV-2',
    'PML-1',
    ...(methods.length > 0 ? (['PML-2'] as const) : []),
    ...(types.has('CC') ? (['PML-3'] as const) : []),
    ...(types.has('MW') ? (['PML-4'] as const) : []),
    ...(methods.length > 1 ? (['PML-6'] as const) : []),
  ];
  return { verified, problems, notes, taken: null };
}

/** An operation not served at its path: a redirect elsewhere, or 405; 404 only to a creation (a query may answer 404 for an id or a customer it does not know). */
const notServedAtPath = (operation: AnsweredOperation, status: number) =>
  (status >= 300 && status < 400) || status === 405 || (status === 404 && (operation === 'createCheckout' || operation === 'createReference'));

/**
 * The verdict on one answer of an operation of the reference, given what the caller knows. An
 * operation not served at its path is judged on ENV-4 only: its other checks would blame clauses
 * the fault does not break.
 */
export function judgeAnswer(operation: AnsweredOperation, exchange: Exchange, known: Known = {}): Verdict {
  const { status, body } = exchange.response;
  if (!known.suiteCredentials && (status === 401 || status === 403))
    return tookFreedom({ clause: 'SEC-1', note: `${titleOf(operation)} refused with ${status}`, value: body });
  if (notServedAtPath(operation, status)) return { verified: ['ENV-4'], problems: checkServedAtPath(exchange), notes: [], taken: null };
  switch (operation) {
    case 'createCheckout':
      return checkoutVerdict(exchange, known);
    case 'createReference':
      return referenceVerdict(exchange, known);
    case 'getPayment':
      return paymentVerdict(exchange, known);
    case 'listMethods':
      return listVerdict(exchange, known);
  }
}

/** Where the suite's checkout was refused under a freedom the target has: that freedom, for the record; else null. */
export function freedomTaken(exchange: Exchange): { freedom: string; why: string } | null {
  const { taken } = judgeAnswer('createCheckout', exchange, { suiteCredentials: true });
  return taken && { freedom: taken.clause, why: taken.note };
}
