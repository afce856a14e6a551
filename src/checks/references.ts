import type { Payment, ReferenceRequest } from '../../schemas/generated/types.ts';
import { validateResponse } from '../core/schemas.ts';
import { checkSuccess, fromSchema, operationOf, show, type Exchange, type Problem } from './problem.ts';
import { titleOf } from '../core/operations.ts';

function dataOf(exchange: Exchange): Partial<Payment> | undefined {
  const data = (exchange.response.body as { data?: unknown } | null)?.data;
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Partial<Payment>) : undefined;
}

/** The payment id in a POST /payments/references answer (data.id), where the target gives one (REF-10). */
export function paymentIdOf(exchange: Exchange): string | undefined {
  const id = dataOf(exchange)?.id;
  return typeof id === 'string' && id !== '' ? id : typeof id === 'number' ? String(id) : undefined;
}

/** The payment of a GET /payments/{id} answer. */
export function paymentOf(exchange: Exchange): Partial<Payment> | undefined {
  return dataOf(exchange);
}

/**
 * REF-1: a valid reference request succeeds.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkReferenceCreated(exchange: Exchange): Problem[] {
  return checkSuccess(exchange, 'REF-1');
}

/** Which of 2.6 a payment owes: the whole shape once confirmed (REF-3), only the types of the fields it carries before (REF-10). */
export type PaymentStage = 'confirmed' | 'not yet paid';

/**
 * REF-2..4 (with ENV-1 of its envelope): GET /payments/{id} answers the payment of 2.6. A confirmed
 * payment owes every field; one not yet paid may lack fields (the reference shows only a confirmed
 * one), and the fields it carries have their documented types, its reference 9 digits.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: references with callbackUrl.
 */
export function checkPayment(exchange: Exchange, context: { stage: PaymentStage }): Problem[] {
  const refused = checkSuccess(exchange, 'REF-3');
  if (refused.length > 0) return refused;
  const problems = validateResponse('getPayment', exchange.response.body);
  const owed = context.stage === 'confirmed' ? problems : problems.filter((problem) => !(problem.keyword === 'required' && problem.path.startsWith('/data')));
  return fromSchema(owed, `${operationOf(exchange.request)} response${context.stage === 'confirmed' ? ' (confirmed payment)' : ''}`, 'REF-3');
}

/** An ISO 8601 timestamp as nanoseconds since the epoch, to every digit it writes (Date.parse keeps milliseconds only), with the digits of its fraction of a second. */
function instantOf(text: string): { nanoseconds: bigint; fraction: string } | null {
  const match = /^(.+[Tt ]\d{2}:\d{2}:\d{2})(?:[.,](\d+))?([Zz]|[+-]\d{2}(?::?\d{2})?)$/.exec(text);
  if (!match) return null;
  const [, clock, fraction = '', offset] = match;
  const colonOffset = /^[+-]\d{2}$/.test(offset) ? `${offset}:00` : offset.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const milliseconds = Date.parse(`${clock}${colonOffset}`);
  if (Number.isNaN(milliseconds)) return null;
  return { nanoseconds: BigInt(milliseconds) * 1_000_000n + BigInt(fraction.slice(0, 9).padEnd(9, '0')), fraction };
}

const nanosecondsPerMillisecond = 1_000_000n;
const floorDivide = (dividend: bigint, divisor: bigint) => dividend / divisor - (dividend % divisor < 0n ? 1n : 0n);

/** The milliseconds a timestamp may stand for: its digits past the millisecond cut, or rounded (half up). */
function millisecondsOf(text: unknown): bigint[] {
  const instant = typeof text === 'string' ? instantOf(text) : null;
  if (!instant) return [];
  const { nanoseconds } = instant;
  return [floorDivide(nanoseconds, nanosecondsPerMillisecond), floorDivide(nanoseconds + nanosecondsPerMillisecond / 2n, nanosecondsPerMillisecond)];
}

/**
 * Whether two timestamps write the same instant (REF-5): they agree to the millisecond, in any
 * offset, the digits of either past the millisecond cut or rounded.
 */
export function sameInstant(a: unknown, b: unknown): boolean {
  const first = millisecondsOf(a);
  return millisecondsOf(b).some((millisecond) => first.includes(millisecond));
}

/** Whether a timestamp writes digits past the millisecond: a precision a target may not keep, and may refuse (REF-5, SEC-2). */
export function writtenPastTheMillisecond(text: unknown): boolean {
  const instant = typeof text === 'string' ? instantOf(text) : null;
  return instant !== null && instant.fraction.length > 3;
}

/**
 * REF-5: the payment carries the amount, the validity instants (to the millisecond, in any offset)
 * and the method codes that were requested.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: availableMethods other than [{code: MB}]; the echo once confirmed.
 */
