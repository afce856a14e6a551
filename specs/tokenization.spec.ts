/** Reference 1, 3 and 4.1: storing payment methods after a payment. */
import { card, checkoutVariants, wallet } from '../generators/index.ts';
import type { CheckoutRequest } from '../schemas/generated/types.ts';
import { checkMethodStored, checkNothingStored, checkOnlyStorableTypes, isSuccess, type PaidWith } from '../src/checks/index.ts';
import { tags, test, type Api, type Helpers, type PayRequest } from './fixtures.ts';
import { createCheckout, forCustomer, listStoredMethods, mustSucceed, sample } from './flows.ts';
import type { RunConfig } from '../src/run-config.ts';

function withMethod(request: CheckoutRequest, code: string, details?: Record<string, boolean>): CheckoutRequest {
  const { details: _ignored, ...method } = request.payment?.paymentMethod ?? {};
  return { ...request, payment: { ...request.payment, paymentMethod: { ...method, code, ...(details && { details }) } } };
}

/** Creates the checkout for the customer and pays it through the pay helper. */
async function checkoutAndPay(api: Api, helpers: Helpers, request: CheckoutRequest, customer: string, pay: PayRequest): Promise<void> {
  const { checkout } = await createCheckout(api, forCustomer(request, customer));
  await mustSucceed(api, helpers.pay(checkout.id, pay));
}

const paidCard = (run: RunConfig, declined = false): Extract<PaidWith, { method: 'CC' }> => ({ method: 'CC', card: sample(run, card({ declined })) });

test.describe('storing payment methods', () => {
  test('a card paid in a createRegistration checkout is stored for the customer, with its last digits, holder and expiry', { tag: tags('TOK-1', 'PML-5') }, async ({ run, api, helpers }) => {
    const customer = await helpers.registerCustomer();
    const paidWith = paidCard(run);
    await checkoutAndPay(api, helpers, sample(run, checkoutVariants.storeMethod), customer, { outcome: 'success', ...paidWith });
    api.expectNoProblems(checkMethodStored(await listStoredMethods(api, customer), { paidWith, clause: 'TOK-1' }));
  });

  test('a mobile wallet paid in a createRegistration checkout is stored with its country code and last digits', { tag: tags('TOK-1', 'PML-5') }, async ({ run, api, helpers }) => {
    const customer = await helpers.registerCustomer();
    const paidWith: PaidWith = { method: 'MW', wallet: sample(run, wallet()) };
    const request = withMethod(sample(run, checkoutVariants.storeMethod), 'MW', { createRegistration: true });
    await checkoutAndPay(api, helpers, request, customer, { outcome: 'success', ...paidWith });
    api.expectNoProblems(checkMethodStored(await listStoredMethods(api, customer), { paidWith, clause: 'TOK-1' }));
  });

  test('with allowRegistration, the method is stored where the customer consents', { tag: tags('TOK-2', 'PML-5') }, async ({ run, api, helpers }) => {
    const customer = await helpers.registerCustomer();
    const paidWith = paidCard(run);
    await checkoutAndPay(api, helpers, sample(run, checkoutVariants.storeWithConsent), customer, { outcome: 'success', ...paidWith, storeConsent: true });
    api.expectNoProblems(checkMethodStored(await listStoredMethods(api, customer), { paidWith, clause: 'TOK-2' }));
  });

  test('with allowRegistration, nothing is stored where the customer declines', { tag: tags('TOK-2') }, async ({ run, api, helpers }) => {
    const customer = await helpers.registerCustomer();
    await checkoutAndPay(api, helpers, sample(run, checkoutVariants.storeWithConsent), customer, { outcome: 'success', ...paidCard(run), storeConsent: false });
    api.expectNoProblems(checkNothingStored(await listStoredMethods(api, customer), { clause: 'TOK-2', why: 'where the customer declined' }));
  });

  test('a declined payment stores nothing', { tag: tags('TOK-3') }, async ({ run, api, helpers }) => {
    const customer = await helpers.registerCustomer();
    const { checkout } = await createCheckout(api, forCustomer(sample(run, checkoutVariants.storeMethod), customer));
    await mustSucceed(api, helpers.pay(checkout.id, { outcome: 'failure', ...paidCard(run, true) }));
    api.expectNoProblems(checkNothingStored(await listStoredMethods(api, customer), { clause: 'TOK-3', why: 'after a declined payment' }));
  });

  test('a payment in a checkout without createRegistration or allowRegistration stores nothing', { tag: tags('TOK-4') }, async ({ run, api, helpers }) => {
    const customer = await helpers.registerCustomer();
    const request = withMethod(sample(run, checkoutVariants.storeWithConsent), 'CC');
    await checkoutAndPay(api, helpers, request, customer, { outcome: 'success', ...paidCard(run), storeConsent: true });
    api.expectNoProblems(checkNothingStored(await listStoredMethods(api, customer), { clause: 'TOK-4', why: 'without createRegistration or allowRegistration' }));
  });

  test('only cards and mobile wallets are ever stored, an ATM payment asked to be stored included', { tag: tags('TOK-5') }, async ({ run, api, helpers }) => {
    const customer = await helpers.registerCustomer();
    await checkoutAndPay(api, helpers, sample(run, checkoutVariants.storeMethod), customer, { outcome: 'success', ...paidCard(run) });
    // Rule 3 says this is refused (CHK-10); where a target takes it anyway, paying must still store no MB.
    const atm = await api.post('/checkouts', forCustomer(withMethod(sample(run, checkoutVariants.storeMethod), 'MB', { createRegistration: true }), customer));
    const atmCheckout = (atm.response.body as { data?: { id?: string } })?.data?.id;
    if (isSuccess(atm.response.status) && atmCheckout) await helpers.pay(atmCheckout, { outcome: 'success', method: 'MB' });
    api.expectNoProblems(checkOnlyStorableTypes(await listStoredMethods(api, customer)));
  });

  test("a method stored for one customer is not in another customer's list", { tag: tags('TOK-6') }, async ({ run, api, helpers }) => {
    const [owner, other] = [await helpers.registerCustomer(), await helpers.registerCustomer()];
    await checkoutAndPay(api, helpers, sample(run, checkoutVariants.storeMethod), owner, { outcome: 'success', ...paidCard(run) });
    api.expectNoProblems(checkNothingStored(await listStoredMethods(api, other), { clause: 'TOK-6', why: "of another customer's payment" }));
  });
});
