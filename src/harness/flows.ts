/** Steps that several specs take: create a checkout or a reference, read a payment, list stored methods. */
import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import fc from 'fast-check';
import type { Checkout, CheckoutRequest, ReferenceRequest } from '../../schemas/generated/types.ts';
import type { RunConfig } from '../core/run-config.ts';
import { card, checkoutVariants, referenceSearchBound, referenceShapes, uuidWrittenAs } from '../generators/index.ts';
import {
  checkCheckoutCreatedForUse,
  checkListAnswered,
  checkReferenceCreated,
  checkSuccess,
  checkoutOf,
  freedomTaken,
  isRefusal,
  isSuccess,
  operationOf,
  paymentIdOf,
  paymentOf,
  show,
  storedMethodsOf,
  unservedReason,
  type Exchange,
} from '../checks/index.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { needs } from '../core/needs.ts';
import { uuidPattern, type RequestBodies } from '../core/operations.ts';
import { randomUUID } from 'node:crypto';
import type { InputClass } from '../generators/index.ts';
import { attachmentNames, type ClassOutcome } from '../core/evidence.ts';
import type { Problem } from '../checks/index.ts';
import { helperClient, helpersUsable, test, type Api } from './fixtures.ts';
import { inParallel } from './pace.ts';

/** n values of an arbitrary, drawn from the run's seed (distinct draws, the same on every replay). */
export function samples<T>(run: RunConfig, arbitrary: fc.Arbitrary<T>, n = 1): T[] {
  return fc.sample(arbitrary, { seed: run.seed, numRuns: n });
}
export const sample = <T>(run: RunConfig, arbitrary: fc.Arbitrary<T>): T => samples(run, arbitrary)[0];

/** What judging one class of input found: its problems, or why it could not be exercised. */
export type ClassJudgement = Problem[] | { skipped: string };

/** Attaches the classes the test met, for the report's per-clause list (src/generators/classes.ts). */
export async function recordClasses(outcomes: readonly ClassOutcome[]): Promise<void> {
  await test.info().attach(attachmentNames.classes, { body: JSON.stringify(outcomes), contentType: 'application/json' });
}

/** Judges one class of a clause's input: its problems, or why it was not exercised. */
type ClassJudge<T> = (value: T, inputClass: InputClass<T>) => Promise<ClassJudgement>;

/**
 * Exercises every class of a clause once, one after another, each with a draw of its own from the
 * run's seed, whatever the seed (the property's draws come on top), and records which ran. Where
 * classes show departures, the test fails on them, with the exchanges of those classes as its evidence.
 */
export const exerciseClasses = <T>(run: RunConfig, api: Api, clause: ClauseId, classes: readonly InputClass<T>[], judge: ClassJudge<T>) =>
  exercise(run, api, clause, classes, judge, 1);

/**
 * exerciseClasses with the classes judged side by side (the pacer bounds the requests): for classes
 * whose requests share nothing, so that no class's step can change what another's judgement sees.
 */
export const exerciseClassesAtOnce = <T>(run: RunConfig, api: Api, clause: ClauseId, classes: readonly InputClass<T>[], judge: ClassJudge<T>) =>
  exercise(run, api, clause, classes, judge, classes.length);

async function exercise<T>(
  run: RunConfig,
  api: Api,
  clause: ClauseId,
  classes: readonly InputClass<T>[],
  judge: ClassJudge<T>,
  concurrency: number,
): Promise<void> {
  const judged = await inParallel(classes, (inputClass) => api.madeBy(() => judge(sample(run, inputClass.arbitrary), inputClass)), concurrency);
  const outcomes: ClassOutcome[] = classes.map((inputClass, at) => {
    const { result } = judged[at];
    return { clause, name: inputClass.name, skipped: Array.isArray(result) ? null : result.skipped };
  });
  const failing = judged.flatMap(({ result, exchanges }, at) =>
    Array.isArray(result) && result.length > 0 ? [{ problems: result, exchanges, name: classes[at].name }] : [],
  );
  await recordClasses(outcomes);
  if (failing.length > 0) api.forget(failing.flatMap(({ exchanges }) => exchanges));
  api.expectNoProblems(failing.flatMap(({ problems, name }) => problems.map((problem) => ({ ...problem, message: `${problem.message} (class: ${name})` }))));
}

