/**
 * The final audit (specs/whole-run/audit.spec.ts): what the whole run created, from every test, read back at
 * its end. A rule the reference states over a set holds over the whole set the run created (every
 * checkout's ids are new, CHK-7; references valid at the same time are distinct, REF-8), and what a
 * payment's read showed right holds still (REF-3, REF-5, REF-6), and so does what a customer's list
 * showed (TOK-1, PML-5): data that vanishes or changes later fails the clause that owns it. Nothing
 * the run received, at any of its addresses and at any time, notifies a payment nobody paid (EVT-4),
 * and every payment it saw confirmed was notified at exactly its callbackUrl (EVT-1).
 */
import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import type { ReferenceRequest } from '../../schemas/generated/types.ts';
import type { RecordedRequest } from '../core/evidence.ts';
import { loadSchema, type JsonSchema } from '../core/schemas.ts';
import { judgeAnswer } from './answers.ts';
import { checkDistinctCheckouts, checkoutOf } from './checkouts.ts';
import { attributeNotification, checkNotified, checkNotNotified, type KnownPayment } from './notifications.ts';
import { checkStoredMethods, storedMethodsOf } from './payment-methods.ts';
import { isSuccess, operationOf, show, type Exchange, type Problem } from './problem.ts';
import { checkDistinctReferences, checkPaymentEchoes, paymentOf, sameInstant } from './references.ts';

/** What the run created and read, as the tests' client wrote it down (src/harness/ledger.ts). */
export type LedgerEntry =
  | { kind: 'checkout'; exchange: Exchange }
  /** A reference accepted, answered at `answeredAt` (ms): it exists from then at the latest. */
  | { kind: 'reference'; paymentId: string; requested: ReferenceRequest; answeredAt: number }
  | { kind: 'payment read'; paymentId: string; exchange: Exchange }
  | { kind: 'list read'; customer: string; exchange: Exchange }
  /** A confirmation the interbank helper took (2xx) at `at` (ms): the payment was paid, inside its window or not. */
  | { kind: 'confirmation'; paymentId: string; at: number }
  /** A request the suite's receiver took at a notification address, wherever and whenever it came. */
  | { kind: 'notification'; request: RecordedRequest }
  /** A receiver of the run (its address), in the worker `pid`, listened from `at` (ms) on. */
  | { kind: 'receiver opened'; url: string; pid: number; at: number }
  /** A receiver of the run (its address) stopped listening at `at` (ms): what came to it later was not heard. */
  | { kind: 'receiver closed'; url: string; at: number };

/**
 * CHK-7 over every checkout the run created: no two share an id or a paymentId, whichever tests
 * created them (two created at once are, in any serial order of them, one after the other).
 */
export function checkAllCheckoutsDistinct(created: readonly Exchange[]): Problem[] {
  const firstWith = new Map<string, Exchange>();
  const problems: Problem[] = [];
  for (const exchange of created) {
    const checkout = checkoutOf(exchange);
    const keys = [`id ${checkout?.id}`, `paymentId ${checkout?.paymentId}`].filter((key) => !key.endsWith(' undefined'));
    const earlier = keys.map((key) => firstWith.get(key)).find((found) => found !== undefined);
    if (earlier) problems.push(...checkDistinctCheckouts(earlier, exchange));
    for (const key of keys) if (!firstWith.has(key)) firstWith.set(key, exchange);
  }
  return problems;
}

/**
 * REF-8 over every reference the run created, as read at its end: two are valid at the same time
 * where their windows overlap while both exist (a reference is valid from its start or its
 * creation, whichever comes later: digits used again after the other's window ended are free).
 */
export function checkAllReferencesDistinct(reads: readonly { exchange: Exchange; existsFrom: number }[]): Problem[] {
  const payments = reads.flatMap(({ exchange, existsFrom }) => {
    const payment = paymentOf(exchange);
    const [start, end] = [Date.parse(String(payment?.validDate?.start)), Date.parse(String(payment?.validDate?.end))];
    const validFrom = Math.max(start, existsFrom);
    // Never valid while it existed: no other reference was valid at the same time as it.
    if (!payment?.validDate || !Number.isFinite(start) || !(validFrom <= end)) return [];
    return [{ ...payment, validDate: { ...payment.validDate, start: new Date(validFrom).toISOString() } }];
  });
  return checkDistinctReferences(payments, { windowsUnknown: 'not judged' });
}

