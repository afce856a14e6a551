/** Reference 2.4 and 4.2: listing a customer's stored payment methods. */
import { randomUUID } from 'node:crypto';
import { alikeInPairs, card, checkoutVariants, framingClasses, listClasses, storedMeansClasses, wallet } from '../../src/generators/index.ts';
import {
  checkMethodCount,
  judgeAnswer,
  checkMethodStored,
  checkMethodTypeListed,
  checkOnlyOwnMethods,
  checkStoredMethods,
  foreignMethods,
  ownMethods,
  storedMethodsOf,
  type Exchange,
  type PaidWith,
} from '../../src/checks/index.ts';
import type { RunConfig } from '../../src/core/run-config.ts';
import { exercises, requires, tags, test, type Api, type TestHelpers } from '../../src/harness/fixtures.ts';
import {
  createCheckout,
  exerciseClasses,
  forCustomer,
  listSettled,
  listStoredMethods,
  mustSucceed,
  refusedWhereFree,
  sample,
  samples,
  someCustomerWithMethod,
  withMethod,
} from '../../src/harness/flows.ts';
import { inParallel } from '../../src/harness/pace.ts';

/** More stored methods than a first page of ten would show. */
const manyMethods = 12;

/**
 * The cards and wallets of the test in `slot`: the last three digits of every card and wallet of
 * every slot are distinct, so that no two tests' customers pay with the same card or wallet (a target
 * that shares a method among customers who paid with it breaks TOK-6, which the tokenization specs
 * try on purpose). Slot 0 is left out: its first draws are the tokenization specs' cards. Within a
 * slot, pairs agree on what the list shows of them (alikeInPairs): each is still a method of its own.
 */
function meansOfSlot(run: RunConfig, slot: number, stored: { cards: number; wallets: number }) {
  const perSlot = manyMethods / 2;
  const seen = new Set<string>();
  const distinct = <T>(values: T[], number: (value: T) => string) =>
    values.filter((value) => !seen.has(number(value).slice(-3)) && seen.add(number(value).slice(-3)));
  const cards = distinct(samples(run, card(), 20 * perSlot), (paid) => paid.number);
  const wallets = distinct(samples(run, wallet(), 20 * perSlot), (paid) => paid.number);
  const from = (slot + 1) * perSlot;
  // The first card of every slot expires in a month below 10, whose leading zero the list must keep (PML-3); the draws may have none.
  const ofSlot = cards.slice(from, from + stored.cards).map((paid, index) => (index === 0 ? { ...paid, expireMonth: `0${1 + (slot % 9)}` } : paid));
  return alikeInPairs(ofSlot, wallets.slice(from, from + stored.wallets));
}

/**
 * A fresh customer with `cards` cards and `wallets` wallets stored through createRegistration
 * checkouts, with the means of its slot; answers the list once all are there (within eventMs), the
 * elements of it that are another customer's, and the TOK-6 problems they are, and a function that
 * reads the list again and judges it as this one is.
 */
async function customerWith(run: RunConfig, api: Api, helpers: TestHelpers, slot: number, stored: { cards: number; wallets: number }) {
  const customer = await helpers.registerCustomer();
  const before = storedMethodsOf(await listStoredMethods(api, customer));
  const storingCard = forCustomer(sample(run, checkoutVariants.storeMethod), customer);
  const storingWallet = withMethod(storingCard, 'MW', { createRegistration: true });
  const means = meansOfSlot(run, slot, stored);
  const payments = [
    ...means.cards.map((paid) => ({ request: storingCard, pay: { outcome: 'success' as const, method: 'CC' as const, card: paid } })),
    ...means.wallets.map((paid) => ({ request: storingWallet, pay: { outcome: 'success' as const, method: 'MW' as const, wallet: paid } })),
  ];
  await inParallel(payments, async ({ request, pay }) => {
    const { checkout } = await createCheckout(api, request);
    await mustSucceed(api, helpers.pay(checkout.id, pay));
  });
  const paid: PaidWith[] = payments.map(({ pay }) => pay);
  const ownCount = (exchange: Exchange) => ownMethods(exchange, foreignMethods(exchange, { before, paid })).length;
  const list = await listSettled(api, customer, (exchange) => ownCount(exchange) >= payments.length, run.profile.timeouts.eventMs);
  const judged = (read: Exchange) => ({
    list: read,
    foreign: foreignMethods(read, { before, paid }),
    othersMethods: checkOnlyOwnMethods(read, { before, paid }),
  });
  return { ...judged(list), count: payments.length, customer, readAgain: async (param: string) => judged(await listStoredMethods(api, param)) };
}