/**
 * Where the target refused what it was free to refuse: why the input was not exercised, recorded
 * under that freedom. A checkout's freedom is its kind's (classifyCheckout); a reference's, its class's.
 */
export function refusedWhereFree(exchange: Exchange, referenceClass?: InputClass): { skipped: string } | null {
  if (!isRefusal(exchange.response.status)) return null;
  const freedom = referenceClass ? referenceClass.mayBeRefused : freedomTaken(exchange)?.freedom;
  return freedom ? { skipped: `the target refused it (${exchange.response.status}): recorded under ${freedom}` } : null;
}

/**
 * A checkout request made for a registered customer, where it names one by a UUID (a target may
 * take only customers it knows), written in the letter case of the request's. A uuid that is not a
 * UUID is a broken request's and stays.
 */
export function forCustomer(request: CheckoutRequest, uuid: string | undefined): CheckoutRequest {
  const written = request.payment?.customer?.uuid ?? '';
  if (!uuid || !uuidPattern.test(written)) return request;
  return { ...request, payment: { ...request.payment, customer: { ...request.payment!.customer, uuid: uuidWrittenAs(uuid, written) } } };
}

/** The request with its payment method set to `code`, and its registration details replaced (none: removed). */
export function withMethod(request: CheckoutRequest, code: string, details?: Record<string, boolean>): CheckoutRequest {
  const { details: _ignored, ...method } = request.payment?.paymentMethod ?? {};
  return { ...request, payment: { ...request.payment, paymentMethod: { ...method, code, ...(details && { details }) } } };
}

/**
 * Creates a checkout that a later step opens or pays. Where the target was free to refuse it and did
 * (an http action URL, classifyCheckout), the test is skipped with why; where it does not otherwise,
 * the test stops on CHK-1/CHK-2 (and CHK-6 for a row).
 */
export async function createCheckout(api: Api, request: CheckoutRequest): Promise<{ exchange: Exchange; checkout: Checkout }> {
  const exchange = await api.call('createCheckout', { body: request });
  const refused = refusedWhereFree(exchange);
  if (refused) test.skip(true, `the checkout this test needs was not created: ${refused.skipped}`);
  api.require(checkCheckoutCreatedForUse(exchange));
  return { exchange, checkout: checkoutOf(exchange)! };
}

/**
 * Creates a checkout of an input class that a later step pays: where the target was free to refuse
 * it (its class's freedom, or its kind's: classifyCheckout) and did, why the class was not
 * exercised; see createCheckout for the rest.
 */
export async function createCheckoutOfClass(
  api: Api,
  request: CheckoutRequest,
  inputClass?: InputClass,
): Promise<{ checkout: Checkout } | { skipped: string }> {
  const exchange = await api.call('createCheckout', { body: request });
  const refused = (inputClass && refusedWhereFree(exchange, inputClass)) ?? refusedWhereFree(exchange);
  if (refused) return refused;
  api.require(checkCheckoutCreatedForUse(exchange));
  return { checkout: checkoutOf(exchange)! };
}

/** Creates a checkout that a later step opens or pays: null where the target was free to refuse it and did; see createCheckout for the rest. */
export async function createIfAccepted(api: Api, request: CheckoutRequest): Promise<Checkout | null> {
  const created = await createCheckoutOfClass(api, request);
  return 'checkout' in created ? created.checkout : null;
}

/**
 * Creates a reference and takes its payment id from data.id; where the target does not create it,
 * the test stops on REF-1, and where it answers no id, the test is skipped (REF-10 records what it answered).
 */
export async function createReference(api: Api, request: ReferenceRequest): Promise<{ exchange: Exchange; paymentId: string }> {
  return referenceCreated(api, await api.call('createReference', { body: request }));
}