/** What a read of a payment owes: its shape at its stage (REF-2..4, REF-6 where confirmed) and the request echoed (REF-5). */
const paymentProblems = (exchange: Exchange, requested: ReferenceRequest, confirmed: boolean): Problem[] => [
  ...judgeAnswer('getPayment', exchange, { suiteCredentials: true, paymentCreated: true, confirmed }).problems,
  ...(isSuccess(exchange.response.status) ? checkPaymentEchoes(exchange, { requested }) : []),
];

/** What a confirmation changes in a payment (REF-6): everything else of it stays as first read. */
export const changedByConfirmation = new Set(['stateDetails', 'updatedAt']);

/**
 * The documented fields of a payment that differ between two reads, each as a problem of its field's
 * first clause; timestamps compare as instants (sameInstant: another offset is the same value). A field the
 * earlier read lacked is free (a payment not yet paid may show fewer, REF-10).
 */
function paymentChanges(last: unknown, now: unknown, schema: JsonSchema, path: string[], where: string): Problem[] {
  return Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {}).flatMap(([name, field]) => {
    if (path.length === 0 && changedByConfirmation.has(name)) return [];
    const [before, after] = [(last as Record<string, unknown> | null)?.[name], (now as Record<string, unknown> | null)?.[name]];
    if (before === undefined) return [];
    if (field.properties) return paymentChanges(before, after, field, [...path, name], where);
    const items = field.items as JsonSchema | undefined;
    if (items?.properties && Array.isArray(before) && Array.isArray(after) && before.length === after.length)
      return before.flatMap((element, at) =>
        paymentChanges(element, after[at], { ...items, 'x-clauses': items['x-clauses'] ?? field['x-clauses'] }, [...path, name, String(at)], where),
      );
    const same = JSON.stringify(before) === JSON.stringify(after) || (String(field.$ref).endsWith('timestampWithOffset') && sameInstant(before, after));
    if (same) return [];
    const clause = ((field['x-clauses'] as ClauseId[] | undefined) ?? (schema['x-clauses'] as ClauseId[] | undefined) ?? ['REF-3'])[0];
    return [{ clause, message: `${where}/${[...path, name].join('/')}: expected ${show(before)} as its last read in the run showed it, got ${show(after)}` }];
  });
}

/**
 * A payment read again at the run's end: what its last read in the run showed right is still right,
 * and what it showed is still what it shows, but for what a confirmation changes. Once shown
 * confirmed it stays so (REF-6); a clause its last read already failed is that test's, not the audit's.
 */
export function checkPaymentStillHolds(last: Exchange, now: Exchange, context: { requested: ReferenceRequest }): Problem[] {
  const confirmed = paymentOf(last)?.stateDetails?.state === 'confirmed';
  const failedBefore = new Set(paymentProblems(last, context.requested, confirmed).map((problem) => problem.clause));
  const changes =
    isSuccess(last.response.status) && isSuccess(now.response.status)
      ? paymentChanges(paymentOf(last), paymentOf(now), loadSchema('payment.schema.json'), [], `${operationOf(now.request)} at the run's end: data`)
      : [];
  return [...paymentProblems(now, context.requested, confirmed), ...changes].filter((problem) => !failedBefore.has(problem.clause));
}

/** The clause a change of a field's value breaks, of the field's clauses: a value paid with is PML-5's (it matched what was paid with), another the field's first. */
export const changeClause = (clauses: readonly ClauseId[]): ClauseId => (clauses.includes('PML-5') ? 'PML-5' : clauses[0]);

