/**
 * What the model makes of an answer: the checks of src/checks, fed what the model says is owed.
 * Where the reference leaves the answer open, these allow every answer it allows.
 */
import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import type { Payment as PaymentResource, StoredPaymentMethod } from '../../schemas/generated/types.ts';
import type { RecordedRequest } from '../core/evidence.ts';
import {
  answerChecks,
  checkDistinctCheckouts,
  checkDistinctReferences,
  checkMethodStored,
  checkNotConfirmed,
  checkNothingStored,
  checkNotified,
  checkNotNotified,
  checkOnlyStorableTypes,
  checkPaymentEchoes,
  checkRefused,
  checkRefusedAndStillServing,
  clausesJudgedBy,
  identifiesPayment,
  isSuccess,
  holdsPartOf,
  judgeAnswer,
  paidMatches,
  paymentOf,
  storedMethodsOf,
  type Exchange,
  type KnownPayment,
  type PaidWith,
  type Problem,
} from '../checks/index.ts';
import { forbiddenBy, listKnown, owedMethods, storingClause, storingOpen, type ModelState, type OwedNotification, type ReferenceModel } from './state.ts';

/** Every check the model judges by: judgeAnswer's, for each operation it sends, and those it feeds what it owes. */
export const modelChecks = [
  // What each answer owes by itself.
  ...Object.values(answerChecks).flat(),
  // What answers owe together: new ids, the reference echoed.
  checkDistinctCheckouts,
  checkDistinctReferences,
  checkPaymentEchoes,
  // What a customer's list holds.
  checkMethodStored,
  checkNothingStored,
  checkOnlyStorableTypes,
  // What a payment owes after its confirmation, or for want of one.
  checkNotConfirmed,
  checkNotified,
  checkNotNotified,
];
/** What a refusal owes: the model sends only valid requests, so never asks it. */
const refusalClauses = new Set(clausesJudgedBy([checkRefused, checkRefusedAndStillServing]));
/** The clauses the model can fail: its test is tagged with them, so that the index lists them and the catalogue runs it against those clauses' mutants. */
export const modelClauses = clausesJudgedBy(modelChecks).filter((clause) => !refusalClauses.has(clause));
/**
 * What the model verifies without the test helpers, beyond what each answer's own tests verify:
 * nothing is paid, stored or confirmed, so that new checkouts and references are told apart.
 */
export const modelClausesWithoutHelpers = clausesJudgedBy([checkDistinctCheckouts, checkDistinctReferences]);
/**
 * What customers paying on the hosted page verify, with the helpers or not: what their payments
 * store, or must not. Their payments are approved (which card a target's issuer declines on a page
 * is the target's), so a declined one (TOK-3) is never among them.
 */
export const pagePaymentClauses = clausesJudgedBy([checkMethodStored, checkNothingStored]).filter((clause) => clause !== 'TOK-3');

/** What the model knows of every request it sends: its own credentials, and the resources it created. */
const sentByModel = { suiteCredentials: true, paymentCreated: true } as const;

/** A checkout created, judged by its kind (judgeAnswer); each accepted id is new (CHK-7). */
export function judgeCheckoutCreated(exchange: Exchange, earlier: readonly Exchange[]): Problem[] {
  const { problems } = judgeAnswer('createCheckout', exchange, sentByModel);
  if (problems.length > 0 || !isSuccess(exchange.response.status)) return problems;
  return earlier.flatMap((before) => checkDistinctCheckouts(before, exchange));
}

/** A reference created, sent at `sentAt`: one whose window had not ended must be accepted (REF-1); one whose window had may be refused. */
export function judgeReferenceCreated(exchange: Exchange, sentAt: number): Problem[] {
  return judgeAnswer('createReference', exchange, { ...sentByModel, sentAt }).problems;
}

/** A reference of the sequence as a notification may name it, with what the model knows of it. */
const known = (reference: ReferenceModel): KnownPayment => ({
  id: reference.paymentId,
  ...(reference.reference && { reference: reference.reference }),
  paid: reference.state === 'confirmed',
  window: { start: reference.start, end: reference.end },
});

