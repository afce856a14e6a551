/** Reference 2.1 and 9: the response envelope and the paths. */
import { checkoutVariants, scenarioClasses, validReference } from '../../src/generators/index.ts';
import {
  checkEnvelope,
  checkReferenceCreated,
  checkServedAtPath,
  checkSuccess,
  isSuccess,
  paymentIdOf,
  type Exchange,
  type Problem,
} from '../../src/checks/index.ts';
import type { RunConfig } from '../../src/core/run-config.ts';
import { titleOf } from '../../src/core/operations.ts';
import { exercises, tags, test, type Api } from '../../src/harness/fixtures.ts';
import { createCheckout, createReference, readPayment, sample, someCustomer, someCustomerWithMethod } from '../../src/harness/flows.ts';

/**
 * The lists to judge as envelopes: a customer's with nothing stored where answered 2xx (a 404 is
 * PML-7's freedom), and, where test helpers can store one, a customer's with a card stored, which
 * must be answered (PML-1).
 */
async function answeredLists(run: RunConfig, api: Api): Promise<Exchange[]> {
  const empty = await api.call('listMethods', { param: await someCustomer(run, api) });
  const withMethod = await someCustomerWithMethod(run, api);
  const stored = withMethod.stored ? await api.call('listMethods', { param: withMethod.uuid }) : undefined;
  if (stored) api.require(checkSuccess(stored, 'PML-1'));
  return [empty, stored].filter((list): list is Exchange => list !== undefined && isSuccess(list.response.status));
}

test.describe('response envelope', () => {
  test(
    `${titleOf('createCheckout')} answers the envelope with date, success and data`,
    { tag: tags('ENV-1'), annotation: exercises('ENV-1', titleOf('createCheckout')) },
    async ({ run, api }) => {
      const exchange = await api.call('createCheckout', { body: sample(run, checkoutVariants.atmPage) });
      api.require(checkSuccess(exchange, 'CHK-1'));
      api.expectNoProblems(checkEnvelope(exchange, { versioned: true }));
    },
  );

  test(
    `${titleOf('getPayment')} answers the envelope with date, success and data`,
    { tag: tags('ENV-1'), annotation: exercises('ENV-1', titleOf('getPayment')) },
    async ({ run, api }) => {
      const { paymentId } = await createReference(api, sample(run, validReference({ callback: 'without' })));
      api.expectNoProblems(checkEnvelope(await readPayment(api, paymentId), { versioned: false }));
    },
  );

  test(
    `${titleOf('listMethods')} answers the envelope with date, success and data`,
    { tag: tags('ENV-1'), annotation: exercises('ENV-1', titleOf('listMethods')) },
    async ({ run, api }) => {
      const lists = await answeredLists(run, api);
      test.skip(
        lists.length === 0,
        'no list to judge: no test helpers to store a method (none, or a live target), and the target answers 4xx for a customer with nothing stored (PML-7)',
      );
      api.expectNoProblems(lists.flatMap((list) => checkEnvelope(list, { versioned: true })));
    },
  );

  test(
    `${titleOf('createCheckout')} and ${titleOf('listMethods')} carry apiVersion as a string`,
    { tag: tags('ENV-2'), annotation: exercises('ENV-2', titleOf('createCheckout'), titleOf('listMethods')) },
    async ({ run, api }) => {
      const { exchange: created } = await createCheckout(api, sample(run, checkoutVariants.embedWeb));
      const lists = await answeredLists(run, api);
      api.expectNoProblems([created, ...lists].flatMap((exchange) => checkEnvelope(exchange, { versioned: true })));
    },
  );

  test(
    'the four operations answer directly under {base_url}, with no version segment',
    { tag: tags('ENV-4'), annotation: exercises('ENV-4', ...scenarioClasses['ENV-4']) },
    async ({ run, api }) => {
      const checkout = await api.call('createCheckout', { body: sample(run, checkoutVariants.atmPage) });
      const reference = await api.call('createReference', { body: sample(run, validReference({ callback: 'without' })) });
      // Storing a method takes a checkout: where POST /checkouts is not served at its path, any customer's list is asked.
      const served = checkServedAtPath(checkout).length === 0;
      const customer = served ? await someCustomerWithMethod(run, api) : { uuid: await someCustomer(run, api), stored: false };
      const methods = await api.call('listMethods', { param: customer.uuid });
      // An unknown payment id may well be answered 404 (REF-10): the query is asked only of a payment the target created.
      const paymentId = paymentIdOf(reference);
      const payments = paymentId === undefined ? [] : [await api.call('getPayment', { param: paymentId })];
      // A customer with nothing stored may be answered 404 (PML-7): the list's path is judged on one with a method stored.
      const lists = customer.stored || methods.response.status !== 404 ? [methods] : [];
      // An operation not served at its path is that, and only that: its other checks would blame clauses the fault does not break.
      const judged = (exchange: Exchange, others: Problem[]) => (checkServedAtPath(exchange).length > 0 ? checkServedAtPath(exchange) : others);
      api.expectNoProblems([
        ...judged(checkout, checkSuccess(checkout, 'CHK-1')),
        ...judged(reference, checkReferenceCreated(reference)),
        ...[...payments, ...lists].flatMap(checkServedAtPath),
      ]);
    },
  );
});