export function checkPaymentEchoes(exchange: Exchange, context: { requested: ReferenceRequest }): Problem[] {
  const payment = dataOf(exchange);
  const { requested } = context;
  const where = `${operationOf(exchange.request)} response /data`;
  const problems: Problem[] = [];
  if (payment?.amount !== requested.amount) {
    problems.push({ clause: 'REF-5', message: `${where}/amount: expected ${requested.amount} as requested, got ${show(payment?.amount)}` });
  }
  for (const edge of ['start', 'end'] as const) {
    const got = payment?.validDate?.[edge];
    if (!sameInstant(requested.validDate[edge], got)) {
      problems.push({
        clause: 'REF-5',
        message: `${where}/validDate/${edge}: expected the instant ${show(requested.validDate[edge])} as requested, to the millisecond, got ${show(got)}`,
      });
    }
  }
  const wanted = [...new Set(requested.availableMethods.map((method) => method.code))].sort();
  const listed: unknown = payment?.availableMethods;
  const got = [...new Set((Array.isArray(listed) ? listed : []).map((method) => method?.code))].sort();
  if (show(wanted) !== show(got)) {
    problems.push({ clause: 'REF-5', message: `${where}/availableMethods: expected the codes ${show(wanted)} as requested, got ${show(got)}` });
  }
  return problems;
}

/**
 * REF-6: a confirmed payment says so, and was not updated before it was created.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: a payment at a paidAt just inside the window (the edges are tried only outside).
 */
export function checkConfirmed(exchange: Exchange): Problem[] {
  const payment = dataOf(exchange);
  const where = `${operationOf(exchange.request)} response /data`;
  const problems: Problem[] = [];
  if (payment?.stateDetails?.state !== 'confirmed') {
    problems.push({
      clause: 'REF-6',
      message: `${where}/stateDetails/state: expected "confirmed" after the payment was confirmed, got ${show(payment?.stateDetails?.state)}`,
    });
  }
  const [created, updated] = [Date.parse(String(payment?.createdAt)), Date.parse(String(payment?.updatedAt))];
  if (!(updated >= created)) {
    problems.push({
      clause: 'REF-6',
      message: `${where}/updatedAt: expected not earlier than createdAt ${show(payment?.createdAt)}, got ${show(payment?.updatedAt)}`,
    });
  }
  return problems;
}

/**
 * REF-7 on GET /payments/{id} after a payment outside the window: the reference is left unconfirmed.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkNotConfirmed(exchange: Exchange, context: { why: string }): Problem[] {
  const state = dataOf(exchange)?.stateDetails?.state;
  if (state !== 'confirmed') return [];
  return [
    {
      clause: 'REF-7',
      message: `${operationOf(exchange.request)} response /data/stateDetails/state: expected not "confirmed" ${context.why}, got "confirmed"`,
    },
  ];
}

/** The instants [start, end] of a payment's validDate, or null where it does not show one that parses. */
function windowOf(payment: Partial<Payment>): [number, number] | null {
  const [start, end] = [Date.parse(String(payment.validDate?.start)), Date.parse(String(payment.validDate?.end))];
  return Number.isNaN(start) || Number.isNaN(end) ? null : [start, end];
}

/** Whether two payments are valid at the same time by the windows they show; null where one shows none. */
export function validTogether(a: Partial<Payment>, b: Partial<Payment>): boolean | null {
  const [first, second] = [windowOf(a), windowOf(b)];
  if (first === null || second === null) return null;
  return first[0] <= second[1] && second[0] <= first[1];
}

/**
 * REF-8: references valid at the same time are distinct. Two payments are valid at the same time
 * where the windows they show overlap; where one shows none, `windowsUnknown` says what the caller
 * knows: the run created them all valid now ("valid together"), an observer of traffic cannot tell
 * ("not judged": a reference may be used again once the other's window has ended).
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkDistinctReferences(
  payments: Partial<Payment>[],
  context: { windowsUnknown: 'valid together' | 'not judged' } = { windowsUnknown: 'valid together' },
): Problem[] {
  const problems: Problem[] = [];
  payments.forEach((payment, at) => {
    const reference = payment.referenceDetails?.reference;
    if (typeof reference !== 'string') return;
    const owner = payments
      .slice(0, at)
      .find((other) => other.referenceDetails?.reference === reference && (validTogether(other, payment) ?? context.windowsUnknown === 'valid together'));
    if (!owner) return;
    problems.push({
      clause: 'REF-8',
      message: `${titleOf('getPayment')} /data/referenceDetails/reference: expected a reference of its own for payment ${show(payment.id)}, got ${show(reference)} of payment ${show(owner.id)}, valid at the same time`,
    });
  });
  return problems;
}
