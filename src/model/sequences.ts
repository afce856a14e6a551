/**
 * The sequences the model runs on every run, before its random ones. A fault of interaction shows
 * only in some order of operations (a payment after another customer's, a reference confirmed after
 * later ones were created, the webhook set while a reference waits); each such order is a scenario
 * class of src/generators/classes.ts, met here whatever the seed draws.
 */
import fc from 'fast-check';
import {
  amount,
  checkoutPaymentPaths,
  checkoutVariants,
  paidAgainClass,
  paymentCombinationsClass,
  referenceCombinationsClass,
  utcOffset,
  type ScenarioClause,
  type scenarioClasses,
} from '../generators/index.ts';
import { paymentCombinations, paymentRow, referenceCombinations, referenceRow, type Draw } from './combinations.ts';
import { ConfirmAtOnce, CreateAtOnce, PayAtOnce } from './at-once.ts';
import { Confirm, CreateCheckout, CreateReference, ListMethods, Pay, PayOnPage, RemoveWebhook, SetWebhook, type Command } from './commands.ts';

/** One scenario class of a clause, by its name in src/generators/classes.ts. */
export type ScenarioClass = { [C in ScenarioClause]: { clause: C; name: (typeof scenarioClasses)[C][number] } }[ScenarioClause];

export interface DirectedSequence {
  title: string;
  classes: ScenarioClass[];
  /** Customers #0 and #1 are the two a sequence starts with; checkouts and references are counted from the newest. */
  commands(draw: Draw): Command[];
}

/** The commands of directed sequences, their requests drawn from the seed, each draw with a seed of its own. */
export function directedCommands(sequences: readonly DirectedSequence[], seed: number): Command[][] {
  let draws = 0;
  return sequences.map((sequence) => sequence.commands((arbitrary) => fc.sample(arbitrary, { seed: seed + draws++, numRuns: 1 })[0]));
}

const reference = (draw: Draw, window: 'long' | 'future', withCallback: boolean) =>
  new CreateReference(window, withCallback, draw(amount()), draw(fc.tuple(utcOffset(), utcOffset())));

/** A reference of a burst, created after `afterMs`. */
const referenceAtOnce = (draw: Draw, withCallback: boolean, afterMs: number) => ({
  withCallback,
  amount: draw(amount()),
  offsets: draw(fc.tuple(utcOffset(), utcOffset())),
  afterMs,
});

/** Operations at once, of every burst, on every run: whatever the seed draws, each kind of burst is met once. */
const atOnceSequence: DirectedSequence = {
  title: 'operations at once: creations side by side, payments of one customer, confirmations of one reference',
  classes: [
    { clause: 'CHK-7', name: 'checkouts created at once' },
    { clause: 'REF-8', name: 'references created at once beside checkouts' },
    { clause: 'TOK-1', name: 'payments of one customer at once, the list read meanwhile' },
    { clause: 'REF-6', name: 'confirmed several times at once, read meanwhile' },
  ],
  commands: (draw) => [
    new CreateAtOnce(
      [referenceAtOnce(draw, true, 0), referenceAtOnce(draw, false, 0), referenceAtOnce(draw, true, 5)],
      [0, 0, 5].map((afterMs) => ({ request: draw(checkoutVariants.embedWeb), afterMs })),
    ),
    new PayAtOnce(
      0,
      [
        { kind: 'storeMethod', request: draw(checkoutVariants.storeMethod), code: 'CC', outcome: 'success', storeConsent: false, afterMs: 0 },
        { kind: 'storeMethod', request: draw(checkoutVariants.storeMethod), code: 'MW', outcome: 'success', storeConsent: false, afterMs: 0 },
        { kind: 'storeWithConsent', request: draw(checkoutVariants.storeWithConsent), code: 'CC', outcome: 'success', storeConsent: true, afterMs: 3 },
      ],
      [0, 10],
    ),
    new ConfirmAtOnce(0, [0, 0, 2], [0, 5]),
  ],
};
/** Rows of a covering array per sequence: the sequences of the first pass run side by side, so a slow target takes a few rows' time, not the array's. */
const rowsPerSequence = 8;

