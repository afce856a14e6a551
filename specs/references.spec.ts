/** Reference 2.5, 2.6, 4.3, 4.4 and 8: ATM payment references. */
import fc from 'fast-check';
import {
  brokenReferences,
  confirmationClasses,
  framingClasses,
  referenceClasses,
  referenceClassName,
  referenceSearchBound,
  referenceShapeOf,
  referenceShapes,
  referenceStages,
  timestampClasses,
  validReference,
  type ReferenceStage,
} from '../src/generators/index.ts';
import type { Payment, ReferenceRequest } from '../schemas/generated/types.ts';
import type { ClassOutcome } from '../src/core/evidence.ts';
import { needs } from '../src/core/needs.ts';
import {
  checkConfirmed,
  checkDistinctReferences,
  checkNotConfirmed,
  checkPayment,
  checkPaymentEchoes,
  checkReferenceCreated,
  checkRefused,
  judgeAnswer,
  paymentIdOf,
  paymentOf,
  type Exchange,
  type Problem,
} from '../src/checks/index.ts';
import { exercises, helperClient, helpersUsable, requires, tags, test, type Receiver } from '../src/harness/fixtures.ts';
import {
  createReference,
  referenceCreated,
  exerciseClasses,
  exerciseClassesAtOnce,
  createClosedReference,
  futureWindow,
  mustSucceed,
  readPayment,
  readSettled,
  recordClasses,
  refusedWhereFree,
  requireServed,
  sample,
  searchReferenceShapes,
  samples,
} from '../src/harness/flows.ts';
import { inParallel, oneAtATime } from '../src/harness/pace.ts';

/** The request with its callbackUrl (where it has one) moved to the suite's receiver, its query kept: a test's notifications stay on this machine. */
const callbackAtReceiver = (receiver: Receiver, request: ReferenceRequest): ReferenceRequest =>
  request.callbackUrl === undefined
    ? request
    : { ...request, callbackUrl: `${receiver.urlOf(receiver.newPath('callback'))}${new URL(request.callbackUrl).search}` };

/** More references than a target that recycles a pool of 100 (or a page of them) could keep apart. */
const manyReferences = 120;