/**
 * GET /payments/{id}: the shape owed at its stage (REF-2..4), the request echoed where there is one (REF-5), confirmed
 * once confirmed (REF-6), never confirmed after a payment outside its window only (REF-7), and its
 * reference distinct from those of references valid at the same time (REF-8).
 */
export function judgePayment(exchange: Exchange, reference: ReferenceModel, state: ModelState): Problem[] {
  const confirmed = reference.state === 'confirmed';
  const problems = [
    ...judgeAnswer('getPayment', exchange, { ...sentByModel, confirmed }).problems,
    ...(reference.request ? checkPaymentEchoes(exchange, { requested: reference.request }) : []),
  ];
  if (!confirmed && reference.paidOutside) problems.push(...checkNotConfirmed(exchange, { why: 'after a payment outside the validity window only' }));
  const payment = paymentOf(exchange);
  if (!payment || problems.length > 0) return problems;
  const shown = state.references
    .filter((other) => other.paymentId !== reference.paymentId && other.reference !== undefined)
    .map((other): Partial<PaymentResource> => ({
      id: other.paymentId,
      referenceDetails: { reference: other.reference! } as PaymentResource['referenceDetails'],
      validDate: { start: new Date(other.start).toISOString(), end: new Date(other.end).toISOString() },
    }));
  return shown.map((other) => checkDistinctReferences([other, payment])).find((clash) => clash.length > 0) ?? [];
}

const isPaidWith = (paid: Payment['paidWith']): paid is PaidWith => paid.method === 'CC' || paid.method === 'MW';
type Payment = ModelState['payments'][number];

/**
 * A customer's list: its shape (PML-1..4, PML-6), only CC and MW (TOK-5), every method owed there
 * with its values (TOK-1/TOK-2, PML-5), and no other: a method that is there names the clause of
 * the payment it comes from (TOK-6 another customer's, TOK-3 declined, TOK-2 no consent, TOK-4 no
 * registration; TOK-6 where it comes from none of this customer's), but for one of a payment whose
 * storing the reference leaves open (storingOpen: no answer to the offer). Any order; a customer with
 * nothing owed may be answered 404 (PML-7). A payment whose method `mayLackYet` (its time has not
 * passed) may be missing, but explains a method that is there.
 */
export function judgeList(exchange: Exchange, customer: string, state: ModelState, mayLackYet: readonly Payment[] = []): Problem[] {
  const owed = owedMethods(state, customer);
  const verdict = judgeAnswer('listMethods', exchange, { ...sentByModel, stored: owed.every((one) => mayLackYet.includes(one)) ? 'nothing' : 'methods' });
  if (verdict.taken) return [];
  const shape = [...verdict.problems, ...checkOnlyStorableTypes(exchange)];
  if (shape.length > 0 || !listKnown(state, customer)) return shape;
  const listed = storedMethodsOf(exchange);
  const explainedBy = (method: StoredPaymentMethod, payments: Payment[]) =>
    payments.find((payment) => isPaidWith(payment.paidWith) && paidMatches(method, payment.paidWith));
  const problems: Problem[] = [];
  for (const payment of owed.filter((one) => !mayLackYet.includes(one))) {
    const others = owed.filter((other) => other !== payment).map((other) => other.paidWith as PaidWith);
    problems.push(...checkMethodStored(exchange, { paidWith: payment.paidWith as PaidWith, clause: storingClause(payment), others }));
  }
  const missingTypes = new Set(
    owed.filter((payment) => !listed.some((method) => paidMatches(method, payment.paidWith as PaidWith))).map((payment) => payment.paidWith.method),
  );
  const known = state.payments.filter((payment) => !payment.unknown);
  // What a payment the reference leaves open stores (storingOpen) may be there or not.
  const open = known.filter((payment) => payment.checkout.customer === customer && storingOpen(payment));
  // A method of the type of one owed and missing holds other values: that is PML-5, found above.
  const extra = listed.filter((method) => !explainedBy(method, owed) && !explainedBy(method, open) && !missingTypes.has(method?.type as never));
  const own = [...known].reverse().filter((payment) => payment.checkout.customer === customer && forbiddenBy(payment, customer));
  const byClause = new Map<ClauseId, { why: string; methods: StoredPaymentMethod[] }>();
  for (const method of extra) {
    // The payment it holds the values of; else this customer's newest payment of its type that must store nothing and whose values it partly holds (a target may store other values than paid).
    const from = explainedBy(method, known) ?? own.find((payment) => isPaidWith(payment.paidWith) && holdsPartOf(method, payment.paidWith));
    const blame = from ? forbiddenBy(from, customer) : null;
    // A method with the values of no payment of this customer, nor of a payment here: the list holds someone else's.
    const { clause, why } = blame ?? { clause: 'TOK-6' as const, why: "that this customer never paid with (another customer's)" };
    const entry = byClause.get(clause) ?? { why, methods: [] };
    entry.methods.push(method);
    byClause.set(clause, entry);
  }
  for (const [clause, { why, methods }] of byClause) {
    problems.push(...checkNothingStored(exchange, { clause, why, before: listed.filter((method) => !methods.includes(method)) }));
  }
  return problems;
}

