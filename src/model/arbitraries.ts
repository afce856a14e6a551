/**
 * What the model's random sequences draw: every command, weighted, with those of the test helpers
 * and of the hosted pages only where the run has them, and bursts of operations at once (./at-once.ts).
 */
import fc from 'fast-check';
import { amount as amountArbitrary, beyondRowCases, checkoutVariants, merchantCustomerId, utcOffset } from '../generators/index.ts';
import type { CheckoutRequest } from '../../schemas/generated/types.ts';
import { ConfirmAtOnce, CreateAtOnce, PayAtOnce, type PaymentAtOnce } from './at-once.ts';
import {
  Confirm,
  CreateCheckout,
  CreateReference,
  LetWindowClose,
  ListMethods,
  Pay,
  PayOnPage,
  QueryPayment,
  RegisterCustomer,
  RemoveWebhook,
  SetWebhook,
  type CheckoutToCreate,
  type Command,
  type PaidAtKind,
  type UuidWritten,
  type WindowKind,
} from './commands.ts';

const index = fc.nat({ max: 7 });
/** How long after a burst starts an operation of it is sent: mostly at once, else within the same few tens of milliseconds. */
const spacing = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: 40 }) });
const spacings = (minLength: number, maxLength: number) => fc.array(spacing, { minLength, maxLength });

/** Which of a list, newest first: mostly the newest (a checkout just created is paid, a reference just created confirmed), sometimes an older one. */
const newestFirst = fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: index });

const checkoutRequests: Record<CheckoutToCreate, fc.Arbitrary<CheckoutRequest>> = {
  storeMethod: checkoutVariants.storeMethod,
  storeWithConsent: checkoutVariants.storeWithConsent,
  withoutRegistration: checkoutVariants.storeWithConsent,
  embedWeb: checkoutVariants.embedWeb,
  embedMobile: checkoutVariants.embedMobile,
  atmPage: checkoutVariants.atmPage,
  beyondRows: beyondRowCases.layoutCodeCombinations,
};

const weighted = (weight: number, arbitrary: fc.Arbitrary<Command>) => ({ weight, arbitrary });

const paymentAtOnce: fc.Arbitrary<PaymentAtOnce> = fc.oneof(
  ...(['storeMethod', 'storeWithConsent'] as const).map((kind) =>
    fc.record({
      kind: fc.constant(kind),
      request: checkoutVariants[kind],
      code: fc.constantFrom('CC' as const, 'MW' as const),
      outcome: fc.constantFrom('success' as const, 'success' as const, 'failure' as const),
      storeConsent: fc.boolean(),
      afterMs: spacing,
    }),
  ),
);

const referenceAtOnce = fc.record({ withCallback: fc.boolean(), amount: amountArbitrary(), offsets: fc.tuple(utcOffset(), utcOffset()), afterMs: spacing });
const createAtOnce = fc
  .record({
    references: fc.array(referenceAtOnce, { maxLength: 3 }),
    checkouts: fc.array(fc.record({ request: fc.oneof(checkoutVariants.embedWeb, checkoutVariants.storeMethod), afterMs: spacing }), { maxLength: 3 }),
  })
  .filter(({ references, checkouts }) => references.length + checkouts.length >= 2)
  .map(({ references, checkouts }): Command => new CreateAtOnce(references, checkouts));

