/**
 * Commands on every operation, for fast-check's model-based testing (fc.commands with
 * fc.asyncModelRun). Each command sends its request through the World it is given (the specs'
 * recording client, the test helpers, the notification receiver), changes the model as the reference
 * says, and judges the answer and the notifications so far with the checks (./judge.ts); the first
 * departure ends the sequence with a Departure naming its clauses, and fast-check shrinks it.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { formatWithOffset, registrationName, uuidWrittenAs } from '../generators/index.ts';
import type { CheckoutRequest, PayRequest, ReferenceRequest } from '../../schemas/generated/types.ts';
import type { RecordedRequest } from '../core/evidence.ts';
import type { TestHelpers } from '../core/test-helpers.ts';
import type { CallArguments, OperationName } from '../core/operations.ts';
import { checkoutOf, describeProblems, isRefusal, isSuccess, paymentIdOf, paymentOf, type Exchange, type PaidWith, type Problem } from '../checks/index.ts';
import { hasCome, judgeCheckoutCreated, judgeList, judgeNotifications, judgePayment, judgeReferenceCreated, listSettled } from './judge.ts';
import {
  checkoutFrom,
  confirmed,
  emptyState,
  insideWindow,
  owedMethods,
  webhookChanged,
  windowOf,
  type CheckoutModel,
  type ModelState,
  type ReferenceModel,
  type Webhook,
} from './state.ts';

/** What the commands act through: the only I/O of the model. */
export interface World {
  /** Calls an operation of the table (src/core/operations.ts). */
  call<Name extends OperationName>(name: Name, ...options: CallArguments<Name>): Promise<Exchange>;
  /** The test helpers, or null where the target has none (their commands are then left out). */
  helpers: TestHelpers | null;
  /** Paying on the hosted page as a customer would, or null where the run does not (no browser, or no selectors for the page). */
  pages: {
    /** Pays on the page at url; storeConsent, where given, is the customer's answer to the offer to store the method. */
    pay(url: string, paid: PaidWith, storeConsent: boolean | undefined): Promise<{ consentOffered: boolean }>;
  } | null;
  receiver: { newPath(prefix: string): string; urlOf(path: string): string; received(path: string): readonly RecordedRequest[] };
  eventMs: number;
  /**
   * The card (one the issuer declines where asked) or wallet of the next payment. Each differs from
   * every other of the run in its last digits, so that a stored method tells which payment it came from.
   */
  payWith(method: 'CC' | 'MW', declined: boolean): PaidWith;
  /** Customers registered out of band (a target without helpers): what they have stored is not known. */
  outOfBandCustomers: string[];
  /** Evidence that is not an exchange (notifications received). */
  note(text: string, request?: RecordedRequest): void;
  now(): number;
  sleep(ms: number): Promise<void>;
  /**
   * Sleeps, where nothing the sequence waits for can come to the webhook. The webhook is one for
   * the whole target: meanwhile the run may let another sequence have it, and then sets the
   * sequence's own (`own`) again. Answers the receiver paths it was set to meanwhile, where a
   * notification about the sequence's payments may have gone.
   */
  lendWebhook(ms: number, own: Webhook | null): Promise<string[]>;
  /**
   * As lendWebhook, at the sequence's end, where nothing is left for it to do with the webhook but
   * wait: another sequence may have the webhook for good (the sequence's own removed first).
   */
  handOverWebhook(ms: number, own: Webhook | null): Promise<string[]>;
  /** Counts a history of operations at once that was checked (./at-once.ts), by its number of operations. */
  histories: { checked(operations: number): void };
}

/** A departure from the reference, found by the model: the problems name their clauses. */
export class Departure extends Error {
  constructor(readonly problems: Problem[]) {
    super(describeProblems(problems));
  }
}

export interface Model extends ModelState {
  /** Accepted checkout answers so far (CHK-7). */
  checkoutAnswers: Exchange[];
}