/** The answer of a reference's creation, where it names the payment: see createReference. */
export function referenceCreated(api: Api, exchange: Exchange): { exchange: Exchange; paymentId: string } {
  api.require(checkReferenceCreated(exchange));
  const paymentId = paymentIdOf(exchange);
  if (paymentId === undefined) test.skip(true, needs.paymentId.reason);
  return { exchange, paymentId: paymentId! };
}

/** Refusals verify a rule only where the target serves the operation: a valid request first, and the test skipped where it is not accepted. */
export async function requireServed<Name extends 'createCheckout' | 'createReference'>(api: Api, operation: Name, valid: RequestBodies[Name]): Promise<void> {
  const reason = unservedReason(await api.call<'createCheckout' | 'createReference'>(operation, { body: valid }));
  if (reason !== null) test.skip(true, reason);
}

/**
 * The answer of a test helper asked to pay or confirm, where it did so. A helper that fails is no
 * departure of the target from the reference (the helpers are not in it): an error of the test.
 */
export async function mustSucceed(api: Api, call: Promise<Exchange>): Promise<Exchange> {
  const exchange = await call;
  if (isSuccess(exchange.response.status)) return exchange;
  throw new Error(api.masked(`test helper ${operationOf(exchange.request)} answered ${exchange.response.status}: ${show(exchange.response.body)}`));
}

/** GET /payments/{id} of a payment the test created, for a judgement of its contents: where it is not answered, the test stops on REF-3. */
export async function readPayment(api: Api, paymentId: string): Promise<Exchange> {
  const exchange = await api.call('getPayment', { param: paymentId });
  api.require(checkSuccess(exchange, 'REF-3'));
  return exchange;
}

/** The stored methods of a customer the test registered, for a judgement of the list: where it is not answered (a 404 is an empty list, PML-7), the test stops on PML-1. */
export async function listStoredMethods(api: Api, uuid: string): Promise<Exchange> {
  const exchange = await api.call('listMethods', { param: uuid });
  api.require(checkListAnswered(exchange));
  return exchange;
}

/** Reads until `done` holds or withinMs has passed, and answers the last read. */
async function readUntil(read: () => Promise<Exchange>, done: (exchange: Exchange) => boolean, withinMs: number): Promise<Exchange> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const exchange = await read();
    if (done(exchange) || Date.now() >= deadline) return exchange;
    await sleep(200);
  }
}

/**
 * How long the effect of a helper's call may take to show. A helper answers any 2xx on success
 * (test-helpers.md): one that answered 202 took the call and completes it within the profile's eventMs.
 */
export const settleMs = (run: RunConfig, helperAnswer: Exchange) => (helperAnswer.response.status === 202 ? run.profile.timeouts.eventMs : 0);

/**
 * GET /payments/{id} after a confirmation: 'confirmed' reads until the payment says so, for up to
 * eventMs; 'unchanged' reads until it does or, after a 202, eventMs has passed (a target that
 * confirms late is seen), and the judgement is then of the last read.
 */
export async function readSettled(
  run: RunConfig,
  api: Api,
  paymentId: string,
  expected: 'confirmed' | 'unchanged',
  helperAnswer?: Exchange,
): Promise<Exchange> {
  const withinMs = expected === 'confirmed' ? run.profile.timeouts.eventMs : helperAnswer ? settleMs(run, helperAnswer) : 0;
  const exchange = await readUntil(
    () => api.call('getPayment', { param: paymentId }),
    (read) => paymentOf(read)?.stateDetails?.state === 'confirmed',
    withinMs,
  );
  api.require(checkSuccess(exchange, 'REF-3'));
  return exchange;
}

/**
 * The customer's stored methods once a payment has had time to store one: reads until `stored`
 * holds of the list, for up to withinMs (eventMs where something must be stored, settleMs where
 * nothing may be: a fault that stores late is seen too).
 */
export async function listSettled(api: Api, uuid: string, stored: (exchange: Exchange) => boolean, withinMs: number): Promise<Exchange> {
  const exchange = await readUntil(() => api.call('listMethods', { param: uuid }), stored, withinMs);
  api.require(checkListAnswered(exchange));
  return exchange;
}

const day = 24 * 60 * 60 * 1000;

/**
 * A validity window that opens tomorrow: a payment now is before it.
 */