test.describe('stored payment methods', () => {
  // Every list is a fresh customer's: a method of another customer in it is TOK-6's, not an element too many (PML-1).
  test(
    'the list is the envelope with apiVersion and one element per stored method, its path written in either letter case',
    { tag: tags('PML-1', 'TOK-6'), annotation: exercises('PML-1', listClasses.twoCardsAndAWallet, listClasses.inCapitals) },
    async ({ run, api, helpers }) => {
      const stored = await customerWith(run, api, helpers, 0, { cards: 2, wallets: 1 });
      // RFC 9562 section 4 reads a UUID without regard to letter case: the path in capitals names the same customer.
      const reads = [stored, await stored.readAgain(stored.customer.toUpperCase())];
      api.expectNoProblems(
        reads.flatMap(({ list, foreign, othersMethods }) => [
          ...othersMethods,
          ...checkMethodCount(list, { stored: stored.count, foreign }),
          ...checkStoredMethods(list, { foreign }),
        ]),
      );
    },
  );

  // A list owes an answer only where something is stored in it: a customer with nothing stored may be answered anything (PML-7).
  test('a list is read in every framing ordinary HTTP clients send (every class)', { tag: tags('PML-1') }, async ({ run, api }) => {
    requires(run, 'testHelpers');
    const { uuid } = await someCustomerWithMethod(run, api);
    await exerciseClasses(run, api, 'PML-1', framingClasses['PML-1'], async (framing) => {
      const list = await api.call('listMethods', { param: uuid, framing });
      return judgeAnswer('listMethods', list, { suiteCredentials: true, stored: 'methods' }).problems;
    });
  });

  test(
    `a customer with ${manyMethods} stored methods gets all of them, one element each`,
    {
      tag: tags('PML-1', 'PML-6', 'TOK-6'),
      annotation: [...exercises('PML-1', listClasses.manyMethods), ...exercises('PML-6', listClasses.manyMethods)],
    },
    async ({ run, api, helpers }) => {
      const { list, count, foreign, othersMethods } = await customerWith(run, api, helpers, 1, { cards: manyMethods / 2, wallets: manyMethods / 2 });
      api.expectNoProblems([...othersMethods, ...checkMethodCount(list, { stored: count, foreign }), ...checkStoredMethods(list, { foreign })]);
    },
  );

  // The element of the type a clause is about must be there for its fields to be judged.
  const elementClauses: Array<['PML-2' | 'PML-3' | 'PML-4' | 'PML-6', string, 'CC' | 'MW' | undefined]> = [
    ['PML-2', 'every element has type CC or MW and a UUID', undefined],
    ['PML-3', 'a card element has brand, last4Digitis, holder, expireMonth and expireYear, spelled so', 'CC'],
    ['PML-4', 'a wallet element has countryCode and last3Digitis, spelled so', 'MW'],
    ['PML-6', 'stored methods have distinct uuids', undefined],
  ];
  for (const [index, [clause, title, type]] of elementClauses.entries()) {
    test(title, { tag: tags(clause, 'TOK-6'), annotation: exercises(clause, listClasses.twoOfEach) }, async ({ run, api, helpers }) => {
      const { list, foreign, othersMethods } = await customerWith(run, api, helpers, 2 + index, { cards: 2, wallets: 2 });
      api.expectNoProblems([...othersMethods, ...(type ? checkMethodTypeListed(list, { type, foreign }) : []), ...checkStoredMethods(list, { foreign })]);
    });
  }

  test('what is stored is what was paid with, for every kind of card and wallet (every class)', { tag: tags('PML-5') }, async ({ run, api, helpers }) => {
    await exerciseClasses(run, api, 'PML-5', storedMeansClasses, async (paid, inputClass) => {
      const customer = await helpers.registerCustomer();
      const before = storedMethodsOf(await listStoredMethods(api, customer));
      const { checkout } = await createCheckout(
        api,
        forCustomer(withMethod(sample(run, checkoutVariants.storeMethod), paid.method, { createRegistration: true }), customer),
      );
      const paying = helpers.pay(checkout.id, { outcome: 'success', ...paid });
      const refused = refusedWhereFree(await paying, inputClass);
      if (refused) return refused;
      await mustSucceed(api, paying);
      const judged = (exchange: Exchange) => checkMethodStored(exchange, { paidWith: paid, clause: 'TOK-1', before });
      return judged(await listSettled(api, customer, (exchange) => judged(exchange).length === 0, run.profile.timeouts.eventMs));
    });
  });

  // Runs on any target, those without test helpers (a mock) included: whatever list it answers must be well formed.
  // A stateful target stores nothing for a UUID no one registered: what it lists there is another customer's (a mock answers its example).
  // A method listed here fails TOK-6, but seeing none verifies nothing of it: no method need be stored anywhere.
  test(
    'the list answered for a customer the suite did not set up is shaped as 2.4',
    {
      tag: tags('PML-1', 'PML-2', 'PML-3', 'PML-4', 'PML-6'),
      annotation: (['PML-1', 'PML-2', 'PML-3', 'PML-4', 'PML-6'] as const).flatMap((clause) => exercises(clause, 'a customer the suite did not set up')),
    },
    async ({ run, api }) => {
      const exchange = await api.call('listMethods', { param: randomUUID() });
      test.skip(
        exchange.response.status >= 400,
        `the target answers ${exchange.response.status} for a customer it does not know (PML-7), so there is no list to check`,
      );
      const nobodys = { before: [], paid: [] };
      const stateful = run.profile.capabilities.stateful;
      api.expectNoProblems([
        ...(stateful ? checkOnlyOwnMethods(exchange, nobodys) : []),
        ...checkStoredMethods(exchange, { foreign: stateful ? foreignMethods(exchange, nobodys) : [] }),
      ]);
    },
  );
});