/** Reads every 150 ms until `settled` holds of the answer or the instant `until` has passed: the last answer. */
export async function readUntil<Answer>(world: World, read: () => Promise<Answer>, settled: (answer: Answer) => boolean, until: number): Promise<Answer> {
  let answer = await read();
  while (!settled(answer) && world.now() < until) {
    await world.sleep(150);
    answer = await read();
  }
  return answer;
}

/**
 * A sequence starts with two customers (registered where the target has helpers), so that every
 * command has someone to act for. They share the merchant's number for them (collisions on every
 * visible attribute): their lists are still each their own.
 */
export async function startModel(world: Pick<World, 'helpers' | 'outOfBandCustomers'>): Promise<Model> {
  const sharedCustomerId = `shop-customer-${randomUUID().slice(0, 8)}`;
  const customers = world.helpers
    ? [await world.helpers.registerCustomer(sharedCustomerId), await world.helpers.registerCustomer(sharedCustomerId)]
    : [...world.outOfBandCustomers];
  return { ...emptyState(), customers, outOfBand: new Set(world.outOfBandCustomers), checkoutAnswers: [] };
}

export type Command = fc.AsyncCommand<Model, World>;
export const pick = <T>(list: readonly T[], index: number): T | undefined => (list.length === 0 ? undefined : list[index % list.length]);
/** The n-th of a list counted from its newest. */
export const pickNewest = <T>(list: readonly T[], n: number): T | undefined => pick([...list].reverse(), n);

/** Judges the notifications received so far, and throws the problems found (with the step's own). */
export function settle(model: Model, world: World, problems: Problem[]): void {
  const received = (path: string) => world.receiver.received(path);
  const found = [...problems, ...judgeNotifications(model, received, world.now(), world.eventMs)];
  if (found.length === 0) return;
  for (const path of model.paths) for (const request of received(path)) world.note('received at an address of the sequence', request);
  throw new Departure(found);
}

/** The end of a sequence, first: every owed notification awaited until it came or its time passed. Then finish. */
export async function awaitOwedNotifications(model: Model, world: World): Promise<void> {
  const received = (path: string) => world.receiver.received(path);
  while (model.owed.some((owed) => owed.required && !hasCome(owed, received) && world.now() < owed.dueBy)) await world.sleep(100);
}

/**
 * The end of a sequence: every customer's list (its UUID as registered, then in capitals) and every payment read once more and judged, then,
 * once any notification still coming has had a moment to, the notifications judged.
 */
export async function finish(model: Model, world: World): Promise<void> {
  for (let n = 0; n < model.customers.length; n++)
    for (const written of ['as registered', 'in capitals'] as const) await new ListMethods(n, written).run(model, world);
  for (let n = 0; n < model.references.length; n++) await new QueryPayment(n).run(model, world);
  const quietUntil = Math.min(model.quietAfter, world.now() + quietGraceMs);
  if (quietUntil > world.now()) for (const path of await world.handOverWebhook(quietUntil - world.now(), model.webhook)) model.paths.add(path);
  settle(model, world, []);
}

/**
 * Whether finish needs the webhook still set to the sequence's: a notification that must not come,
 * about a reference without callbackUrl, goes to the webhook set when it is sent.
 */
export const finishNeedsWebhook = (model: Model) =>
  model.webhook !== null && model.references.some((reference) => reference.state !== 'confirmed' && reference.callbackPath === null);

/** How long a sequence's end waits for a notification that must not come (one that does comes at once, from a faulty target). */
const quietGraceMs = 500;

export class RegisterCustomer implements Command {
  /** The merchant's own number for the customer, or none (the body {}). */
  constructor(readonly customerId: string | undefined) {}
  check = (model: Model) => model.customers.length < 4;
  async run(model: Model, world: World) {
    model.customers.push(await world.helpers!.registerCustomer(this.customerId));
    settle(model, world, []);
  }
  toString = () => `registerCustomer(${this.customerId === undefined ? '{}' : `customerId ${this.customerId}`})`;
}

export type CheckoutToCreate = 'storeMethod' | 'storeWithConsent' | 'withoutRegistration' | 'embedWeb' | 'embedMobile' | 'atmPage' | 'beyondRows';