function inChunks<T>(rows: readonly T[]): T[][] {
  return Array.from({ length: Math.ceil(rows.length / rowsPerSequence) }, (_, at) => rows.slice(at * rowsPerSequence, (at + 1) * rowsPerSequence));
}

const paymentClasses: ScenarioClass[] = (['TOK-1', 'TOK-2', 'TOK-3', 'TOK-4', 'TOK-5'] as const).map((clause) => ({ clause, name: paymentCombinationsClass }));
const referenceClasses: ScenarioClass[] = (['REF-6', 'REF-7', 'EVT-1', 'EVT-2', 'EVT-4'] as const).map((clause) => ({
  clause,
  name: referenceCombinationsClass,
}));

/**
 * The rows of the covering arrays (./combinations.ts) in sequences of a few each. References notified
 * at the webhook go in sequences that set it (in their turn with the webhook); the others in
 * sequences that leave it alone.
 */
export const combinationSequences: DirectedSequence[] = [
  ...inChunks(paymentCombinations.rows).map((rows, at) => ({
    title: `3-way combinations of a payment's dimensions, part ${at + 1}`,
    classes: paymentClasses,
    commands: (draw: Draw) => rows.flatMap((row) => paymentRow(row, draw)),
  })),
  ...(['webhook', 'elsewhere'] as const).flatMap((where) =>
    inChunks(referenceCombinations.rows.filter((row) => (row.notifiedAt === 'webhook') === (where === 'webhook'))).map((rows, at) => ({
      title: `3-way combinations of a reference's dimensions, ${where === 'webhook' ? 'notified at the webhook' : 'not at the webhook'}, part ${at + 1}`,
      classes: referenceClasses,
      commands: (draw: Draw) => [...(where === 'webhook' ? [new SetWebhook()] : []), ...rows.flatMap((row) => referenceRow(row, draw))],
    })),
  ),
];