/** The documented fields of a stored method (2.4), each with the clause a change of its value breaks. */
const storedMethodFields = new Map(
  Object.values(loadSchema('stored-payment-method.schema.json').$defs as Record<string, JsonSchema>).flatMap((kind) =>
    Object.entries(kind.properties as Record<string, JsonSchema>).map(([field, schema]): [string, ClauseId] => [
      field,
      changeClause((schema['x-clauses'] as ClauseId[] | undefined) ?? ['PML-2']),
    ]),
  ),
);

/**
 * A customer's list read again at the run's end: what its last read in the run showed right is
 * still right (PML-1..4, PML-6), and every method it listed is listed still (TOK-1: stored is
 * stored; the reference shows no way to remove one), told apart by uuid, with the same documented
 * values (PML-5 for a value paid with). Methods stored since are free; a clause the last read
 * already failed is that test's, not the audit's.
 */
export function checkListStillHolds(last: Exchange, now: Exchange): Problem[] {
  const failedBefore = new Set(checkStoredMethods(last).map((problem) => problem.clause));
  return [...checkStoredMethods(now), ...listChanges(last, now)].filter((problem) => !failedBefore.has(problem.clause));
}

function listChanges(last: Exchange, now: Exchange): Problem[] {
  const methodsOf = (exchange: Exchange) => storedMethodsOf(exchange) as unknown as Array<Record<string, unknown> | null>;
  const listedNow = new Map(methodsOf(now).map((method) => [method?.uuid, method]));
  const where = `${operationOf(now.request)} at the run's end`;
  return methodsOf(last).flatMap((method): Problem[] => {
    if (typeof method?.uuid !== 'string') return [];
    const still = listedNow.get(method.uuid);
    if (!still)
      return [
        {
          clause: 'TOK-1',
          message: `${where}: expected the stored method ${method.uuid} listed earlier in the run, got none with that uuid (earlier: ${show(method)})`,
        },
      ];
    return [...storedMethodFields]
      .filter(([field]) => field in method && JSON.stringify(still[field]) !== JSON.stringify(method[field]))
      .map(([field, clause]) => ({
        clause,
        message: `${where}: expected ${field} of stored method ${method.uuid} as listed earlier in the run, ${show(method[field])}, got ${show(still[field])}`,
      }));
  });
}

/**
 * EVT-4 over every notification the run received, at whichever of its addresses and whenever it came
 * (after the test that waited for none had ended, at another test's address): none is about a
 * payment of the run that was never paid, of all the run's payments (attributeNotification: a
 * reference handed out again names the payment that held it when paid).
 */
export function checkNothingNotifiedUnpaid(received: readonly RecordedRequest[], payments: readonly KnownPayment[]): Problem[] {
  return received.flatMap((notification) =>
    attributeNotification(notification, payments)
      .about.filter(({ paid }) => !paid)
      .flatMap(({ id }) => checkNotNotified([notification], { why: `for payment ${id}, which the run never paid` })),
  );
}

/** The ledger's entries of one kind. */
export const ofKind = <Kind extends LedgerEntry['kind']>(ledger: readonly LedgerEntry[], kind: Kind) =>
  ledger.filter((entry): entry is Extract<LedgerEntry, { kind: Kind }> => entry.kind === kind);

/** The 9 digits a payment's read shows, where it shows them, with its id: what a notification may name it by. */
function namesOf(paymentId: string, read: Exchange | undefined): { id: string; reference?: string } {
  const digits = read && paymentOf(read)?.referenceDetails?.reference;
  return { id: paymentId, ...(typeof digits === 'string' && /^[0-9]{9}$/.test(digits) && { reference: digits }) };
}

/**
 * Every reference the run created as a notification may name it: its id, the 9 digits its last
 * read in the run shows (or its read in `readNow`), its window as requested, and whether a
 * confirmation of it was taken.
 */
