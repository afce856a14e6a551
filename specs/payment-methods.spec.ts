/** Reference 2.4 and 4.2: listing a customer's stored payment methods. */
import { randomUUID } from 'node:crypto';
import { card, checkoutVariants, wallet } from '../generators/index.ts';
import { checkMethodCount, checkMethodTypeListed, checkStoredMethods } from '../src/checks/index.ts';
import { tags, test, type Api, type Helpers } from './fixtures.ts';
import { createCheckout, forCustomer, listMethods, listStoredMethods, mustSucceed, sample, samples } from './flows.ts';
import type { RunConfig } from '../src/run-config.ts';

/** A customer with two cards and one wallet stored, through createRegistration checkouts. */
async function customerWithThreeMethods(run: RunConfig, api: Api, helpers: Helpers): Promise<string> {
  const customer = await helpers.registerCustomer();
  const storing = forCustomer(sample(run, checkoutVariants.storeMethod), customer);
  for (const paidCard of samples(run, card(), 2)) {
    const { checkout } = await createCheckout(api, storing);
    await mustSucceed(api, helpers.pay(checkout.id, { outcome: 'success', method: 'CC', card: paidCard }));
  }
  const { checkout } = await createCheckout(api, { ...storing, payment: { ...storing.payment, paymentMethod: { code: 'MW', details: { createRegistration: true } } } });
  await mustSucceed(api, helpers.pay(checkout.id, { outcome: 'success', method: 'MW', wallet: sample(run, wallet()) }));
  return customer;
}

test.describe('stored payment methods', () => {
  test('the list is the envelope with apiVersion and one element per stored method', { tag: tags('PML-1') }, async ({ run, api, helpers }) => {
    const exchange = await listStoredMethods(api, await customerWithThreeMethods(run, api, helpers));
    api.expectNoProblems([...checkMethodCount(exchange, { stored: 3 }), ...checkStoredMethods(exchange)]);
  });

  // The element of the type a clause is about must be there for its fields to be judged.
  const elementClauses: Array<[string, string, 'CC' | 'MW' | undefined]> = [
    ['PML-2', 'every element has type CC or MW and a UUID', undefined],
    ['PML-3', 'a card element has brand, last4Digitis, holder, expireMonth and expireYear, spelled so', 'CC'],
    ['PML-4', 'a wallet element has countryCode and last3Digitis, spelled so', 'MW'],
    ['PML-6', 'stored methods have distinct uuids', undefined],
  ];
  for (const [clause, title, type] of elementClauses) {
    test(title, { tag: tags(clause) }, async ({ run, api, helpers }) => {
      const exchange = await listStoredMethods(api, await customerWithThreeMethods(run, api, helpers));
      api.expectNoProblems([...(type ? checkMethodTypeListed(exchange, { type }) : []), ...checkStoredMethods(exchange)]);
    });
  }

  // Runs on any target, those without test helpers (a mock) included: whatever list it answers must be well formed.
  test('the list answered for a customer the suite did not set up is shaped as 2.4', { tag: tags('PML-1', 'PML-2', 'PML-3', 'PML-4', 'PML-6') }, async ({ api }) => {
    const exchange = await listMethods(api, randomUUID());
    test.skip(exchange.response.status >= 400, `the target answers ${exchange.response.status} for a customer it does not know (PML-7), so there is no list to check`);
    api.expectNoProblems(checkStoredMethods(exchange));
  });
});
