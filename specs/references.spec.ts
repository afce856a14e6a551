/** Reference 2.5, 2.6, 4.3, 4.4 and 8: ATM payment references. */
import fc from 'fast-check';
import { brokenReferences, validReference } from '../generators/index.ts';
import type { Payment, ReferenceRequest } from '../schemas/generated/types.ts';
import {
  checkConfirmationOutsideWindowRefused,
  checkConfirmed,
  checkDistinctReferences,
  checkNotConfirmed,
  checkPayment,
  checkPaymentEchoes,
  checkReferenceCreated,
  checkRefused,
  paymentOf,
} from '../src/checks/index.ts';
import { requires, tags, test } from './fixtures.ts';
import { createReference, getPayment, mustSucceed, outsideWindow, readPayment, sample } from './flows.ts';

test.describe('payment references', () => {
  test('a valid reference request succeeds, with and without callbackUrl', { tag: tags('REF-1') }, async ({ run, api, receiver }) => {
    const withCallback = { ...sample(run, validReference({ callback: 'with' })), callbackUrl: receiver.urlOf(receiver.newPath('callback')) };
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
      return [...checkPayment(exchange), ...(run.profile.capabilities.stateful ? checkDistinctReferences(seen) : [])];
    });
  });

  for (const clause of ['REF-3', 'REF-4']) {
    const title = clause === 'REF-3' ? 'GET /payments/{id} answers the payment of 2.6' : 'every timestamp of the payment has an offset';
    test(title, { tag: tags(clause) }, async ({ run, api }) => {
      const { paymentId } = await createReference(api, sample(run, validReference({ callback: 'without' })));
      api.expectNoProblems(checkPayment(await readPayment(api, paymentId)));
    });
  }

  test('the payment echoes the amount, the validity instants and the method codes requested (property)', { tag: tags('REF-5') }, async ({ run, api, property }) => {
    requires(run, 'stateful');
    await property(validReference(), async (requested) => {
      const { paymentId } = await createReference(api, requested);
      return checkPaymentEchoes(await readPayment(api, paymentId), { requested });
    });
  });

  test('a confirmed payment is confirmed, and updatedAt is not earlier than createdAt', { tag: tags('REF-6') }, async ({ run, api, helpers }) => {
    const { paymentId } = await createReference(api, sample(run, validReference({ callback: 'without', around: new Date() })));
    await mustSucceed(api, helpers.confirm(paymentId));
    api.expectNoProblems(checkConfirmed(await readPayment(api, paymentId)));
  });

  for (const when of ['past', 'future'] as const) {
    test(`a payment outside the validity window (${when === 'past' ? 'after it closed' : 'before it opens'}) does not confirm the reference`, { tag: tags('REF-7') }, async ({ run, api, helpers }) => {
      const { paymentId } = await createReference(api, outsideWindow(sample(run, validReference({ callback: 'without' })), when));
      const confirmation = await helpers.confirm(paymentId);
      api.expectNoProblems([
        ...checkConfirmationOutsideWindowRefused(confirmation, { when }),
        ...checkNotConfirmed(await readPayment(api, paymentId), { why: 'after a payment outside the window' }),
      ]);
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
