/**
 * Operations at once: bursts of creations side by side, of payments and reads of one customer, of
 * confirmations and reads of one reference. Each operation starts after a spacing drawn from the
 * seed (time is an input, not only what falls), and a burst passes when some serial order of the
 * model explains every answer and the read that follows it (./linearizability.ts). A burst that no
 * order explains ends the sequence with the problems of the longest order found, and its timeline.
 */
import type { CheckoutRequest, PayRequest } from '../../schemas/generated/types.ts';
import { checkoutOf, isSuccess, type Exchange } from '../checks/index.ts';
import { judgeCheckoutCreated, judgeList, judgePayment, listSettled } from './judge.ts';
import { linearize, timeline, type HistoryOperation, type SequentialModel } from './linearizability.ts';
import { checkoutFrom, confirmed, insideWindow, type CheckoutModel, type Payment, type ReferenceModel } from './state.ts';
import {
  addReference,
  createdAs,
  createReference,
  Departure,
  isShort,
  pick,
  pickNewest,
  readUntil,
  referenceRequest,
  settle,
  shaped,
  showsConfirmed,
  type Command,
  type CreateReference,
  type Model,
  type World,
} from './commands.ts';

/** Sends after `afterMs`: the operation as the history keeps it, called when its request went out. */
async function timed<Input, Output>(
  world: World,
  afterMs: number,
  label: string,
  input: Input,
  send: () => Promise<Output>,
): Promise<HistoryOperation<Input, Output>> {
  if (afterMs > 0) await world.sleep(afterMs);
  const call = world.now();
  const output = await send();
  return { input, output, call, return: world.now(), label };
}

/** Judges a history against the sequential model: its final state where some order explains it, else the sequence ends (Departure). */
function judgeHistory<State, Input, Output>(
  history: HistoryOperation<Input, Output>[],
  sequential: SequentialModel<State, Input, Output>,
  world: World,
): State {
  world.histories.checked(history.length);
  const found = linearize(history, sequential);
  if (found.linearizable) return found.state;
  const longest = found.longest.map((index) => history[index].label).join(', ') || 'none';
  world.note(`operations at once that no serial order explains (the longest order found: ${longest}):\n${timeline(history)}`);
  throw new Departure(found.problems);
}

type Creation = { checkout: CheckoutRequest; answer: Exchange } | { reference: Awaited<ReturnType<typeof createReference>> };
type CreationState = { answers: Exchange[]; references: ReferenceModel[] };

/** Creations side by side: each accepted id is new (CHK-7), each reference distinct from those valid beside it (REF-8), whatever came first. */
const creationsModel = (model: Model): SequentialModel<CreationState, null, Creation> => ({
  init: { answers: model.checkoutAnswers, references: model.references },
  step(state, { output }) {
    if ('answer' in output) {
      const problems = judgeCheckoutCreated(output.answer, state.answers);
      if (problems.length > 0) return { problems };
      return { state: isSuccess(output.answer.response.status) ? { ...state, answers: [...state.answers, output.answer] } : state };
    }
    const { problems, reference, read } = output.reference;
    const found = [...problems, ...(reference ? judgePayment(read!, reference, { ...model, references: state.references }) : [])];
    if (found.length > 0) return { problems: found };
    return { state: reference ? { ...state, references: [...state.references, reference] } : state };
  },
  key: (state) => `${state.answers.length} ${state.references.length}`,
});

const createCheckoutAt = (world: World, afterMs: number, body: CheckoutRequest) =>
  timed(world, afterMs, 'createCheckout', null, async (): Promise<Creation> => ({ checkout: body, answer: await world.call('createCheckout', { body }) }));

/** Names each creation by what it created, for the timeline. */
function labelled(history: HistoryOperation<null, Creation>[]): HistoryOperation<null, Creation>[] {
  for (const operation of history) {
    const { output } = operation;
    operation.label += 'answer' in output ? createdAs('checkout', checkoutOf(output.answer)?.id) : createdAs('payment', output.reference.reference?.paymentId);
  }
  return history;
}

/** The checkouts a history of creations created, as the model keeps them; the rest of the model is the history's final state. */
function created(
  model: Model,
  history: HistoryOperation<null, Creation>[],
  final: CreationState,
  options: { onPage: boolean; customer: string | undefined },
): (CheckoutModel | undefined)[] {
  const checkouts = history.map(({ output }) => {
    const checkout = 'answer' in output && isSuccess(output.answer.response.status) ? checkoutOf(output.answer) : undefined;
    return checkout && 'answer' in output ? checkoutFrom(output.checkout, checkout, options) : undefined;
  });
  model.checkouts.push(...checkouts.filter((checkout) => checkout !== undefined));
  model.checkoutAnswers = final.answers;
  for (const reference of final.references.slice(model.references.length)) addReference(model, reference);
  return checkouts;
}

