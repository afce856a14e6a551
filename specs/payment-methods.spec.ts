/** Reference 2.4 and 4.2: listing a customer's stored payment methods. */
import { randomUUID } from 'node:crypto';
import { card, checkoutVariants, wallet } from '../generators/index.ts';
import { checkStoredMethods, onlyClause, show, storedMethodsOf, type Problem } from '../src/checks/index.ts';
import { tags, test, type Api, type Helpers } from './fixtures.ts';
import { createCheckout, forCustomer, listMethods, sample, samples } from './flows.ts';
import type { RunConfig } from '../src/run-config.ts';

/** A customer with two cards and one wallet stored, through createRegistration checkouts. */
async function customerWithThreeMethods(run: RunConfig, api: Api, helpers: Helpers): Promise<string> {
  const customer = await helpers.registerCustomer();
  const storing = forCustomer(sample(run, checkoutVariants.storeMethod), customer);
  for (const paidCard of samples(run, card(), 2)) {
    const { checkout } = await createCheckout(api, storing);
    await helpers.pay(checkout.id, { outcome: 'success', method: 'CC', card: paidCard });
  }
  const { checkout } = await createCheckout(api, { ...storing, payment: { ...storing.payment, paymentMethod: { code: 'MW', details: { createRegistration: true } } } });
  await helpers.pay(checkout.id, { outcome: 'success', method: 'MW', wallet: sample(run, wallet()) });
  return customer;
}

test.describe('stored payment methods', () => {
  test('the list is the envelope with apiVersion and one element per stored method', { tag: tags('PML-1') }, async ({ run, api, helpers }) => {
    const exchange = await listMethods(api, await customerWithThreeMethods(run, api, helpers));
    const count = storedMethodsOf(exchange).length;
    const problems: Problem[] = count === 3 ? [] : [{ clause: 'PML-1', message: `GET /customers/{uuid}/paymentMethods response /data: expected 3 elements for 3 stored methods, got ${count}: ${show(storedMethodsOf(exchange))}` }];
    api.expectNoProblems([...problems, ...onlyClause(checkStoredMethods(exchange), 'PML-1'), ...onlyClause(checkStoredMethods(exchange), 'ENV-2')]);
  });

  const elementClauses: Array<[string, string]> = [
    ['PML-2', 'every element has type CC or MW and a UUID'],
    ['PML-3', 'a card element has brand, last4Digitis, holder, expireMonth and expireYear, spelled so'],
    ['PML-4', 'a wallet element has countryCode and last3Digitis, spelled so'],
    ['PML-6', 'stored methods have distinct uuids'],
  ];
  for (const [clause, title] of elementClauses) {
    test(title, { tag: tags(clause) }, async ({ run, api, helpers }) => {
      const exchange = await listMethods(api, await customerWithThreeMethods(run, api, helpers));
      const wanted = clause === 'PML-3' ? 'CC' : clause === 'PML-4' ? 'MW' : undefined;
      const present: Problem[] =
        wanted && !storedMethodsOf(exchange).some((method) => method?.type === wanted)
          ? [{ clause, message: `GET /customers/{uuid}/paymentMethods response /data: expected an element of type ${wanted} after storing one, got ${show(storedMethodsOf(exchange))}` }]
          : [];
      api.expectNoProblems([...present, ...onlyClause(checkStoredMethods(exchange), clause)]);
    });
  }

  // Runs on any target, those without test helpers (a mock) included: whatever list it answers must be well formed.
  test('the list answered for a customer the suite did not set up is shaped as 2.4', { tag: tags('PML-1', 'PML-2', 'PML-3', 'PML-4', 'PML-6') }, async ({ api }) => {
    const exchange = await listMethods(api, randomUUID());
    test.skip(exchange.response.status >= 400, `the target answers ${exchange.response.status} for a customer it does not know (PML-7), so there is no list to check`);
    api.expectNoProblems(checkStoredMethods(exchange));
  });
});
