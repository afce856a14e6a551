/** Reference 2.5, 2.6, 4.3, 4.4 and 8: ATM payment references. */
import fc from 'fast-check';
import { brokenReferences, validReference } from '../generators/index.ts';
import type { Payment, ReferenceRequest } from '../schemas/generated/types.ts';
import { checkConfirmed, checkDistinctReferences, checkNotConfirmed, checkPayment, checkPaymentEchoes, checkReferenceCreated, checkRefused, paymentOf } from '../src/checks/index.ts';
import { requires, tags, test } from './fixtures.ts';
import { createReference, getPayment, mustSucceed, outsideWindow, readPayment, readSettled, sample, samples, untilOutsideWindow } from './flows.ts';

/** More references than a target that recycles a pool of 100 (or a page of them) could keep apart. */
const manyReferences = 120;

test.describe('payment references', () => {
  test('a valid reference request succeeds, with and without callbackUrl', { tag: tags('REF-1') }, async ({ run, api, receiver }) => {
    const withCallback = { ...sample(run, validReference({ callback: 'with' })), callbackUrl: `${receiver.urlOf(receiver.newPath('callback'))}?shop=7` };
    const withoutCallback = sample(run, validReference({ callback: 'without' }));
    const answers = await Promise.all([withCallback, withoutCallback].map((request) => api.post('/payments/references', request)));
    api.expectNoProblems(answers.flatMap(checkReferenceCreated));
  });

  test('references are 9-digit strings, leading zeros kept, and distinct while valid at the same time (property)', { tag: tags('REF-2', 'REF-8') }, async ({ run, api, property }) => {
    const seen: Partial<Payment>[] = [];
    await property(validReference({ callback: 'without', around: new Date() }), async (request) => {
      const { paymentId } = await createReference(api, request);
      const exchange = await getPayment(api, paymentId);
      const payment = paymentOf(exchange);
      if (payment) seen.push(payment);
      return [...checkPayment(exchange, { stage: 'not yet paid' }), ...(run.profile.capabilities.stateful ? checkDistinctReferences(seen) : [])];
    });
  });

  test(`${manyReferences} references valid at the same time are all distinct`, { tag: tags('REF-8') }, async ({ run, api }) => {
    requires(run, 'stateful');
    const requests = samples(run, validReference({ callback: 'without', around: new Date() }), manyReferences);
    const payments: Partial<Payment>[] = [];
    for (let at = 0; at < requests.length; at += 10) {
      const batch = await Promise.all(requests.slice(at, at + 10).map(async (request) => paymentOf(await getPayment(api, (await createReference(api, request)).paymentId))));
      payments.push(...batch.filter((payment) => payment !== undefined));
    }
    api.expectNoProblems(checkDistinctReferences(payments));
  });

  test('a payment not yet paid carries the fields of 2.6 it has with their documented types and offsets', { tag: tags('REF-2', 'REF-4') }, async ({ run, api }) => {
    const { paymentId } = await createReference(api, sample(run, validReference({ callback: 'without' })));
    api.expectNoProblems(checkPayment(await readPayment(api, paymentId), { stage: 'not yet paid' }));
  });

  test('a confirmed payment is answered with the whole shape of 2.6, its reference and timestamps included', { tag: tags('REF-3', 'REF-2', 'REF-4') }, async ({ run, api, interbank }) => {
    const { paymentId } = await createReference(api, sample(run, validReference({ callback: 'without', around: new Date() })));
    await mustSucceed(api, interbank.confirm(paymentId));
    api.expectNoProblems(checkPayment(await readSettled(run, api, paymentId, 'confirmed'), { stage: 'confirmed' }));
  });

  test('the payment echoes the amount, the validity instants and the method codes requested (property)', { tag: tags('REF-5') }, async ({ run, api, property }) => {
    requires(run, 'stateful');
    await property(validReference(), async (requested) => {
      const { paymentId } = await createReference(api, requested);
      return checkPaymentEchoes(await readPayment(api, paymentId), { requested });
    });
  });

  test('a confirmed payment is confirmed, and updatedAt is not earlier than createdAt', { tag: tags('REF-6') }, async ({ run, api, interbank }) => {
    const { paymentId } = await createReference(api, sample(run, validReference({ callback: 'without', around: new Date() })));
    await mustSucceed(api, interbank.confirm(paymentId));
    api.expectNoProblems(checkConfirmed(await readSettled(run, api, paymentId, 'confirmed')));
  });

  for (const when of ['past', 'future'] as const) {
    test(`a payment outside the validity window (${when === 'past' ? 'after it closed' : 'before it opens'}) does not confirm the reference`, { tag: tags('REF-7') }, async ({ run, api, interbank }) => {
      const request = outsideWindow(sample(run, validReference({ callback: 'without' })), when);
      const { paymentId } = await createReference(api, request);
      await untilOutsideWindow(request);
      const confirmation = await interbank.confirm(paymentId);
      api.expectNoProblems(checkNotConfirmed(await readSettled(run, api, paymentId, 'unchanged', confirmation), { why: 'after a payment outside the window' }));
    });
  }

  // The window is written to the second: a target that compares days, minutes or local times lets these through.
  for (const edge of ['start', 'end'] as const) {
    test(`a payment one second ${edge === 'start' ? 'before validDate.start' : 'after validDate.end'} does not confirm the reference`, { tag: tags('REF-7') }, async ({ run, api, interbank }) => {
      const requested = sample(run, validReference({ callback: 'without', around: new Date() }));
      const { paymentId } = await createReference(api, requested);
      const paidAt = new Date(Date.parse(requested.validDate[edge]) + (edge === 'start' ? -1000 : 1000)).toISOString();
      const confirmation = await interbank.confirm(paymentId, paidAt);
      api.expectNoProblems(checkNotConfirmed(await readSettled(run, api, paymentId, 'unchanged', confirmation), { why: `after a payment at ${paidAt}, one second outside the window` }));
    });
  }
});

test.describe('refusing broken references', () => {
  for (const broken of brokenReferences) {
    test(`${broken.name} is refused: ${broken.description}`, { tag: tags(broken.clause) }, async ({ run, api, property }) => {
      requires(run, 'refusesBrokenRules');
      await property(broken.arbitrary as fc.Arbitrary<ReferenceRequest>, async (request) =>
        checkRefused(await api.post('/payments/references', request), { clause: broken.clause, broken: broken.name }),
      );
    });
  }
});
