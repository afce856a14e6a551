/**
 * The checks that need more than one exchange: what the observer remembers of the conversation
 * (checkouts, references, payments, stored-method lists) and the checks of a run it feeds.
 */
import type { Payment, ReferenceRequest } from '../../schemas/generated/types.ts';
import type { CheckoutRow } from '../core/checkout-rows.ts';
import { classifyCheckout } from '../checks/checkout-kinds.ts';
import { checkDistinctCheckouts, checkoutOf, checkRefusedAndStillServing } from '../checks/checkouts.ts';
import { storedMethodsOf } from '../checks/payment-methods.ts';
import { clausesJudgedBy } from '../checks/registry.ts';
import { isRefusal, isSuccess, show, type Exchange } from '../checks/problem.ts';
import { checkConfirmed, checkDistinctReferences, checkPaymentEchoes, paymentIdOf, paymentOf, validTogether } from '../checks/references.ts';
import type { Judged, JudgedOperation } from './judge.ts';
import { titleOf } from '../core/operations.ts';

interface SeenPayment {
  payment: Partial<Payment>;
  exchange: Exchange;
}

const maxFindings = 20;
/**
 * How many checkouts, payments and lists the observer remembers, each map on its own: the oldest is
 * forgotten first, so that a session of days keeps its memory bounded (a repeat of something older
 * is then not seen).
 */
export const maxRemembered = 10_000;

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > maxRemembered) map.delete(map.keys().next().value as K);
}

/** The checks observe judges a conversation by, beside judgeAnswer's of each exchange. */
export const trafficChecks = [checkRefusedAndStillServing, checkDistinctCheckouts, checkDistinctReferences, checkConfirmed, checkPaymentEchoes];

/** The default time a target has to show what a helper call caused, as a run's profile gives it (timeouts.eventMs). */
const defaultEventMs = 30_000;

