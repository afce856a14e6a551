/** Reference 1, 3 and 4.1: storing payment methods after a payment, for cards (CC) and mobile wallets (MW) alike. */
import { randomUUID } from 'node:crypto';
import type { ClauseId } from '../schemas/generated/clause-ids.ts';
import { card, checkoutVariants, consentRowWithoutRegistration, tokenizationClasses, wallet, type InputClass } from '../src/generators/index.ts';
import type { CheckoutRequest, StoredPaymentMethod } from '../schemas/generated/types.ts';
import {
  checkMethodStored,
  checkNoneOfOthers,
  checkNothingStored,
  checkOnlyStorableTypes,
  isSuccess,
  methodsAddedSince,
  storedMethodsOf,
  type Exchange,
  type PaidWith,
} from '../src/checks/index.ts';
import { needs } from '../src/core/needs.ts';
import type { RunConfig } from '../src/core/run-config.ts';
import { exercises, helperClient, helpersUsable, paysInBrowser, tags, test, type Api, type BrowserPages } from '../src/harness/fixtures.ts';
import {
  createCheckout,
  createCheckoutOfClass,
  exerciseClasses,
  forCustomer,
  listSettled,
  listStoredMethods,
  mustSucceed,
  sample,
  samples,
  settleMs,
  withMethod,
} from '../src/harness/flows.ts';
import { payOnNewPage } from '../src/harness/hosted-page.ts';

const methods = ['CC', 'MW'] as const;
type Method = (typeof methods)[number];

/** A card (declined where asked) or a wallet to pay with; a wallet of a country other than Portugal where asked, since 351 is every example's. */
function paidWith(run: RunConfig, method: Method, options: { declined?: boolean; abroad?: boolean } = {}): PaidWith {
  // The pay helper declines where asked; on the hosted page, only the target knows which card its issuer declines.
  const declinedOnPage = options.declined === true && !helpersUsable(run);
  const declinedNumber = run.profile.declinedCardNumber;
  test.skip(declinedOnPage && (method === 'MW' || !declinedNumber), needs.declinedPayment.reason);
  if (method === 'MW') return { method, wallet: sample(run, options.abroad ? wallet().filter((paid) => paid.countryCode !== '351') : wallet()) };
  const paid = sample(run, card({ declined: options.declined }));
  return { method, card: declinedOnPage ? { ...paid, number: declinedNumber! } : paid };
}

/** The storing variant of 4.1 with createRegistration (no layout), for the method. */
const storing = (run: RunConfig, method: Method) => withMethod(sample(run, checkoutVariants.storeMethod), method, { createRegistration: true });

/** storeConsent: the customer's answer; whereOffered: on a page, only if the page asks (TOK-4's checkouts must not). */
interface Extra {
  storeConsent?: boolean;
  whereOffered?: boolean;
  outcome?: 'failure';
  /** The input class of the checkout, where the target may refuse it (CHK-13): the payment then answers why the class was not exercised. */
  inputClass?: InputClass;
}

interface Payer {
  /** n customers: registered by the helper, else the profile's (registered out of band). */
  customers(n: number): Promise<string[]>;
  /**
   * Creates the checkout for the customer and pays it: through the pay helper where the run may use
   * it, else on the hosted page in the browser. Resolves to how long its effect may take to show, or
   * where the target refused a checkout of a class it may refuse, why the class was not exercised.
   */
  pay(request: CheckoutRequest, customer: string, paid: PaidWith, extra?: Extra): Promise<number>;
  pay(request: CheckoutRequest, customer: string, paid: PaidWith, extra: Extra & { inputClass: InputClass }): Promise<number | { skipped: string }>;
  /** Creates every checkout first, then pays them all at once: the payments, not the creations, overlap. Resolves as pay does. */
  payAtOnce(customer: string, payments: { request: CheckoutRequest; paid: PaidWith }[]): Promise<number[]>;
}