/** References (long windows) and checkouts created at once. */
export class CreateAtOnce implements Command {
  constructor(
    readonly references: (Pick<CreateReference, 'withCallback' | 'amount' | 'offsets'> & { afterMs: number })[],
    readonly checkouts: { request: CheckoutRequest; afterMs: number }[],
  ) {}
  #created: string[] = [];
  check = (model: Model) => model.customers.length > 0 || this.checkouts.every(({ request }) => request.payment?.customer?.uuid === undefined);
  async run(model: Model, world: World) {
    const customer = pick(model.customers, 0);
    const history = labelled(
      await Promise.all([
        ...this.checkouts.map(({ request, afterMs }) => createCheckoutAt(world, afterMs, shaped(request, null, customer, 'keep'))),
        ...this.references.map((drawn) => {
          const sent = referenceRequest(world, { ...drawn, window: 'long' });
          return timed(world, drawn.afterMs, 'createReference', null, async (): Promise<Creation> => ({ reference: await createReference(world, sent) }));
        }),
      ]),
    );
    this.#created = history.map((operation) => operation.label);
    created(model, history, judgeHistory(history, creationsModel(model), world), { onPage: false, customer });
    settle(model, world, []);
  }
  toString = () =>
    `createAtOnce(${this.#created.length > 0 ? this.#created.join('; ') : `${this.checkouts.length} checkouts, ${this.references.length} references`}, after ${[...this.checkouts, ...this.references].map(({ afterMs }) => afterMs).join('/')} ms)`;
}

type CustomerOperation = { pay: Payment } | { list: string };

/** A customer's list, read while its payments go on: it holds nothing that no payment before it in the order stores, and, once their time passed, all they store. */
const customerModel = (model: Model, customer: string): SequentialModel<Payment[], CustomerOperation, Exchange> => ({
  init: [],
  step(applied, { input, output, call }) {
    if ('pay' in input) return { state: [...applied, input.pay] };
    const mayLackYet = applied.filter((payment) => payment.settledBy > call);
    const problems = judgeList(output, customer, { ...model, payments: [...model.payments, ...applied] }, mayLackYet);
    return problems.length > 0 ? { problems } : { state: applied };
  },
  key: (applied) =>
    applied
      .map((payment) => payment.checkout.id)
      .sort()
      .join(' '),
});

export interface PaymentAtOnce {
  kind: 'storeMethod' | 'storeWithConsent';
  request: CheckoutRequest;
  code: 'CC' | 'MW';
  outcome: 'success' | 'failure';
  storeConsent: boolean;
  afterMs: number;
}

