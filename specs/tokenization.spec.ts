/** Reference 1, 3 and 4.1: storing payment methods after a payment, for cards (CC) and mobile wallets (MW) alike. */
import { card, checkoutVariants, wallet } from '../generators/index.ts';
import type { CheckoutRequest } from '../schemas/generated/types.ts';
import { checkMethodStored, checkNothingStored, checkOnlyStorableTypes, isSuccess, storedMethodsOf, type Exchange, type PaidWith } from '../src/checks/index.ts';
import type { RunConfig } from '../src/run-config.ts';
import { tags, test, type Api, type Helpers } from './fixtures.ts';
import { createCheckout, forCustomer, listSettled, mustSucceed, sample, settleMs, withMethod } from './flows.ts';

const methods = ['CC', 'MW'] as const;
type Method = (typeof methods)[number];

/** A card (declined where asked) or a wallet to pay with; a wallet of a country other than Portugal where asked, since 351 is every example's. */
function paidWith(run: RunConfig, method: Method, options: { declined?: boolean; abroad?: boolean } = {}): PaidWith {
  return method === 'CC'
    ? { method, card: sample(run, card({ declined: options.declined })) }
    : { method, wallet: sample(run, options.abroad ? wallet().filter((paid) => paid.countryCode !== '351') : wallet()) };
}

/** The two storing variants of 4.1, for the method: createRegistration (no layout) and allowRegistration (layout basic). */
const storing = (run: RunConfig, method: Method, registration: 'createRegistration' | 'allowRegistration') =>
  registration === 'createRegistration'
    ? withMethod(sample(run, checkoutVariants.storeMethod), method, { createRegistration: true })
    : withMethod(sample(run, checkoutVariants.storeWithConsent), method, { allowRegistration: true });

/** Creates the checkout for the customer and pays it through the pay helper (a declined payment where the card says so). */
async function checkoutAndPay(api: Api, helpers: Helpers, request: CheckoutRequest, customer: string, paid: PaidWith, extra: { storeConsent?: boolean; outcome?: 'failure' } = {}): Promise<Exchange> {
  const { checkout } = await createCheckout(api, forCustomer(request, customer));
  return mustSucceed(api, helpers.pay(checkout.id, { outcome: extra.outcome ?? 'success', ...paid, ...(extra.storeConsent !== undefined && { storeConsent: extra.storeConsent }) }));
}

/** The list once the payment has stored the method (waiting up to eventMs for a helper that answered 202). */
const listOnceStored = (run: RunConfig, api: Api, customer: string, paid: PaidWith, clause: string) =>
  listSettled(api, customer, (exchange) => checkMethodStored(exchange, { paidWith: paid, clause }).length === 0, run.profile.timeouts.eventMs);

/** The list once a payment that must store nothing has settled: a method stored late is seen too. */
const listOnceSettled = (run: RunConfig, api: Api, customer: string, payment: Exchange) =>
  listSettled(api, customer, (exchange) => storedMethodsOf(exchange).length > 0, settleMs(run, payment));