export function futureWindow(request: ReferenceRequest): ReferenceRequest {
  return { ...request, validDate: { start: new Date(Date.now() + day).toISOString(), end: new Date(Date.now() + 2 * day).toISOString() } };
}

/**
 * A reference whose window opened yesterday and has just closed, created with a window that ends
 * half a second after it is sent and then waited out (a second more, for a target that compares whole
 * seconds). A target may refuse a window that had ended when the request reached it (REF-1): where
 * the refusal came after the end, the window is doubled and the reference created again.
 */
export async function createClosedReference(api: Api, request: ReferenceRequest): Promise<{ paymentId: string; request: ReferenceRequest }> {
  for (let openMs = 500; ; openMs *= 2) {
    const closing = { ...request, validDate: { start: new Date(Date.now() - day).toISOString(), end: new Date(Date.now() + openMs).toISOString() } };
    const exchange = await api.call('createReference', { body: closing });
    const end = Date.parse(closing.validDate.end);
    if (!isSuccess(exchange.response.status) && Date.now() >= end && openMs < 12_000) continue;
    const { paymentId } = referenceCreated(api, exchange);
    await sleep(Math.max(0, end - Date.now() + 1000));
    return { paymentId, request: closing };
  }
}

/** How long the search for each shape of reference may take, within a test's time-out on a loaded machine. */
const referenceSearchMs = 20_000;

/**
 * The search for references of every shape (referenceShapes), which the target draws: `create(n)`
 * makes the n-th payment and notes its shape, ten at a time, until `found()` counts every shape, or
 * referenceSearchBound were made, or the time is up, or `stopped()` holds. Answers why a shape that
 * did not come did not, naming the payments searched (`searched`: "references", "MB checkouts").
 */
export async function searchReferenceShapes(
  searched: string,
  create: (index: number) => Promise<void>,
  found: () => number,
  stopped: () => boolean = () => false,
): Promise<string> {
  const deadline = Date.now() + referenceSearchMs;
  let created = 0;
  while (created < referenceSearchBound && found() < referenceShapes.length && !stopped() && Date.now() < deadline) {
    const batch = Array.from({ length: Math.min(10, referenceSearchBound - created) }, (_, at) => created + at);
    created += batch.length;
    await Promise.all(batch.map(create));
  }
  const why = stopped()
    ? ' (the search stopped at the first departure)'
    : created < referenceSearchBound
      ? ` (the search stopped after ${referenceSearchMs / 1000} s)`
      : '';
  return `no reference of this shape came in ${created} ${searched}${why}`;
}

/** How long to wait for something that must not happen (a notification, a post to the action URL): as long as it may take to happen. */
export const quietMs = (run: RunConfig) => run.profile.timeouts.eventMs;

/**
 * A customer whose list must be answered: where the run may use test helpers, one registered with a
 * card stored (a createRegistration checkout paid), its list read until the card shows; a customer
 * with nothing stored may be answered 404 (PML-7). Without helpers, someCustomer, `stored` false.
 */
export async function someCustomerWithMethod(run: RunConfig, api: Api): Promise<{ uuid: string; stored: boolean }> {
  if (!helpersUsable(run)) return { uuid: await someCustomer(run, api), stored: false };
  const helpers = helperClient(api);
  const uuid = await helpers.registerCustomer();
  const { checkout } = await createCheckout(api, forCustomer(sample(run, checkoutVariants.storeMethod), uuid));
  const paid = await mustSucceed(api, helpers.pay(checkout.id, { outcome: 'success', method: 'CC', card: sample(run, card()) }));
  await listSettled(api, uuid, (exchange) => storedMethodsOf(exchange).length > 0, Math.max(settleMs(run, paid), run.profile.timeouts.eventMs));
  return { uuid, stored: true };
}

/**
 * A registered customer where the run may use test helpers, else the profile's first (registered out
 * of band), else a UUID the target has never seen.
 */
export async function someCustomer(run: RunConfig, api: Api): Promise<string> {
  if (helpersUsable(run)) return helperClient(api).registerCustomer();
  return run.profile.customers?.[0] ?? randomUUID();
}