/** Checkouts of one customer created at once, then paid at once while the customer's list is read; then the list once they settled. */
export class PayAtOnce implements Command {
  constructor(
    readonly customer: number,
    readonly payments: PaymentAtOnce[],
    readonly readsAfterMs: number[],
  ) {}
  #customer: string | undefined;
  #paid: string[] = [];
  check = (model: Model) => model.customers.length > 0;
  async run(model: Model, world: World) {
    const customer = pick(model.customers, this.customer)!;
    this.#customer = customer;
    const creations = labelled(
      await Promise.all(this.payments.map((payment) => createCheckoutAt(world, payment.afterMs, shaped(payment.request, payment.code, customer, 'keep')))),
    );
    const checkouts = created(model, creations, judgeHistory(creations, creationsModel(model), world), { onPage: true, customer });
    const pays = checkouts
      .flatMap((checkout, n) => (checkout ? [{ checkout, drawn: this.payments[n] }] : []))
      .map(({ checkout, drawn }) => {
        const paidWith = world.payWith(drawn.code, drawn.outcome === 'failure');
        checkout.paid = true;
        return timed(world, drawn.afterMs, `pay(checkout ${checkout.id}, ${drawn.outcome}, storeConsent ${drawn.storeConsent})`, null, async () =>
          world.helpers!.pay(checkout.id, { outcome: drawn.outcome, ...paidWith, storeConsent: drawn.storeConsent } as PayRequest),
        ).then(({ output, ...operation }): HistoryOperation<CustomerOperation, Exchange> => {
          const payment: Payment = {
            checkout,
            paidWith,
            outcome: drawn.outcome,
            storeConsent: drawn.storeConsent,
            at: operation.call,
            settledBy: operation.return + world.eventMs,
            unknown: !isSuccess(output.response.status),
          };
          return { ...operation, input: { pay: payment }, output };
        });
      });
    this.#paid = checkouts.flatMap((checkout) => (checkout ? [checkout.id] : []));
    const read = (afterMs: number) =>
      timed(world, afterMs, `listMethods(customer ${customer})`, { list: customer } as CustomerOperation, () => world.call('listMethods', { param: customer }));
    const during = await Promise.all([...pays, ...this.readsAfterMs.map(read)]);
    const paid = during.flatMap(({ input }) => ('pay' in input ? [input.pay] : []));
    // The list once every payment's time passed: read until it holds all they store, or their time passed.
    const after = { ...model, payments: [...model.payments, ...paid] };
    const deadline = Math.max(0, ...paid.map((payment) => payment.settledBy));
    const last = await readUntil(
      world,
      () => read(0),
      ({ output }) => listSettled(output, customer, after),
      deadline,
    );
    const applied = judgeHistory([...during, last], customerModel(model, customer), world);
    model.payments.push(...applied);
    settle(model, world, []);
  }
  toString = () =>
    `payAtOnce(customer ${this.#customer ?? `#${this.customer}`}, ${
      this.#paid.length > 0 ? this.#paid.map((id) => `checkout ${id}`).join(', ') : `${this.payments.length} checkouts`
    }, ${this.payments.map((payment) => `${payment.code} ${payment.outcome}`).join('/')}, after ${this.payments.map(({ afterMs }) => afterMs).join('/')} ms, reads after ${this.readsAfterMs.join('/') || 'none'} ms)`;
}

interface ReferenceState {
  state: 'pending' | 'confirmed';
  paidOutside: boolean;
  /** When the confirmation must show on a read (a confirmation may take eventMs to show). */
  showsBy: number;
}

type ReferenceOperation = 'confirm' | 'read';

/** One reference confirmed several times at once and read meanwhile: confirmed once by the first confirmation inside its window, and shown so once its time passed (REF-6, REF-7). */
const referenceModel = (model: Model, reference: ReferenceModel, eventMs: number): SequentialModel<ReferenceState, ReferenceOperation, Exchange> => ({
  init: { state: reference.state, paidOutside: reference.paidOutside, showsBy: 0 },
  step(state, { input, output, call, return: returned }) {
    if (input === 'confirm') {
      if (state.state !== 'pending') return { state };
      return insideWindow(reference, call)
        ? { state: { ...state, state: 'confirmed', showsBy: returned + eventMs } }
        : { state: { ...state, paidOutside: true } };
    }
    const shows = state.state === 'confirmed' && call >= state.showsBy ? 'confirmed' : 'pending';
    const problems = judgePayment(output, { ...reference, state: shows, paidOutside: state.state === 'pending' && state.paidOutside }, model);
    return problems.length > 0 ? { problems } : { state };
  },
  key: (state) => `${state.state} ${state.paidOutside} ${state.showsBy}`,
});

/** One reference (of a long window, away from its edges) confirmed several times at once, read meanwhile and once it settled. */
export class ConfirmAtOnce implements Command {
  constructor(
    readonly reference: number,
    readonly confirmsAfterMs: number[],
    readonly readsAfterMs: number[],
  ) {}
  #paymentId: string | undefined;
  check = (model: Model) => model.references.some((reference) => !isShort(reference));
  async run(model: Model, world: World) {
    const reference = pickNewest(
      model.references.filter((one) => !isShort(one)),
      this.reference,
    )!;
    this.#paymentId = reference.paymentId;
    const { paymentId } = reference;
    const confirm = (afterMs: number) =>
      timed(world, afterMs, `confirm(payment ${paymentId})`, 'confirm' as ReferenceOperation, () => world.helpers!.confirm(paymentId));
    const read = (afterMs: number) =>
      timed(world, afterMs, `getPayment(${paymentId})`, 'read' as ReferenceOperation, () => world.call('getPayment', { param: paymentId }));
    const during = await Promise.all([...this.confirmsAfterMs.map(confirm), ...this.readsAfterMs.map(read)]);
    model.quietAfter = Math.max(model.quietAfter, world.now() + world.eventMs);
    const owesConfirmed = reference.state === 'pending' && during.some(({ input, call }) => input === 'confirm' && insideWindow(reference, call));
    const deadline = owesConfirmed ? world.now() + world.eventMs : 0;
    const last = await readUntil(
      world,
      () => read(0),
      ({ output }) => showsConfirmed(output),
      deadline,
    );
    const final = judgeHistory([...during, last], referenceModel(model, reference, world.eventMs), world);
    if (final.state === 'confirmed' && reference.state === 'pending') confirmed(model, reference, last.return + world.eventMs);
    else if (final.paidOutside) reference.paidOutside = true;
    settle(model, world, []);
  }
  toString = () =>
    `confirmAtOnce(${this.#paymentId ? `payment ${this.#paymentId}` : `reference #${this.reference} from the newest`}, confirmations after ${this.confirmsAfterMs.join('/')} ms, reads after ${this.readsAfterMs.join('/') || 'none'} ms)`;
}