export function paymentsOfLedger(ledger: readonly LedgerEntry[], readNow: ReadonlyMap<string, Exchange> = new Map()): KnownPayment[] {
  const lastRead = new Map(ofKind(ledger, 'payment read').map(({ paymentId, exchange }) => [paymentId, exchange]));
  const paid = new Set(ofKind(ledger, 'confirmation').map(({ paymentId }) => paymentId));
  return ofKind(ledger, 'reference').map(({ paymentId, requested }) => {
    const window = { start: Date.parse(requested.validDate?.start), end: Date.parse(requested.validDate?.end) };
    return {
      ...namesOf(paymentId, lastRead.get(paymentId) ?? readNow.get(paymentId)),
      paid: paid.has(paymentId),
      ...(Number.isFinite(window.start) && Number.isFinite(window.end) && { window }),
    };
  });
}

/** A reference the run saw confirmed whose notification the run could hear: where its callbackUrl sends it. */
export interface OwedNotification {
  paymentId: string;
  callbackUrl: string;
  /** Its last read in the run, which showed it confirmed. */
  read: Exchange;
}

/** The receivers the ledger says opened and not closed: still listening, where their worker still runs. */
export function receiversNotClosed(ledger: readonly LedgerEntry[]): Extract<LedgerEntry, { kind: 'receiver opened' }>[] {
  const closed = new Set(ofKind(ledger, 'receiver closed').map(({ url }) => url));
  return ofKind(ledger, 'receiver opened').filter(({ url }) => !closed.has(url));
}

/** Receivers still listening as the audit reads the ledger (`at`, ms): everything they took until then is in it. */
export interface ListeningNow {
  urls: ReadonlySet<string>;
  at: number;
}

/**
 * The references whose notification the run was owed and could hear: created with a callbackUrl at
 * one of the run's receivers, paid by a confirmation, shown confirmed by their last read, and that
 * receiver still listening eventMs after the last confirmation taken of them (one that stopped
 * sooner, as a worker's does with its last test, may have missed a notification that came in time).
 * A receiver with no end in the ledger listened until `listening.at` where it is among those still
 * listening; else it is not known to have listened at all.
 */
export function owedNotifications(ledger: readonly LedgerEntry[], eventMs: number, listening: ListeningNow | null = null): OwedNotification[] {
  const of = <Kind extends LedgerEntry['kind']>(kind: Kind) => ofKind(ledger, kind);
  const lastRead = new Map(of('payment read').map(({ paymentId, exchange }) => [paymentId, exchange]));
  const lastConfirmed = new Map<string, number>();
  for (const { paymentId, at } of of('confirmation')) lastConfirmed.set(paymentId, Math.max(at, lastConfirmed.get(paymentId) ?? 0));
  const ends = [...of('receiver closed'), ...(listening ? [...listening.urls].map((url) => ({ url, at: listening.at })) : [])];
  return of('reference').flatMap(({ paymentId, requested }) => {
    const callbackUrl = requested.callbackUrl;
    const read = lastRead.get(paymentId);
    const confirmedAt = lastConfirmed.get(paymentId);
    if (typeof callbackUrl !== 'string' || !read || confirmedAt === undefined || paymentOf(read)?.stateDetails?.state !== 'confirmed') return [];
    const listenedUntil = ends.filter(({ url }) => callbackUrl.startsWith(`${url}/`)).map(({ at }) => at);
    return listenedUntil.length > 0 && Math.min(...listenedUntil) >= confirmedAt + eventMs ? [{ paymentId, callbackUrl, read }] : [];
  });
}

/**
 * EVT-1 over every reference the run was owed a notification of (owedNotifications), wherever in
 * the run it was confirmed: a notification came to exactly its callbackUrl (that path, its query
 * kept), naming it (EVT-3), whenever it came.
 */
export function checkOwedNotified(received: readonly RecordedRequest[], owed: readonly OwedNotification[], eventMs: number): Problem[] {
  const pathOf = (url: string) => new URL(url, 'http://receiver').pathname;
  return owed.flatMap(({ paymentId, callbackUrl, read }) =>
    checkNotified(
      received.filter(({ url }) => pathOf(url) === pathOf(callbackUrl)),
      {
        payment: namesOf(paymentId, read),
        clause: 'EVT-1',
        where: `the callbackUrl of payment ${paymentId}, confirmed in the run`,
        address: callbackUrl,
        withinMs: eventMs,
      },
    ),
  );
}