/** The commands through the test helpers, by name: a target without them does not get these. */
const throughHelpers = {
  registerCustomer: weighted(
    1,
    fc.option(merchantCustomerId(), { nil: undefined }).map((customerId): Command => new RegisterCustomer(customerId)),
  ),
  pay: weighted(
    6,
    fc
      .record({
        checkout: newestFirst,
        outcome: fc.constantFrom('success' as const, 'success' as const, 'failure' as const),
        consent: fc.constantFrom(true, false, undefined),
      })
      .map(({ checkout, outcome, consent }): Command => new Pay(checkout, outcome, consent)),
  ),
  payAgain: weighted(
    1,
    fc
      .record({ checkout: index, outcome: fc.constantFrom('success' as const, 'failure' as const), consent: fc.boolean() })
      .map(({ checkout, outcome, consent }): Command => new Pay(checkout, outcome, consent, 'processed')),
  ),
  confirm: weighted(
    4,
    fc
      .record({ reference: newestFirst, when: fc.constantFrom<PaidAtKind>('now', 'now', 'now', 'afterStart', 'beforeStart', 'afterEnd') })
      .map(({ reference, when }): Command => new Confirm(reference, when)),
  ),
  payAtOnce: weighted(
    2,
    fc
      .record({ customer: index, payments: fc.array(paymentAtOnce, { minLength: 2, maxLength: 4 }), reads: spacings(0, 2) })
      .map(({ customer, payments, reads }): Command => new PayAtOnce(customer, payments, reads)),
  ),
  confirmAtOnce: weighted(
    1,
    fc
      .record({ reference: newestFirst, confirms: spacings(2, 3), reads: spacings(0, 2) })
      .map(({ reference, confirms, reads }): Command => new ConfirmAtOnce(reference, confirms, reads)),
  ),
  letShortWindowClose: weighted(1, fc.constant(new LetWindowClose())),
  setWebhook: weighted(2, fc.constant(new SetWebhook())),
  removeWebhook: weighted(1, fc.constant(new RemoveWebhook())),
};

/** The names of the commands a target without test helpers does not get. */
export const helperCommands = Object.keys(throughHelpers);

/** The commands of a sequence: every operation, and those of the test helpers only where the target has them. */
export function modelCommands(options: { helpers: boolean; pages: boolean; maxCommands: number; replayPath?: string }): fc.Arbitrary<Iterable<Command>> {
  // Storing checkouts most: what they store, or must not, is what several customers' payments interact on.
  const checkout = fc.oneof(
    ...(Object.entries(checkoutRequests) as [CheckoutToCreate, fc.Arbitrary<CheckoutRequest>][]).map(([kind, request]) => ({
      weight: kind === 'storeMethod' || kind === 'storeWithConsent' ? 3 : 1,
      arbitrary: fc
        .record({ request, code: fc.constantFrom('CC' as const, 'MW' as const), customer: index })
        .map(({ request, code, customer }): Command => new CreateCheckout(kind, request, code, customer)),
    })),
  );
  const reference = fc
    .record({
      window: fc.constantFrom<WindowKind>('long', 'long', 'short', 'short', 'ended', 'future'),
      withCallback: fc.boolean(),
      amount: amountArbitrary(),
      offsets: fc.tuple(utcOffset(), utcOffset()),
    })
    .map(({ window, withCallback, amount, offsets }): Command => new CreateReference(window, withCallback, amount, offsets));
  const stateless = [
    weighted(6, checkout),
    weighted(4, reference),
    weighted(1, createAtOnce),
    weighted(
      1,
      index.map((n): Command => new QueryPayment(n)),
    ),
    weighted(
      2,
      fc
        .record({ customer: index, written: fc.constantFrom<UuidWritten>('as registered', 'in capitals') })
        .map(({ customer, written }): Command => new ListMethods(customer, written)),
    ),
  ];
  const onPages = [
    weighted(
      6,
      fc.record({ checkout: newestFirst, consent: fc.boolean() }).map(({ checkout, consent }): Command => new PayOnPage(checkout, consent)),
    ),
  ];
  // Unbiased: a biased run starts with empty sequences, and a run of a few sequences needs every one.
  return fc.noBias(
    fc.commands([fc.oneof(...stateless, ...(options.helpers ? Object.values(throughHelpers) : []), ...(options.pages ? onPages : []))], {
      maxCommands: options.maxCommands,
      size: 'max',
      ...(options.replayPath !== undefined && { replayPath: options.replayPath }),
    }),
  );
}

/** Sequences of bursts of operations at once only (those through the test helpers too): what the sandbox must stay linearizable under. */
export const burstSequences = (maxCommands: number): fc.Arbitrary<Iterable<Command>> =>
  fc.commands([fc.oneof(createAtOnce, throughHelpers.payAtOnce.arbitrary, throughHelpers.confirmAtOnce.arbitrary)], { maxCommands, size: 'max' });
