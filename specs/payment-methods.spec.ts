/** Reference 2.4 and 4.2: listing a customer's stored payment methods. */
import { randomUUID } from 'node:crypto';
import { card, checkoutVariants, wallet } from '../generators/index.ts';
import { checkMethodCount, checkMethodTypeListed, checkStoredMethods, storedMethodsOf } from '../src/checks/index.ts';
import type { RunConfig } from '../src/run-config.ts';
import { tags, test, type Api, type Helpers } from './fixtures.ts';
import { createCheckout, forCustomer, listMethods, listSettled, mustSucceed, sample, samples, withMethod } from './flows.ts';

/** More stored methods than a first page of ten would show. */
const manyMethods = 12;

/**
 * A customer with `cards` cards and `wallets` wallets stored through createRegistration checkouts,
 * every one a different draw (distinct last digits); answers the list once all are there (within eventMs).
 */
async function customerWith(run: RunConfig, api: Api, helpers: Helpers, stored: { cards: number; wallets: number }) {
  const customer = await helpers.registerCustomer();
  const storingCard = forCustomer(sample(run, checkoutVariants.storeMethod), customer);
  const storingWallet = withMethod(storingCard, 'MW', { createRegistration: true });
  const distinct = <T>(values: T[], key: (value: T) => string) => [...new Map(values.map((value) => [key(value), value])).values()];
  const cards = distinct(samples(run, card(), stored.cards * 3), (paid) => paid.number.slice(-4)).slice(0, stored.cards);
  const wallets = distinct(samples(run, wallet(), stored.wallets * 3), (paid) => paid.number.slice(-3)).slice(0, stored.wallets);
  const payments = [
    ...cards.map((paid) => ({ request: storingCard, pay: { outcome: 'success' as const, method: 'CC' as const, card: paid } })),
    ...wallets.map((paid) => ({ request: storingWallet, pay: { outcome: 'success' as const, method: 'MW' as const, wallet: paid } })),
  ];
  for (const { request, pay } of payments) {
    const { checkout } = await createCheckout(api, request);
    await mustSucceed(api, helpers.pay(checkout.id, pay));
  }
  const list = await listSettled(api, customer, (exchange) => storedMethodsOf(exchange).length >= payments.length, run.profile.timeouts.eventMs);
  return { customer, list, count: payments.length };
}

test.describe('stored payment methods', () => {
  test('the list is the envelope with apiVersion and one element per stored method', { tag: tags('PML-1') }, async ({ run, api, helpers }) => {
    const { list, count } = await customerWith(run, api, helpers, { cards: 2, wallets: 1 });
    api.expectNoProblems([...checkMethodCount(list, { stored: count }), ...checkStoredMethods(list)]);
  });

  test(`a customer with ${manyMethods} stored methods gets all of them, one element each`, { tag: tags('PML-1', 'PML-6') }, async ({ run, api, helpers }) => {
    const { list, count } = await customerWith(run, api, helpers, { cards: manyMethods / 2, wallets: manyMethods / 2 });
    api.expectNoProblems([...checkMethodCount(list, { stored: count }), ...checkStoredMethods(list)]);
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
      const { list } = await customerWith(run, api, helpers, { cards: 2, wallets: 2 });
      api.expectNoProblems([...(type ? checkMethodTypeListed(list, { type }) : []), ...checkStoredMethods(list)]);
    });
  }

  // Runs on any target, those without test helpers (a mock) included: whatever list it answers must be well formed.
  test('the list answered for a customer the suite did not set up is shaped as 2.4', { tag: tags('PML-1', 'PML-2', 'PML-3', 'PML-4', 'PML-6') }, async ({ api }) => {
    const exchange = await listMethods(api, randomUUID());
    test.skip(exchange.response.status >= 400, `the target answers ${exchange.response.status} for a customer it does not know (PML-7), so there is no list to check`);
    api.expectNoProblems(checkStoredMethods(exchange));
  });
});