test.describe('storing payment methods', () => {
  for (const method of methods) {
    const name = method === 'CC' ? 'card' : 'mobile wallet';

    test(`a ${name} paid in a createRegistration checkout is stored for the customer, with its values`, { tag: tags('TOK-1', 'PML-5') }, async ({ run, api, helpers }) => {
      const customer = await helpers.registerCustomer();
      const paid = paidWith(run, method, { abroad: true });
      await checkoutAndPay(api, helpers, storing(run, method, 'createRegistration'), customer, paid);
      api.expectNoProblems(checkMethodStored(await listOnceStored(run, api, customer, paid, 'TOK-1'), { paidWith: paid, clause: 'TOK-1' }));
    });

    test(`with allowRegistration, a ${name} is stored where the customer consents`, { tag: tags('TOK-2', 'PML-5') }, async ({ run, api, helpers }) => {
      const customer = await helpers.registerCustomer();
      const paid = paidWith(run, method);
      await checkoutAndPay(api, helpers, storing(run, method, 'allowRegistration'), customer, paid, { storeConsent: true });
      api.expectNoProblems(checkMethodStored(await listOnceStored(run, api, customer, paid, 'TOK-2'), { paidWith: paid, clause: 'TOK-2' }));
    });

    test(`with allowRegistration, no ${name} is stored where the customer declines`, { tag: tags('TOK-2') }, async ({ run, api, helpers }) => {
      const customer = await helpers.registerCustomer();
      const payment = await checkoutAndPay(api, helpers, storing(run, method, 'allowRegistration'), customer, paidWith(run, method), { storeConsent: false });
      api.expectNoProblems(checkNothingStored(await listOnceSettled(run, api, customer, payment), { clause: 'TOK-2', why: 'where the customer declined' }));
    });

    test(`a declined ${name} payment stores nothing`, { tag: tags('TOK-3') }, async ({ run, api, helpers }) => {
      const customer = await helpers.registerCustomer();
      const payment = await checkoutAndPay(api, helpers, storing(run, method, 'createRegistration'), customer, paidWith(run, method, { declined: true }), { outcome: 'failure' });
      api.expectNoProblems(checkNothingStored(await listOnceSettled(run, api, customer, payment), { clause: 'TOK-3', why: 'after a declined payment' }));
    });

    test(`a ${name} payment in a checkout without createRegistration or allowRegistration stores nothing`, { tag: tags('TOK-4') }, async ({ run, api, helpers }) => {
      const customer = await helpers.registerCustomer();
      const payment = await checkoutAndPay(api, helpers, withMethod(sample(run, checkoutVariants.storeWithConsent), method), customer, paidWith(run, method), { storeConsent: true });
      api.expectNoProblems(checkNothingStored(await listOnceSettled(run, api, customer, payment), { clause: 'TOK-4', why: 'without createRegistration or allowRegistration' }));
    });

    test(`a ${name} stored for one customer is not in another customer's list, even where the other pays with it too`, { tag: tags('TOK-6') }, async ({ run, api, helpers }) => {
      const [owner, other] = [await helpers.registerCustomer(), await helpers.registerCustomer()];
      const paid = paidWith(run, method);
      await checkoutAndPay(api, helpers, storing(run, method, 'createRegistration'), owner, paid);
      await listOnceStored(run, api, owner, paid, 'TOK-1');
      const problems = checkNothingStored(await listSettled(api, other, () => true, 0), { clause: 'TOK-6', why: "of another customer's payment" });
      // The same card or wallet paid by the other customer, in a checkout that stores nothing.
      const payment = await checkoutAndPay(api, helpers, withMethod(sample(run, checkoutVariants.storeWithConsent), method), other, paid);
      problems.push(...checkNothingStored(await listOnceSettled(run, api, other, payment), { clause: 'TOK-6', why: 'after paying without storing with a method another customer stored' }));
      api.expectNoProblems(problems);
    });
  }

  test('only cards and mobile wallets are ever stored, an ATM payment asked to be stored included', { tag: tags('TOK-5') }, async ({ run, api, helpers }) => {
    const customer = await helpers.registerCustomer();
    const paid = paidWith(run, 'CC');
    await checkoutAndPay(api, helpers, storing(run, 'CC', 'createRegistration'), customer, paid);
    await listOnceStored(run, api, customer, paid, 'TOK-1');
    // Rule 3 says this is refused (CHK-10); where a target takes it anyway, paying must still store no MB.
    const atm = await api.post('/checkouts', forCustomer(withMethod(sample(run, checkoutVariants.storeMethod), 'MB', { createRegistration: true }), customer));
    const atmCheckout = (atm.response.body as { data?: { id?: string } })?.data?.id;
    const payment = isSuccess(atm.response.status) && atmCheckout ? await helpers.pay(atmCheckout, { outcome: 'success', method: 'MB' }) : atm;
    const settled = await listSettled(api, customer, (exchange) => checkOnlyStorableTypes(exchange).length > 0, settleMs(run, payment));
    api.expectNoProblems(checkOnlyStorableTypes(settled));
  });
});