test.describe('payment references', () => {
  // First of the file: it waits for its window to close, beside the quick tests that follow.
  test(
    'a payment outside the validity window (after it closed) does not confirm the reference',
    { tag: tags('REF-7'), annotation: exercises('REF-7', 'paid after the window closed') },
    async ({ run, api, interbank }) => {
      const { paymentId } = await createClosedReference(api, sample(run, validReference({ callback: 'without' })));
      const confirmation = await interbank.confirm(paymentId);
      api.expectNoProblems(checkNotConfirmed(await readSettled(run, api, paymentId, 'unchanged', confirmation), { why: 'after a payment outside the window' }));
    },
  );

  test('a valid reference request succeeds, with and without callbackUrl (every class)', { tag: tags('REF-1') }, async ({ run, api, receiver }) => {
    await exerciseClassesAtOnce(run, api, 'REF-1', referenceClasses['REF-1'], async (request) => {
      const sentAt = Date.now();
      const exchange = await api.call('createReference', { body: callbackAtReceiver(receiver, request) });
      return judgeAnswer('createReference', exchange, { sentAt, suiteCredentials: true }).problems;
    });
  });

  test(
    'a valid reference request is accepted in every framing ordinary HTTP clients send (every class)',
    { tag: tags('REF-1') },
    async ({ run, api, receiver }) => {
      const request = callbackAtReceiver(receiver, sample(run, validReference({ around: new Date() })));
      await exerciseClassesAtOnce(run, api, 'REF-1', framingClasses['REF-1'], async (framing) => {
        const sentAt = Date.now();
        return judgeAnswer('createReference', await api.call('createReference', { body: request, framing }), { sentAt, suiteCredentials: true }).problems;
      });
    },
  );

  // The whole shape of 2.6 is owed by a confirmed payment: one is read in every framing.
  test(
    'a confirmed payment is read in every framing ordinary HTTP clients send (every class)',
    { tag: tags('REF-3') },
    async ({ run, api, interbank, receiver }) => {
      const { paymentId } = await createReference(api, callbackAtReceiver(receiver, sample(run, validReference({ around: new Date() }))));
      await mustSucceed(api, interbank.confirm(paymentId));
      await readSettled(run, api, paymentId, 'confirmed');
      await exerciseClassesAtOnce(run, api, 'REF-3', framingClasses['REF-3'], async (framing) => {
        const read = await api.call('getPayment', { param: paymentId, framing });
        return judgeAnswer('getPayment', read, { suiteCredentials: true, paymentCreated: true, confirmed: true }).problems;
      });
    },
  );

  test(
    'references are 9-digit strings, leading zeros kept, and distinct while valid at the same time (property)',
    { tag: tags('REF-2', 'REF-8'), annotation: exercises('REF-8', 'the references of the property') },
    async ({ run, api, property }) => {
      const seen: Partial<Payment>[] = [];
      await property(validReference({ callback: 'without', around: new Date() }), async (request) => {
        const { paymentId } = await createReference(api, request);
        const exchange = await api.call('getPayment', { param: paymentId });
        const payment = paymentOf(exchange);
        if (payment) seen.push(payment);
        return [...checkPayment(exchange, { stage: 'not yet paid' }), ...(run.profile.capabilities.stateful ? checkDistinctReferences(seen) : [])];
      });
    },
  );

  test(
    `${manyReferences} references valid at the same time are all distinct`,
    { tag: tags('REF-8'), annotation: exercises('REF-8', 'many references created at once') },
    async ({ run, api }) => {
      requires(run, 'stateful');
      const requests = samples(run, validReference({ callback: 'without', around: new Date() }), manyReferences);
      const payments = await inParallel(requests, async (request) =>
        paymentOf(await api.call('getPayment', { param: (await createReference(api, request)).paymentId })),
      );
      api.expectNoProblems(checkDistinctReferences(payments.filter((payment) => payment !== undefined)));
    },
  );

  test(
    'a payment not yet paid carries the fields of 2.6 it has with their documented types and offsets',
    { tag: tags('REF-2', 'REF-4') },
    async ({ run, api }) => {
      const { paymentId } = await createReference(api, sample(run, validReference({ callback: 'without' })));
      api.expectNoProblems(checkPayment(await readPayment(api, paymentId), { stage: 'not yet paid' }));
    },
  );

  // Each class creates and confirms its reference alone, one class after another, and then waits for
  // it to read confirmed beside the others: a payment that never reads so is waited for once, not once a class.
  test('a confirmed payment is answered with the whole shape of 2.6 (every class)', { tag: tags('REF-3') }, async ({ run, api, interbank, receiver }) => {
    const alone = oneAtATime();
    await exerciseClassesAtOnce(run, api, 'REF-3', referenceClasses['REF-3'], async (request, inputClass) => {
      const confirmed = await alone(async () => {
        const exchange = await api.call('createReference', { body: callbackAtReceiver(receiver, request) });
        const refused = refusedWhereFree(exchange, inputClass);
        if (refused) return refused;
        const { paymentId } = referenceCreated(api, exchange);
        await mustSucceed(api, interbank.confirm(paymentId));
        return { paymentId };
      });
      if ('skipped' in confirmed) return confirmed;
      return checkPayment(await readSettled(run, api, confirmed.paymentId, 'confirmed'), { stage: 'confirmed' }).filter(
        (problem) => problem.clause === 'REF-3',
      );
    });
  });

  test(
    'every timestamp of the payment has an offset, before and after confirmation, whatever offsets the request wrote (every class)',
    { tag: tags('REF-4') },
    async ({ run, api }) => {
      const helpers = helpersUsable(run) ? helperClient(api) : null;
      await exerciseClasses(run, api, 'REF-4', timestampClasses, async ({ request, stage }) => {
        if (stage === 'confirmed' && !helpers) return { skipped: needs.interbank.reason };
        const { paymentId } = await createReference(api, request);
        if (stage === 'confirmed') await mustSucceed(api, helpers!.confirm(paymentId));
        const read = stage === 'confirmed' ? await readSettled(run, api, paymentId, 'confirmed') : await readPayment(api, paymentId);
        return checkPayment(read, { stage }).filter((problem) => problem.clause === 'REF-4');
      });
    },
  );

  test(
    'the payment echoes the amount, the validity instants and the method codes requested (every class, then a property)',
    { tag: tags('REF-5') },
    async ({ run, api, property }) => {
      requires(run, 'stateful');
      await exerciseClassesAtOnce(run, api, 'REF-5', referenceClasses['REF-5'], async (requested, inputClass) => {
        const exchange = await api.call('createReference', { body: requested });
        const refused = refusedWhereFree(exchange, inputClass);
        if (refused) return refused;
        api.require(checkReferenceCreated(exchange));
        const paymentId = paymentIdOf(exchange);
        if (paymentId === undefined) return { skipped: needs.paymentId.reason };
        return checkPaymentEchoes(await readPayment(api, paymentId), { requested });
      });
      await property(validReference(), async (requested) => {
        const { paymentId } = await createReference(api, requested);
        return checkPaymentEchoes(await readPayment(api, paymentId), { requested });
      });
    },
  );

  // The target draws the reference: one in ten starts with 0, one in a hundred with 00. The suite
  // creates references until it has each shape, and reads each at every stage of its payment.
  test(
    'references with no, one and several leading zeros keep them before payment, after a refused payment and once confirmed',
    { tag: tags('REF-2') },
    async ({ run, api }) => {
      requires(run, 'stateful');
      const found = new Map<string, { paymentId: string; request: ReferenceRequest }>();
      const problems: Problem[] = [];
      const evidence: Exchange[] = [];
      const judge = (exchange: Exchange, stage: ReferenceStage, shape: string | undefined) => {
        const departures = checkPayment(exchange, { stage: stage === 'confirmed' ? 'confirmed' : 'not yet paid' });
        if (departures.length === 0) return;
        problems.push(
          ...departures.map((problem) => ({
            ...problem,
            message: `${problem.message} (class: ${shape ? referenceClassName(shape, stage) : `${stage}, a reference not of 9 digits`})`,
          })),
        );
        evidence.push(exchange);
      };
      // The creation's answer is not shown (REF-10): where it names a 9-digit reference, that picks the
      // shape and only the first of each is read; any other is read and judged.
      const requests = samples(run, validReference({ callback: 'without', around: new Date() }), referenceSearchBound);
      const notFound = await searchReferenceShapes(
        'references',
        async (index) => {
          const { exchange: creation, paymentId } = await createReference(api, requests[index]);
          const answeredShape = referenceShapeOf(paymentOf(creation)?.referenceDetails?.reference);
          if (answeredShape && found.has(answeredShape)) return;
          const exchange = await api.call('getPayment', { param: paymentId });
          const shape = referenceShapeOf(paymentOf(exchange)?.referenceDetails?.reference);
          judge(exchange, 'not yet paid', shape);
          if (shape && !found.has(shape)) found.set(shape, { paymentId, request: requests[index] });
        },
        () => found.size,
        () => problems.length > 0,
      );
      const helpers = helpersUsable(run) ? helperClient(api) : null;
      // Shapes whose payment outside its window confirmed them: REF-7's departure, which leaves REF-2 nothing to see after a refusal.
      const confirmedOutsideWindow = new Set<string>();
      for (const [shape, { paymentId, request }] of found) {
        if (!helpers) continue;
        const afterEnd = new Date(Date.parse(request.validDate.end) + 1000).toISOString();
        const outsideWindow = await readSettled(run, api, paymentId, 'unchanged', await helpers.confirm(paymentId, afterEnd));
        if (paymentOf(outsideWindow)?.stateDetails?.state === 'confirmed') {
          confirmedOutsideWindow.add(shape);
          judge(outsideWindow, 'confirmed', shape);
          continue;
        }
        judge(outsideWindow, 'after a payment outside its window was refused', shape);
        await mustSucceed(api, helpers.confirm(paymentId));
        judge(await readSettled(run, api, paymentId, 'confirmed'), 'confirmed', shape);
      }
      const outcomes: ClassOutcome[] = referenceShapes.flatMap(({ name }) =>
        referenceStages.map((stage) => ({
          clause: 'REF-2',
          name: referenceClassName(name, stage),
          skipped: !found.has(name)
            ? notFound
            : stage !== 'not yet paid' && !helpers
              ? needs.interbank.reason
              : stage === 'after a payment outside its window was refused' && confirmedOutsideWindow.has(name)
                ? 'the payment outside its window confirmed the reference (REF-7 judges that): no refused payment to read after'
                : null,
        })),
      );
      await recordClasses(outcomes);
      if (problems.length > 0) api.forget(evidence);
      api.expectNoProblems(problems);
    },
  );

  // Each class creates its own reference (one whose window closes first waits it out): they run side by side.
  test(
    'a payment confirmed with any paidAt inside its window is confirmed, and updatedAt is not earlier than createdAt (every class)',
    { tag: tags('REF-6') },
    async ({ run, api, interbank }) => {
      await exerciseClassesAtOnce(run, api, 'REF-6', confirmationClasses, async ({ request, afterClose, paidAt }) => {
        const { paymentId, request: created } = afterClose ? await createClosedReference(api, request) : { ...(await createReference(api, request)), request };
        const window = { start: Date.parse(created.validDate.start), end: Date.parse(created.validDate.end) };
        await mustSucceed(api, interbank.confirm(paymentId, paidAt(window)));
        return checkConfirmed(await readSettled(run, api, paymentId, 'confirmed'));
      });
    },
  );

  test(
    'a payment outside the validity window (before it opens) does not confirm the reference',
    { tag: tags('REF-7'), annotation: exercises('REF-7', 'paid before the window opens') },
    async ({ run, api, interbank }) => {
      const { paymentId } = await createReference(api, futureWindow(sample(run, validReference({ callback: 'without' }))));
      const confirmation = await interbank.confirm(paymentId);
      api.expectNoProblems(checkNotConfirmed(await readSettled(run, api, paymentId, 'unchanged', confirmation), { why: 'after a payment outside the window' }));
    },
  );

  // The window is written to the second: a target that compares days, minutes or local times lets these through.
  for (const edge of ['start', 'end'] as const) {
    test(
      `a payment one second ${edge === 'start' ? 'before validDate.start' : 'after validDate.end'} does not confirm the reference`,
      { tag: tags('REF-7'), annotation: exercises('REF-7', `paid one second ${edge === 'start' ? 'before validDate.start' : 'after validDate.end'}`) },
      async ({ run, api, interbank }) => {
        const requested = sample(run, validReference({ callback: 'without', around: new Date() }));
        const { paymentId } = await createReference(api, requested);
        const paidAt = new Date(Date.parse(requested.validDate[edge]) + (edge === 'start' ? -1000 : 1000)).toISOString();
        const confirmation = await interbank.confirm(paymentId, paidAt);
        api.expectNoProblems(
          checkNotConfirmed(await readSettled(run, api, paymentId, 'unchanged', confirmation), {
            why: `after a payment at ${paidAt}, one second outside the window`,
          }),
        );
      },
    );
  }
});

test.describe('refusing broken references', () => {
  for (const broken of brokenReferences) {
    test(`${broken.name} is refused: ${broken.description}`, { tag: tags(broken.clause) }, async ({ run, api, property }) => {
      requires(run, 'refusesBrokenRules');
      await requireServed(api, 'createReference', sample(run, validReference({ callback: 'without', around: new Date() })));
      const refused = async (request: unknown) =>
        checkRefused(await api.call('createReference', { body: request as ReferenceRequest }), { clause: broken.clause, broken: broken.name });
      await exerciseClassesAtOnce(run, api, broken.clause, broken.classes, refused);
      await property(broken.arbitrary as fc.Arbitrary<ReferenceRequest>, refused);
    });
  }
});