/** Whether every method owed on the customer's list is there (the list is read until so, or until it may no longer come). */
export function listSettled(exchange: Exchange, customer: string, state: ModelState): boolean {
  const listed = storedMethodsOf(exchange);
  return owedMethods(state, customer).every((payment) => listed.some((method) => paidMatches(method, payment.paidWith as PaidWith)));
}

/** An owed notification that has come: one naming its payment, at its addresses. */
export const hasCome = (owed: OwedNotification, received: (path: string) => readonly RecordedRequest[]) =>
  owed.paths.some((path) => received(path).some((request) => identifiesPayment(request, known(owed.reference))));

/**
 * What came at an owed notification's addresses that may be it: at callbackUrl (the reference's
 * own), everything; at the webhook, which the sequence's references share, those naming its payment,
 * else those naming none of the sequence's references (it, without what identifies it: EVT-3).
 */
function receivedFor(owed: OwedNotification, state: ModelState, received: (path: string) => readonly RecordedRequest[]): RecordedRequest[] {
  const all = owed.paths.flatMap((path) => received(path));
  if (owed.clause === 'EVT-1') return all;
  const sequence = state.references.map(known);
  const naming = (reference: ReferenceModel) => all.filter((request) => identifiesPayment(request, known(reference), sequence));
  const about = naming(owed.reference);
  if (about.length > 0) return about;
  const namingOthers = new Set(state.references.flatMap(naming));
  return all.filter((request) => !namingOthers.has(request));
}

/**
 * The notifications so far: each owed one whose time has passed came, to its address (EVT-1, EVT-2,
 * EVT-3); none is about a payment of the sequence that was never confirmed (EVT-4), wherever it came.
 */
export function judgeNotifications(state: ModelState, received: (path: string) => readonly RecordedRequest[], now: number, eventMs: number): Problem[] {
  const problems: Problem[] = [];
  for (const owed of state.owed) {
    if (!owed.required || now < owed.dueBy || hasCome(owed, received)) continue;
    const where = owed.clause === 'EVT-1' ? 'callbackUrl' : 'the webhook';
    problems.push(
      ...checkNotified(receivedFor(owed, state, received), {
        payment: known(owed.reference),
        clause: owed.clause,
        where,
        address: owed.address,
        withinMs: eventMs,
      }),
    );
  }
  const all = [...state.paths].flatMap((path) => received(path));
  const sequence = state.references.map(known);
  for (const reference of state.references) {
    if (reference.state === 'confirmed') continue;
    const why = reference.paidOutside ? 'for a reference paid only outside its window' : 'for a reference that was not paid';
    problems.push(...checkNotNotified(all, { why, about: known(reference), among: sequence }));
  }
  return problems;
}