/** Through the test helpers: what the model runs where the target has them. */
export const helperSequences: DirectedSequence[] = [
  {
    title: 'two customers paying in turn, storing and not',
    classes: [
      { clause: 'TOK-1', name: 'a stored method, then a declined payment of its customer' },
      { clause: 'TOK-2', name: 'consent given by one customer, then declined by the same' },
      { clause: 'TOK-3', name: 'a declined payment of a customer who stored a method before' },
      { clause: 'TOK-4', name: 'a payment without registration of a customer who stored a method before' },
      { clause: 'TOK-6', name: 'two customers storing in turn' },
      { clause: 'TOK-3', name: paidAgainClass },
    ],
    commands: (draw) => [
      new CreateCheckout('storeMethod', draw(checkoutVariants.storeMethod), 'CC', 0),
      new Pay(0, 'success', false),
      new CreateCheckout('storeWithConsent', draw(checkoutVariants.storeWithConsent), 'MW', 1),
      new Pay(0, 'success', true),
      new CreateCheckout('storeMethod', draw(checkoutVariants.storeMethod), 'CC', 0),
      new Pay(0, 'failure', true),
      new CreateCheckout('storeWithConsent', draw(checkoutVariants.storeWithConsent), 'CC', 1),
      new Pay(0, 'success', false),
      new CreateCheckout('withoutRegistration', draw(checkoutVariants.storeWithConsent), 'MW', 0),
      new Pay(0, 'success', true),
      // Counted from the newest processed: the declined storing checkout, then the first, paid.
      new Pay(2, 'success', true, 'processed'),
      new Pay(4, 'success', true, 'processed'),
      new ListMethods(0),
      new ListMethods(1),
    ],
  },
  {
    title: 'the webhook set and moved while references wait',
    classes: [
      { clause: 'EVT-1', name: 'created before a webhook was set, confirmed after' },
      { clause: 'EVT-1', name: 'created while a webhook was set' },
      { clause: 'EVT-2', name: 'created before the webhook was set, confirmed after' },
      { clause: 'EVT-2', name: 'created while the webhook was set' },
      { clause: 'EVT-2', name: 'created while one webhook was set, confirmed after it moved' },
      { clause: 'EVT-4', name: 'left unpaid while other references were confirmed' },
    ],
    commands: (draw) => [
      reference(draw, 'long', true),
      reference(draw, 'long', true),
      reference(draw, 'long', false),
      new SetWebhook(),
      reference(draw, 'long', true),
      reference(draw, 'long', false),
      reference(draw, 'long', false),
      new Confirm(4, 'now'),
      new Confirm(3, 'now'),
      new Confirm(2, 'now'),
      new Confirm(1, 'now'),
      new SetWebhook(),
      new Confirm(0, 'now'),
    ],
  },
  {
    // Apart from the sequence above: a notification on its way when the webhook changes may go to either address, or none.
    title: 'the webhook removed while references wait',
    classes: [{ clause: 'EVT-1', name: 'confirmed after the webhook was removed' }],
    commands: (draw) => [
      new SetWebhook(),
      reference(draw, 'long', true),
      reference(draw, 'long', false),
      new RemoveWebhook(),
      new Confirm(1, 'now'),
      new Confirm(0, 'now'),
    ],
  },
  {
    title: "MB checkouts' references beside a reference of its own: one confirmed by the network, one paid through the pay helper, one left unpaid",
    classes: [
      { clause: 'EVT-2', name: checkoutPaymentPaths.confirmedByNetwork },
      { clause: 'REF-6', name: checkoutPaymentPaths.confirmedByNetwork },
      { clause: 'EVT-4', name: "an MB checkout's reference not paid, a webhook configured" },
    ],
    // References newest first: the reference of its own, then the checkouts' from the last created.
    // The newest checkout is paid through the pay helper, whose reference is then followed no further
    // (what paying the checkout does to it is not said); of the two left, the older is confirmed by the
    // network and the other left unpaid.
    commands: (draw) => [
      new SetWebhook(),
      ...[0, 1, 2].map(() => new CreateCheckout('atmPage', draw(checkoutVariants.atmPage), 'CC', 0)),
      reference(draw, 'long', false),
      new Pay(0, 'success', false),
      new Confirm(2, 'now'),
      new Confirm(0, 'now'),
    ],
  },
  {
    title: 'the windows of several references side by side',
    classes: [
      { clause: 'REF-6', name: 'an older reference confirmed after later ones were created' },
      { clause: 'REF-6', name: 'confirmed twice' },
      { clause: 'REF-7', name: 'a window not yet open, beside open ones' },
      { clause: 'REF-7', name: 'paid after its end, beside open ones' },
    ],
    commands: (draw) => [
      reference(draw, 'long', true),
      reference(draw, 'future', true),
      reference(draw, 'long', false),
      new Confirm(1, 'now'),
      new Confirm(0, 'afterEnd'),
      new Confirm(2, 'now'),
      new Confirm(2, 'now'),
    ],
  },
  atOnceSequence,
  ...combinationSequences,
];

/**
 * On the hosted page: each class of a page payment once, for both customers: consent declined and
 * given (TOK-2), createRegistration with a card and a wallet (TOK-1), no registration (TOK-4), then
 * both lists, each of which must hold only its own customer's methods (TOK-6).
 */
export const pageSequence: DirectedSequence = {
  title: 'every class of a page payment',
  classes: [],
  commands: (draw) => [
    new CreateCheckout('storeWithConsent', draw(checkoutVariants.storeWithConsent), 'CC', 0),
    new PayOnPage(0, false),
    new CreateCheckout('storeWithConsent', draw(checkoutVariants.storeWithConsent), 'CC', 1),
    new PayOnPage(0, true),
    new CreateCheckout('storeMethod', draw(checkoutVariants.storeMethod), 'CC', 0),
    new PayOnPage(0, false),
    new CreateCheckout('storeMethod', draw(checkoutVariants.storeMethod), 'MW', 1),
    new PayOnPage(0, true),
    new CreateCheckout('withoutRegistration', draw(checkoutVariants.storeWithConsent), 'CC', 0),
    new PayOnPage(0, true),
    new ListMethods(0),
    new ListMethods(1),
  ],
};