export function createTrafficState(options: { eventMs?: number } = {}) {
  const eventMs = options.eventMs ?? defaultEventMs;
  /** When each payment was confirmed through the confirm helper (REF-6). */
  const confirmedAt = new Map<string, number>();
  const checkoutsById = new Map<string, Exchange>();
  const checkoutsByPaymentId = new Map<string, Exchange>();
  const referenceCreations = new Map<string, Exchange>();
  const paymentsByReference = new Map<string, SeenPayment[]>();
  const lists = new Map<string, { uuids: string[]; paymentsBefore: number; exchange: Exchange }>();
  const findings: string[] = [];
  let paymentsSeen = 0;
  let listChangesUnnoted = 0;
  let overlappingPaymentsSeen = false;
  /** The rows of 4.1 the target created: after a body that is not an object, one of these shows it still serving (CHK-12). */
  const servedRows = new Set<CheckoutRow>();
  /** Bodies that are not JSON objects the target refused, waiting for the next row of 4.1 (CHK-12). */
  let refusedNotObjects: { exchange: Exchange; broken: string }[] = [];

  /**
   * CHK-12 as a run judges it: a body that is not a JSON object refused, and the target still
   * serving, which the next row of 4.1 of a kind it created before shows. (Not refused, it failed at once, in judge.ts.)
   */
  function checkoutSent(exchange: Exchange): Judged[] {
    const { body } = exchange.request;
    if ((body === null || typeof body !== 'object' || Array.isArray(body)) && isRefusal(exchange.response.status)) {
      const kind = classifyCheckout(body);
      const broken = kind.kind === 'broken' ? kind.rules[0].broken : show(body);
      refusedNotObjects = [...refusedNotObjects.slice(-maxFindings + 1), { exchange, broken }];
      return [];
    }
    const kind = classifyCheckout(body);
    if (kind.kind !== 'row') return [];
    const servedBefore = servedRows.has(kind.row);
    if (isSuccess(exchange.response.status)) servedRows.add(kind.row);
    // A row of a kind the target never created may be refused for a fault of its own (CHK-6): only one it served shows it still serving.
    if (refusedNotObjects.length === 0 || !servedBefore) return [];
    const judged = refusedNotObjects.map(({ exchange: refused, broken }) => ({
      title: `${titleOf('createCheckout')}, a body that is not a JSON object, then a row of 4.1`,
      clauses: clausesJudgedBy([checkRefusedAndStillServing]),
      problems: checkRefusedAndStillServing(refused, exchange, { broken }),
      notes: [],
      exchanges: [refused, exchange],
    }));
    refusedNotObjects = [];
    return judged;
  }

  /** CHK-7: a checkout answered with the id or paymentId of an earlier one. */
  function checkoutCreated(exchange: Exchange): Judged {
    const { id, paymentId } = checkoutOf(exchange) ?? {};
    const earlier = (id !== undefined ? checkoutsById.get(id) : undefined) ?? (paymentId !== undefined ? checkoutsByPaymentId.get(paymentId) : undefined);
    const verified = checkoutsById.size > 0;
    if (id !== undefined && !checkoutsById.has(id)) remember(checkoutsById, id, exchange);
    if (paymentId !== undefined && !checkoutsByPaymentId.has(paymentId)) remember(checkoutsByPaymentId, paymentId, exchange);
    return {
      title: `${titleOf('createCheckout')}, one after another`,
      clauses: verified ? clausesJudgedBy([checkDistinctCheckouts]) : [],
      problems: earlier ? checkDistinctCheckouts(earlier, exchange) : [],
      notes: [],
      exchanges: earlier ? [earlier, exchange] : [exchange],
    };
  }

  /** REF-8: a payment whose reference another payment valid at the same time already has. */
  function paymentSeen(exchange: Exchange): Judged | null {
    const payment = paymentOf(exchange);
    const reference = payment?.referenceDetails?.reference;
    if (!payment || typeof reference !== 'string') return null;
    const sameReference = paymentsByReference.get(reference) ?? [];
    if (sameReference.some((seen) => seen.payment.id === payment.id)) return null;
    if (!overlappingPaymentsSeen) {
      overlappingPaymentsSeen = [...paymentsByReference.values()].some((seen) =>
        seen.some((other) => other.payment.id !== payment.id && validTogether(other.payment, payment) === true),
      );
    }
    const judge = (other: SeenPayment) => checkDistinctReferences([other.payment, payment], { windowsUnknown: 'not judged' });
    const clash = sameReference.find((other) => judge(other).length > 0);
    remember(paymentsByReference, reference, [...sameReference, { payment, exchange }]);
    return {
      title: 'references valid at the same time',
      clauses: overlappingPaymentsSeen ? clausesJudgedBy([checkDistinctReferences]) : [],
      problems: clash ? judge(clash) : [],
      notes: [],
      exchanges: clash ? [clash.exchange, exchange] : [exchange],
    };
  }

  /** REF-6: a payment read eventMs or more after the confirm helper confirmed it is confirmed (sooner, it may still be settling). */
  function confirmedPaymentRead(paymentId: string, exchange: Exchange): Judged | null {
    const at = confirmedAt.get(paymentId);
    if (at === undefined || Date.now() - at < eventMs || paymentOf(exchange)?.stateDetails?.state === 'confirmed') return null;
    return {
      title: `${titleOf('getPayment')} ${eventMs} ms or more after ${titleOf('confirmPayment')}`,
      clauses: clausesJudgedBy([checkConfirmed]),
      problems: checkConfirmed(exchange),
      notes: [],
      exchanges: [exchange],
    };
  }

  /** REF-5: the payment read echoes the reference request that created it. */
  function paymentRead(paymentId: string, exchange: Exchange): Judged | null {
    const creation = referenceCreations.get(paymentId);
    if (!creation) return null;
    const requested = creation.request.body as ReferenceRequest;
    return {
      title: `${titleOf('getPayment')} after its ${titleOf('createReference')}`,
      clauses: clausesJudgedBy([checkPaymentEchoes]),
      problems: checkPaymentEchoes(exchange, { requested }),
      notes: [],
      exchanges: [creation, exchange],
    };
  }

  /**
   * A stored-method list that changed with no payment seen in between. No clause says so: the
   * observer cannot see payments made on hosted pages, so it is a finding, not a failure.
   */
  function listRead(customer: string, exchange: Exchange): void {
    const uuids = storedMethodsOf(exchange).map((method) => show(method?.uuid));
    const previous = lists.get(customer);
    remember(lists, customer, { uuids, paymentsBefore: paymentsSeen, exchange });
    if (!previous || previous.paymentsBefore !== paymentsSeen) return;
    const added = uuids.filter((uuid) => !previous.uuids.includes(uuid));
    const removed = previous.uuids.filter((uuid) => !uuids.includes(uuid));
    if (added.length === 0 && removed.length === 0) return;
    if (findings.length >= maxFindings) return void listChangesUnnoted++;
    findings.push(
      `stored methods of customer ${customer} changed between two reads with no payment through the observer in between (hosted-page payments bypass it): added ${added.join(', ') || 'none'}, removed ${removed.join(', ') || 'none'}`,
    );
  }

  return {
    /** Whether a payment id was created through the observer. */
    createdHere: (paymentId: string) => referenceCreations.has(paymentId),

    /** Remembers what an exchange tells (a successful one, and a refused body that is not an object) and judges it against what came before. */
    follow(operation: JudgedOperation, param: string | null, exchange: Exchange): Judged[] {
      const judged: (Judged | null)[] = operation === 'createCheckout' ? checkoutSent(exchange) : [];
      if (!isSuccess(exchange.response.status)) return judged.filter((one): one is Judged => one !== null);
      if (operation === 'createCheckout') judged.push(checkoutCreated(exchange));
      if (operation === 'createReference') {
        const paymentId = paymentIdOf(exchange);
        if (paymentId !== undefined && typeof exchange.request.body === 'object') remember(referenceCreations, paymentId, exchange);
        judged.push(paymentSeen(exchange));
      }
      if (operation === 'getPayment' && param !== null) judged.push(paymentRead(param, exchange), paymentSeen(exchange), confirmedPaymentRead(param, exchange));
      if (operation === 'confirmPayment' && param !== null) remember(confirmedAt, param, Date.now());
      if (operation === 'payCheckout') paymentsSeen++;
      if (operation === 'listMethods' && param !== null) listRead(param.toLowerCase(), exchange);
      return judged.filter((one): one is Judged => one !== null);
    },

    findings: () => (listChangesUnnoted > 0 ? [...findings, `and ${listChangesUnnoted} more changes of stored-method lists`] : findings),
  };
}