/** The request with the method code and the customer set, in the letter case the request writes its UUID in (a stored method is the customer's, so storing checkouts name one). */
export function shaped(request: CheckoutRequest, code: 'CC' | 'MW' | null, customer: string | undefined, registration: 'keep' | 'none'): CheckoutRequest {
  const payment = { ...request.payment };
  if (code || registration === 'none') {
    const { details, ...method } = payment.paymentMethod ?? {};
    payment.paymentMethod = { ...method, ...(code && { code }), ...(registration === 'keep' && details && { details }) };
  }
  if (customer && payment.customer?.uuid !== undefined) payment.customer = { ...payment.customer, uuid: uuidWrittenAs(customer, payment.customer.uuid) };
  return { ...request, payment };
}

export class CreateCheckout implements Command {
  constructor(
    readonly kind: CheckoutToCreate,
    readonly request: CheckoutRequest,
    readonly code: 'CC' | 'MW',
    readonly customer: number,
  ) {}
  /** The customer it named and the checkout it created, once run. */
  #customer: string | undefined;
  #created: string | undefined;
  private needsCustomer = () => this.request.payment?.customer?.uuid !== undefined;
  check = (model: Model) => !this.needsCustomer() || model.customers.length > 0;
  async run(model: Model, world: World) {
    const customer = pick(model.customers, this.customer);
    this.#customer = customer;
    const storingRow = this.kind === 'storeMethod' || this.kind === 'storeWithConsent';
    const code = storingRow || this.kind === 'withoutRegistration' ? this.code : null;
    const request = shaped(this.request, code, customer, this.kind === 'withoutRegistration' ? 'none' : 'keep');
    const exchange = await world.call('createCheckout', { body: request });
    const problems = judgeCheckoutCreated(exchange, model.checkoutAnswers);
    const created = checkoutOf(exchange);
    this.#created = created?.id;
    if (problems.length === 0 && isSuccess(exchange.response.status) && created) {
      model.checkoutAnswers.push(exchange);
      const checkout = checkoutFrom(request, created, { onPage: code !== null, customer });
      model.checkouts.push(checkout);
      if (checkout.code === 'MB' && checkout.paymentId) return settle(model, world, await followCheckoutReference(model, world, checkout, checkout.paymentId));
    }
    settle(model, world, problems);
  }
  /** A row of 4.1 by its kind and code; a checkout beyond the rows by its layout, code and registration. */
  private described() {
    if (this.kind !== 'beyondRows') return `${this.kind}, ${this.code}`;
    const method = this.request.payment?.paymentMethod;
    return `layout ${this.request.page?.layout ?? 'none'}, ${method?.code}, ${registrationName(method?.details)}`;
  }
  /** The customer it named, as the request wrote the UUID. */
  private named() {
    const written = this.request.payment?.customer?.uuid;
    if (!this.#customer) return `#${this.customer}`;
    return written === undefined ? this.#customer : uuidWrittenAs(this.#customer, written);
  }
  toString = () =>
    `createCheckout(${this.described()}, customer ${this.named()}, amount ${this.request.payment?.amount})${createdAs('checkout', this.#created)}`;
}

/** Which checkouts a payment is made in: those not paid yet, or those processed already (paid, or declined). */
export type CheckoutState = 'unpaid' | 'processed';

export class Pay implements Command {
  constructor(
    readonly checkout: number,
    readonly outcome: 'success' | 'failure',
    /** Absent: the body carries no storeConsent. */
    readonly storeConsent: boolean | undefined,
    readonly state: CheckoutState = 'unpaid',
  ) {}
  /** The checkout it paid, once run. */
  #checkoutId: string | undefined;
  private inState = (checkout: Model['checkouts'][number]) => checkout.paid === (this.state === 'processed');
  check = (model: Model) => model.checkouts.some(this.inState);
  async run(model: Model, world: World) {
    const checkout = pickNewest(model.checkouts.filter(this.inState), this.checkout)!;
    this.#checkoutId = checkout.id;
    const paidWith = checkout.code === 'MB' ? ({ method: 'MB' } as const) : world.payWith(checkout.code === 'MW' ? 'MW' : 'CC', this.outcome === 'failure');
    const at = world.now();
    const answer = await world.helpers!.pay(checkout.id, {
      outcome: this.outcome,
      ...paidWith,
      ...(this.storeConsent !== undefined && { storeConsent: this.storeConsent }),
    } as PayRequest);
    checkout.paid = true;
    // A checkout is processed once (the helpers answer 409): a payment refused so stores nothing (TOK-3); what one taken anyway stores is not judged.
    const refusedAgain = this.state === 'processed' && isRefusal(answer.response.status);
    // Stored methods may show up to eventMs after the payment was answered, after a 200 as after a 202.
    model.payments.push({
      checkout,
      paidWith,
      outcome: refusedAgain ? 'refused' : this.outcome,
      storeConsent: this.storeConsent,
      at,
      settledBy: world.now() + world.eventMs,
      unknown: !refusedAgain && (this.state === 'processed' || !isSuccess(answer.response.status)),
    });
    // An MB checkout's reference still pending is followed no further. The pay helper acts as the
    // customer, and the reference ties a reference's confirmation and its notification to the
    // interbank network confirming it (sections 1 and 6, REF-6, EVT-1/2); neither it nor the helpers'
    // contract says what paying the checkout does to its reference, approved or declined: confirmed
    // at once, pending until the network confirms it, or no longer payable. No state, confirmation or
    // notification is owed of it (nor, after an approved payment, is a notification a departure).
    // One the network confirmed before stays as it is.
    const reference = model.references.find((one) => one.checkout === checkout && one.state === 'pending');
    if (reference) model.references.splice(model.references.indexOf(reference), 1);
    settle(model, world, []);
  }
  toString = () =>
    `pay(${this.state === 'processed' ? processedCheckout(this.#checkoutId, this.checkout) : unpaidCheckout(this.#checkoutId, this.checkout)}, ${this.outcome}, storeConsent ${this.storeConsent ?? 'absent'})`;
}

/** What a command created, once it ran: the id the evidence names it by. */
export const createdAs = (what: string, id: string | undefined) => (id ? ` → ${what} ${id}` : '');

/** The checkout a payment command paid, by id once it ran (as the evidence names it), else by its place. */
const unpaidCheckout = (id: string | undefined, fromNewest: number) => (id ? `checkout ${id}` : `unpaid checkout #${fromNewest} from the newest`);
const processedCheckout = (id: string | undefined, fromNewest: number) =>
  id ? `checkout ${id}, processed already` : `processed checkout #${fromNewest} from the newest`;

const payableOnPage = (checkout: Model['checkouts'][number]) => !checkout.paid && checkout.pageUrl !== undefined;

/** A customer pays on the checkout's page (approved: which card a target's issuer declines on a page is the target's): what it stores is owed as after the pay helper. */
export class PayOnPage implements Command {
  constructor(
    readonly checkout: number,
    readonly storeConsent: boolean,
  ) {}
  /** The checkout it paid, once run. */
  #checkoutId: string | undefined;
  check = (model: Model) => model.checkouts.some(payableOnPage);
  async run(model: Model, world: World) {
    const checkout = pickNewest(model.checkouts.filter(payableOnPage), this.checkout)!;
    this.#checkoutId = checkout.id;
    const paidWith = world.payWith(checkout.code === 'MW' ? 'MW' : 'CC', false);
    const at = world.now();
    const asked = checkout.registration === 'allowRegistration' ? this.storeConsent : undefined;
    const { consentOffered } = await world.pages!.pay(checkout.pageUrl!, paidWith, asked);
    checkout.paid = true;
    // A page that does not offer to store the method got no consent (PAGE-6 judges the offer).
    model.payments.push({
      checkout,
      paidWith,
      outcome: 'success',
      storeConsent: consentOffered && this.storeConsent,
      at,
      settledBy: world.now() + world.eventMs,
      unknown: false,
    });
    settle(model, world, []);
  }
  toString = () => `payOnPage(${unpaidCheckout(this.#checkoutId, this.checkout)}, storeConsent ${this.storeConsent})`;
}

/** How a list's path writes the customer's UUID: as registered, or in capitals (RFC 9562 section 4 reads a UUID without regard to letter case). */
export type UuidWritten = 'as registered' | 'in capitals';

export class ListMethods implements Command {
  constructor(
    readonly customer: number,
    readonly written: UuidWritten = 'as registered',
  ) {}
  /** The customer whose list it read, once run. */
  #customer: string | undefined;
  check = (model: Model) => model.customers.length > 0;
  async run(model: Model, world: World) {
    const customer = pick(model.customers, this.customer)!;
    this.#customer = customer;
    const param = this.written === 'in capitals' ? customer.toUpperCase() : customer;
    const deadline = Math.max(0, ...owedMethods(model, customer).map((payment) => payment.settledBy));
    // Until every owed method shows or its time passed (what must not be there may show late too: it is judged at the end).
    const exchange = await readUntil(
      world,
      () => world.call('listMethods', { param }),
      (read) => listSettled(read, customer, model),
      deadline,
    );
    settle(model, world, judgeList(exchange, customer, model));
  }
  toString = () => `listMethods(customer ${this.#customer ?? `#${this.customer}`}, uuid ${this.written})`;
}

export type WindowKind = 'long' | 'short' | 'ended' | 'future';
const second = 1000;
const day = 24 * 60 * 60 * second;

/** A validity window of the kind, as instants from now: short ones close within two seconds. */
function windowFrom(kind: WindowKind, now: number): { start: number; end: number } {
  switch (kind) {
    case 'long':
      return { start: now - 60 * second, end: now + 60 * 60 * second };
    case 'short':
      return { start: now - 60 * second, end: now + 2 * second };
    case 'ended':
      return { start: now - 2 * day, end: now - day };
    case 'future':
      return { start: now + day, end: now + 2 * day };
  }
}

export class CreateReference implements Command {
  constructor(
    readonly window: WindowKind,
    readonly withCallback: boolean,
    readonly amount: number,
    readonly offsets: [Parameters<typeof formatWithOffset>[1], Parameters<typeof formatWithOffset>[1]],
  ) {}
  /** The payment it created, once run. */
  #paymentId: string | undefined;
  check = () => true;
  async run(model: Model, world: World) {
    const created = await createReference(world, referenceRequest(world, this));
    this.#paymentId = created.reference?.paymentId;
    const problems = [...created.problems, ...(created.reference ? judgePayment(created.read!, created.reference, model) : [])];
    if (created.reference && problems.length === 0) addReference(model, created.reference);
    settle(model, world, problems);
  }
  toString = () =>
    `createReference(${this.window} window, ${this.withCallback ? 'with' : 'without'} callbackUrl, amount ${this.amount}, offsets ${this.offsets.join(' ')})${createdAs('payment', this.#paymentId)}`;
}

/** A reference's request, its window drawn as instants from now: the receiver path of its callbackUrl, where it has one. */
export function referenceRequest(
  world: Pick<World, 'now' | 'receiver'>,
  drawn: Pick<CreateReference, 'window' | 'withCallback' | 'amount' | 'offsets'>,
): { request: ReferenceRequest; callbackPath: string | null } {
  const { start, end } = windowFrom(drawn.window, world.now());
  const callbackPath = drawn.withCallback ? world.receiver.newPath('model-callback') : null;
  const request: ReferenceRequest = {
    type: 'payment',
    amount: drawn.amount,
    ...(callbackPath && { callbackUrl: `${world.receiver.urlOf(callbackPath)}?sequence=model` }),
    availableMethods: [{ code: 'MB' }],
    validDate: { start: formatWithOffset(start, drawn.offsets[0]), end: formatWithOffset(end, drawn.offsets[1]) },
  };
  return { request, callbackPath };
}

/**
 * Creates a reference and reads it back: the problems of its creation, and the reference as the
 * model follows it with the read that showed its digits (none where it was refused or has no id, REF-10).
 */
export async function createReference(
  world: Pick<World, 'now' | 'call'>,
  { request, callbackPath }: ReturnType<typeof referenceRequest>,
): Promise<{ problems: Problem[]; reference: ReferenceModel | null; read: Exchange | null }> {
  const sentAt = world.now();
  const exchange = await world.call('createReference', { body: request });
  const problems = judgeReferenceCreated(exchange, sentAt);
  const paymentId = paymentIdOf(exchange);
  if (problems.length > 0 || !isSuccess(exchange.response.status) || !paymentId) return { problems, reference: null, read: null };
  const read = await world.call('getPayment', { param: paymentId });
  const shown = paymentOf(read)?.referenceDetails?.reference;
  const reference: ReferenceModel = {
    paymentId,
    reference: typeof shown === 'string' ? shown : undefined,
    request,
    checkout: null,
    callbackPath,
    ...windowOf(request),
    state: 'pending',
    paidOutside: false,
  };
  return { problems, reference, read };
}

/**
 * An MB checkout's reference, which the service made for it: followed as a reference of its own is
 * (confirmed by the network or by paying the checkout, notified at the webhook, never before), where
 * GET /payments/{paymentId} shows its 9 digits and its window. The problems of that read.
 */
async function followCheckoutReference(model: Model, world: World, checkout: CheckoutModel, paymentId: string): Promise<Problem[]> {
  const read = await world.call('getPayment', { param: paymentId });
  const shown = paymentOf(read);
  const [start, end] = [Date.parse(String(shown?.validDate?.start)), Date.parse(String(shown?.validDate?.end))];
  const digits = shown?.referenceDetails?.reference;
  if (!isSuccess(read.response.status) || typeof digits !== 'string' || Number.isNaN(start) || Number.isNaN(end)) return [];
  const reference: ReferenceModel = {
    paymentId,
    reference: digits,
    request: null,
    checkout,
    callbackPath: null,
    start,
    end,
    state: 'pending',
    paidOutside: false,
  };
  addReference(model, reference);
  return judgePayment(read, reference, model);
}

/** A reference paid inside its window: read until it shows confirmed (eventMs at most), then its notification owed and the read judged. */
async function confirmedNow(model: Model, world: World, reference: ReferenceModel): Promise<void> {
  const confirmedAt = world.now();
  const read = await readUntil(world, () => world.call('getPayment', { param: reference.paymentId }), showsConfirmed, confirmedAt + world.eventMs);
  // A payment that never showed confirmed is REF-6's: its notification is not owed on top.
  confirmed(model, reference, showsConfirmed(read) ? confirmedAt + world.eventMs : null);
  settle(model, world, judgePayment(read, reference, model));
}

export function addReference(model: Model, reference: ReferenceModel): void {
  if (reference.callbackPath) model.paths.add(reference.callbackPath);
  model.references.push(reference);
}

export type PaidAtKind = 'now' | 'afterStart' | 'beforeStart' | 'afterEnd';

/** The instant a confirmation says the reference was paid at, of its kind: null where the helper's own clock decides (now, away from the window's edges). */
function paidAtOf(when: PaidAtKind, reference: ReferenceModel, now: number): number | null {
  // Away from the window's edges the helper's own clock decides; near them, paidAt is sent so that the target and the model judge the same instant.
  const clear =
    !insideWindow({ start: reference.start - second, end: reference.end + second }, now) ||
    insideWindow({ start: reference.start + second, end: reference.end - second }, now);
  switch (when) {
    case 'beforeStart':
      return reference.start - second;
    case 'afterEnd':
      return reference.end + second;
    // Earlier than the reference was created where its window had begun (a network confirming late); now where it is still to begin.
    case 'afterStart':
      return Math.min(reference.start + second, now);
    case 'now':
      return clear ? null : now;
  }
}

const paidAtNames: Record<PaidAtKind, string> = {
  now: 'now',
  afterStart: '1 s after validDate.start (or now, before it)',
  beforeStart: '1 s before validDate.start',
  afterEnd: '1 s after validDate.end',
};

export const showsConfirmed = (read: Exchange) => paymentOf(read)?.stateDetails?.state === 'confirmed';

export class Confirm implements Command {
  constructor(
    readonly reference: number,
    readonly when: PaidAtKind,
  ) {}
  /** The payment it confirmed, once run. */
  #paymentId: string | undefined;
  check = (model: Model) => model.references.length > 0;
  async run(model: Model, world: World) {
    const reference = pickNewest(model.references, this.reference)!;
    this.#paymentId = reference.paymentId;
    const now = world.now();
    const paidAt = paidAtOf(this.when, reference, now);
    const answer = await world.helpers!.confirm(reference.paymentId, paidAt === null ? undefined : new Date(paidAt).toISOString());
    // Without paidAt the helper's clock decides, when the request left: after the waits the target asked for.
    const inside = insideWindow(reference, paidAt ?? now + (answer.response.waitedMs ?? 0));
    model.quietAfter = Math.max(model.quietAfter, world.now() + world.eventMs);
    const readPayment = () => world.call('getPayment', { param: reference.paymentId });
    if (reference.state === 'pending' && inside) return confirmedNow(model, world, reference);
    if (reference.state === 'pending') reference.paidOutside = true;
    // Confirmed already, or outside the window: nothing changes (after a 202, what changes may show within eventMs).
    const deadline = answer.response.status === 202 ? world.now() + world.eventMs : 0;
    const read = await readUntil(world, readPayment, (read) => reference.state !== 'pending' || showsConfirmed(read), deadline);
    settle(model, world, judgePayment(read, reference, model));
  }
  toString = () =>
    `confirm(${this.#paymentId ? `payment ${this.#paymentId}` : `reference #${this.reference} from the newest`}, paid ${paidAtNames[this.when]})`;
}

export const isShort = (reference: ReferenceModel) => reference.end - reference.start < 5 * 60 * second;

/** Lets the first short window still open close (where all have closed, there is nothing to wait for). */
export class LetWindowClose implements Command {
  check = (model: Model) => model.references.some(isShort);
  async run(model: Model, world: World) {
    const now = world.now();
    const open = model.references.filter((reference) => isShort(reference) && reference.end > now);
    if (open.length > 0) {
      const ms = Math.min(Math.min(...open.map((reference) => reference.end)) - now + 100, 3 * second);
      const received = (path: string) => world.receiver.received(path);
      if (model.owed.some((owed) => owed.clause === 'EVT-2' && owed.required && !hasCome(owed, received))) await world.sleep(ms);
      else for (const path of await world.lendWebhook(ms, model.webhook)) model.paths.add(path);
    }
    settle(model, world, []);
  }
  toString = () => 'letShortWindowClose()';
}

/** The receiver paths the model sets the webhook to start so. */
export const webhookPathPrefix = 'model-webhook';

export class SetWebhook implements Command {
  check = () => true;
  async run(model: Model, world: World) {
    const path = world.receiver.newPath(webhookPathPrefix);
    const url = world.receiver.urlOf(path);
    await world.helpers!.setWebhook(url);
    webhookChanged(model, { path, url }, (owed) => hasCome(owed, (at) => world.receiver.received(at)));
    settle(model, world, []);
  }
  toString = () => 'setWebhook(a new address)';
}

export class RemoveWebhook implements Command {
  check = (model: Model) => model.webhook !== null;
  async run(model: Model, world: World) {
    await world.helpers!.removeWebhook();
    webhookChanged(model, null, (owed) => hasCome(owed, (at) => world.receiver.received(at)));
    settle(model, world, []);
  }
  toString = () => 'removeWebhook()';
}

export class QueryPayment implements Command {
  constructor(readonly reference: number) {}
  /** The payment it read, once run. */
  #paymentId: string | undefined;
  check = (model: Model) => model.references.length > 0;
  async run(model: Model, world: World) {
    const reference = pick(model.references, this.reference)!;
    this.#paymentId = reference.paymentId;
    const read = await world.call('getPayment', { param: reference.paymentId });
    settle(model, world, judgePayment(read, reference, model));
  }
  toString = () => `queryPayment(${this.#paymentId ? `payment ${this.#paymentId}` : `reference #${this.reference}`})`;
}