function payer(run: RunConfig, api: Api, browserPages: BrowserPages): Payer {
  const createdAtOnce = (customer: string, payments: { request: CheckoutRequest }[]) =>
    Promise.all(payments.map(({ request }) => createCheckout(api, forCustomer(request, customer))));
  if (helpersUsable(run)) {
    const helpers = helperClient(api);
    return {
      // Customers of one test share the merchant's number for them (collisions on every visible attribute): only their uuids tell them apart.
      customers(n) {
        const sharedCustomerId = `shop-customer-${randomUUID().slice(0, 8)}`;
        return Promise.all(Array.from({ length: n }, () => helpers.registerCustomer(sharedCustomerId)));
      },
      async pay(request: CheckoutRequest, customer: string, paid: PaidWith, extra: Extra = {}) {
        const created = await createCheckoutOfClass(api, forCustomer(request, customer));
        if ('skipped' in created) return created as never;
        const { checkout } = created;
        const body = { outcome: extra.outcome ?? 'success', ...paid, ...(extra.storeConsent !== undefined && { storeConsent: extra.storeConsent }) } as const;
        return settleMs(run, await mustSucceed(api, helpers.pay(checkout.id, body)));
      },
      async payAtOnce(customer, payments) {
        const created = await createdAtOnce(customer, payments);
        const paid = payments.map(({ paid: means }, at) => helpers.pay(created[at].checkout.id, { outcome: 'success', ...means } as const));
        return Promise.all(paid.map(async (answer) => settleMs(run, await mustSucceed(api, answer))));
      },
    };
  }
  return {
    async customers(n) {
      const known = run.profile.customers ?? [];
      test.skip(known.length < n, `${needs.customers.reason} (${n} needed, ${known.length} given)`);
      return known.slice(0, n);
    },
    async pay(request: CheckoutRequest, customer: string, paid: PaidWith, extra: Extra = {}) {
      const created = await createCheckoutOfClass(api, forCustomer(request, customer));
      if ('skipped' in created) return created as never;
      const { checkout } = created;
      await payOnNewPage(run, browserPages, checkout.checkoutUrl, paid, { storeConsent: extra.storeConsent, whereOffered: extra.whereOffered });
      // What a page payment stores, the target may store a little later.
      return run.profile.timeouts.eventMs;
    },
    async payAtOnce(customer, payments) {
      const created = await createdAtOnce(customer, payments);
      await Promise.all(payments.map(({ paid }, at) => payOnNewPage(run, browserPages, created[at].checkout.checkoutUrl, paid, {})));
      return payments.map(() => run.profile.timeouts.eventMs);
    },
  };
}

/** The customer's list before the payment: a profile's customer may have methods stored already. */
const storedBefore = async (api: Api, customer: string) => storedMethodsOf(await listStoredMethods(api, customer));

/** A class's checkout paid with `paid`: its method code set, its registration details kept. */
const ofClass = (request: CheckoutRequest, paid: PaidWith) => withMethod(request, paid.method, request.payment?.paymentMethod?.details);

/** The list once the payment has stored the method (read for up to eventMs). */
const listOnceStored = (run: RunConfig, api: Api, customer: string, paid: PaidWith, clause: ClauseId, before: StoredPaymentMethod[]) =>
  listSettled(api, customer, (exchange) => checkMethodStored(exchange, { paidWith: paid, clause, before }).length === 0, run.profile.timeouts.eventMs);

/** The list once a payment that must store nothing has settled: a method stored late is seen too. */
const listOnceSettled = (api: Api, customer: string, settleWithinMs: number, before: StoredPaymentMethod[]) =>
  listSettled(api, customer, (exchange) => methodsAddedSince(exchange, before).length > 0, settleWithinMs);

/**
 * Each class of the clause paid by one customer, after which nothing may be stored: a method stored
 * by any class is the clause's, so one customer serves them all. `paidIn` gives the means, once the
 * customer is known (it may skip the test).
 */
async function storesNothingInAnyClass(
  { run, api, pays }: { run: RunConfig; api: Api; pays: Payer },
  judged: { clause: 'TOK-2' | 'TOK-3' | 'TOK-4'; why: string },
  paidIn: () => PaidWith,
  extra: Extra,
) {
  const [customer] = await pays.customers(1);
  const paid = paidIn();
  await exerciseClasses(run, api, judged.clause, tokenizationClasses[judged.clause], async (request, inputClass) => {
    const before = await storedBefore(api, customer);
    const settle = await pays.pay(ofClass(request, paid), customer, paid, { ...extra, inputClass });
    if (typeof settle !== 'number') return settle;
    return checkNothingStored(await listOnceSettled(api, customer, settle, before), { ...judged, why: `${judged.why} (${inputClass.name})`, before });
  });
}

test.describe('storing payment methods', { tag: paysInBrowser }, () => {
  // A profile's customers are shared by every test: one test at a time, so that none sees another's method.
  test.describe.configure({ mode: 'default' });

  for (const method of methods) {
    const name = method === 'CC' ? 'card' : 'mobile wallet';

    test(
      `a ${name} paid in a createRegistration checkout is stored for the customer, with its values, whatever allowRegistration says (with and without recurring ESTM)`,
      { tag: tags('TOK-1', 'PML-5') },
      async ({ run, api, browserPages }) => {
        const pays = payer(run, api, browserPages);
        const customers = await pays.customers(tokenizationClasses['TOK-1'].length);
        const paid = paidWith(run, method, { abroad: true });
        await exerciseClasses(run, api, 'TOK-1', tokenizationClasses['TOK-1'], async (request, inputClass) => {
          const customer = customers[tokenizationClasses['TOK-1'].indexOf(inputClass)];
          const before = await storedBefore(api, customer);
          const settled = await pays.pay(ofClass(request, paid), customer, paid, { inputClass });
          if (typeof settled !== 'number') return settled;
          return checkMethodStored(await listOnceStored(run, api, customer, paid, 'TOK-1', before), { paidWith: paid, clause: 'TOK-1', before });
        });
      },
    );

    if (method === 'CC')
      test(
        'two cards and two wallets of one customer paid at once are all stored',
        { tag: tags('TOK-1'), annotation: exercises('TOK-1', 'two cards and two wallets of one customer paid at once') },
        async ({ run, api, browserPages }) => {
          const pays = payer(run, api, browserPages);
          const [customer] = await pays.customers(1);
          const before = await storedBefore(api, customer);
          const paid: PaidWith[] = [
            ...samples(run, card(), 2).map((paidCard): PaidWith => ({ method: 'CC', card: paidCard })),
            ...samples(run, wallet(), 2).map((paidWallet): PaidWith => ({ method: 'MW', wallet: paidWallet })),
          ];
          const settles = await pays.payAtOnce(
            customer,
            paid.map((means) => ({ request: storing(run, means.method as Method), paid: means })),
          );
          const stored = (list: Exchange) =>
            paid.flatMap((means) => checkMethodStored(list, { paidWith: means, clause: 'TOK-1', before, others: paid.filter((other) => other !== means) }));
          const list = await listSettled(api, customer, (exchange) => stored(exchange).length === 0, Math.max(run.profile.timeouts.eventMs, ...settles));
          api.expectNoProblems(stored(list));
        },
      );

    test(
      `with allowRegistration and no createRegistration true, a ${name} is stored where the customer consents (with and without recurring ESTM)`,
      { tag: tags('TOK-2', 'PML-5') },
      async ({ run, api, browserPages }) => {
        const pays = payer(run, api, browserPages);
        const customers = await pays.customers(tokenizationClasses['TOK-2'].length);
        const paid = paidWith(run, method);
        await exerciseClasses(run, api, 'TOK-2', tokenizationClasses['TOK-2'], async (request, inputClass) => {
          const customer = customers[tokenizationClasses['TOK-2'].indexOf(inputClass)];
          const before = await storedBefore(api, customer);
          const settled = await pays.pay(ofClass(request, paid), customer, paid, {
            storeConsent: true,
            inputClass,
          });
          if (typeof settled !== 'number') return settled;
          return checkMethodStored(await listOnceStored(run, api, customer, paid, 'TOK-2', before), { paidWith: paid, clause: 'TOK-2', before });
        });
      },
    );

    test(
      `with allowRegistration and no createRegistration true, no ${name} is stored where the customer declines`,
      { tag: tags('TOK-2') },
      async ({ run, api, browserPages }) =>
        storesNothingInAnyClass(
          { run, api, pays: payer(run, api, browserPages) },
          { clause: 'TOK-2', why: 'where the customer declined' },
          () => paidWith(run, method),
          {
            storeConsent: false,
          },
        ),
    );

    test(`a declined ${name} payment stores nothing, in every checkout that would store it`, { tag: tags('TOK-3') }, async ({ run, api, browserPages }) =>
      storesNothingInAnyClass(
        { run, api, pays: payer(run, api, browserPages) },
        { clause: 'TOK-3', why: 'after a declined payment' },
        () => paidWith(run, method, { declined: true }),
        { outcome: 'failure', storeConsent: true, whereOffered: true },
      ),
    );

    test(
      `a ${name} payment in a checkout without createRegistration or allowRegistration true stores nothing, the flags left out or false (with and without recurring ESTM)`,
      { tag: tags('TOK-4') },
      async ({ run, api, browserPages }) =>
        storesNothingInAnyClass(
          { run, api, pays: payer(run, api, browserPages) },
          { clause: 'TOK-4', why: 'without createRegistration or allowRegistration' },
          () => paidWith(run, method),
          { storeConsent: true, whereOffered: true },
        ),
    );

    test(
      `a ${name} stored for one customer is not in another customer's list, even where the other pays with it too, or stores it too`,
      { tag: tags('TOK-6'), annotation: exercises('TOK-6', name) },
      async ({ run, api, browserPages }) => {
        const pays = payer(run, api, browserPages);
        const [owner, other] = await pays.customers(2);
        const paid = paidWith(run, method);
        const [ownerBefore, otherBefore] = [await storedBefore(api, owner), await storedBefore(api, other)];
        await pays.pay(storing(run, method), owner, paid);
        const ownerList = await listOnceStored(run, api, owner, paid, 'TOK-1', ownerBefore);
        const problems = checkNothingStored(await listSettled(api, other, () => true, 0), {
          clause: 'TOK-6',
          why: "of another customer's payment",
          before: otherBefore,
        });
        // The same card or wallet paid by the other customer, in a checkout that stores nothing (where the target takes one).
        const settle = await pays.pay(withMethod(sample(run, consentRowWithoutRegistration.arbitrary), method), other, paid, {
          inputClass: consentRowWithoutRegistration,
        });
        if (typeof settle === 'number')
          problems.push(
            ...checkNothingStored(await listOnceSettled(api, other, settle, otherBefore), {
              clause: 'TOK-6',
              why: 'after paying without storing with a method another customer stored',
              before: otherBefore,
            }),
          );
        // The other stores the same card or wallet too: each list holds a method of its own, never the other's.
        const otherStoredBefore = await storedBefore(api, other);
        await pays.pay(storing(run, method), other, paid);
        const othersList = await listOnceStored(run, api, other, paid, 'TOK-1', otherStoredBefore);
        problems.push(
          ...checkNoneOfOthers(othersList, { others: methodsAddedSince(ownerList, ownerBefore), why: 'the other customer stored with the same means' }),
          ...checkNothingStored(await listStoredMethods(api, owner), {
            clause: 'TOK-6',
            why: 'after another customer stored the same means',
            before: storedMethodsOf(ownerList),
          }),
        );
        api.expectNoProblems(problems);
      },
    );
  }

  test(
    'only cards and mobile wallets are ever stored, an ATM payment asked to be stored included',
    { tag: tags('TOK-5'), annotation: exercises('TOK-5', 'an ATM payment asked to be stored, beside a stored card') },
    async ({ run, api, browserPages }) => {
      const pays = payer(run, api, browserPages);
      const [customer] = await pays.customers(1);
      const paid = paidWith(run, 'CC');
      const before = await storedBefore(api, customer);
      await pays.pay(storing(run, 'CC'), customer, paid);
      await listOnceStored(run, api, customer, paid, 'TOK-1', before);
      // Rule 3 says this is refused (CHK-10); where a target takes it anyway, paying must still store no
      // MB. Only the pay helper can pay it: on a page, an ATM reference is paid by the interbank network.
      const atm = await api.call('createCheckout', {
        body: forCustomer(withMethod(sample(run, checkoutVariants.storeMethod), 'MB', { createRegistration: true }), customer),
      });
      const atmCheckout = (atm.response.body as { data?: { id?: string } })?.data?.id;
      const payment =
        helpersUsable(run) && isSuccess(atm.response.status) && atmCheckout
          ? await helperClient(api).pay(atmCheckout, { outcome: 'success', method: 'MB' })
          : atm;
      const settled = await listSettled(api, customer, (exchange) => checkOnlyStorableTypes(exchange).length > 0, settleMs(run, payment));
      api.expectNoProblems(checkOnlyStorableTypes(settled));
    },
  );
});
