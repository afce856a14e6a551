/** Reference 1, 4.1 and 6: what the customer sees, in Chromium, and where the browser is sent after paying. */
import { devices, type Page, type Request, type Response } from '@playwright/test';
import {
  actionUrlClasses,
  atmPageClassName,
  besideActionName,
  card,
  checkoutVariants,
  consentOfferCases,
  deepLinks,
  helperDeepLinks,
  merchantPageClasses,
  pageClasses,
  pageLanguageName,
  pageLanguages,
  pageOpenedAgain,
  pageOpeningClasses,
  pageReloaded,
  referenceSearchBound,
  referenceShapeOf,
  redirectsBesideAction,
  referenceShapes,
  registrationName,
  shownAmountClasses,
  storingPageName,
  storingPages,
  withRegistration,
  type InputClass,
  type MerchantPageForm,
} from '../src/generators/index.ts';
import type { Checkout, CheckoutRequest } from '../schemas/generated/types.ts';
import {
  checkAmountShown,
  checkAtmPageReference,
  checkConsentOffer,
  checkFormInsideWidgets,
  checkNothingPostedToAction,
  checkPaymentPageOpens,
  checkRedirect,
  paymentOf,
  type PageProbe,
  type Problem,
} from '../src/checks/index.ts';
import type { RunConfig } from '../src/core/run-config.ts';
import { exercises, helperClient, helpersUsable, paysInBrowser, tags, test, waitsOutEventMs, type Receiver } from '../src/harness/fixtures.ts';
import {
  createCheckout,
  createCheckoutOfClass,
  createIfAccepted,
  exerciseClasses,
  forCustomer,
  mustSucceed,
  quietMs,
  recordClasses,
  sample,
  samples,
  searchReferenceShapes,
  someCustomer,
} from '../src/harness/flows.ts';
import { consentControl, optionalRole, payByCard, paymentForm, rendered } from '../src/harness/hosted-page.ts';

const withAction = (request: CheckoutRequest, url: string): CheckoutRequest => ({ ...request, redirects: [{ type: 'action', url }] });
const withLayout = (request: CheckoutRequest, layout: string, code = 'CC'): CheckoutRequest => ({
  ...request,
  payment: { ...request.payment, paymentMethod: { ...request.payment?.paymentMethod, code } },
  page: { ...request.page, layout },
});

/** An action URL of the receiver with a query of its own, which the redirect must keep, and a fragment, before which `id` must go. */
function actionUrl(receiver: Receiver): { path: string; url: string } {
  const path = receiver.newPath('action');
  return { path, url: `${receiver.urlOf(path)}?order=7#receipt` };
}

/**
 * What PAGE-1 judges of a page once `go` opened (or reloaded) it: its status, the ways to pay it
 * offers (none asked of an ATM page, whose text must hold the reference) and its text.
 */
async function openedPage(run: RunConfig, page: Page, url: string, go: () => Promise<Response | null>, atm: boolean): Promise<PageProbe> {
  const response = await go();
  const form = paymentForm(run, page);
  // An error status fails PAGE-1 whatever the page renders after it: nothing to wait for.
  if (response?.ok() && atm)
    await page.waitForFunction(() => /\d{3}/.test(document.body.innerText), undefined, { timeout: run.profile.timeouts.requestMs }).catch(() => undefined);
  else if (response?.ok()) await rendered(run, form);
  return { url, status: response?.status() ?? null, formCount: atm ? 0 : await form.count(), text: await page.locator('body').innerText() };
}

/** What the ATM page at url shows: its whole text, and the text where its reference and entity are (the whole text where the profile names no place for them). */
async function atmPageProbe(run: RunConfig, page: Page, url: string) {
  await page.goto(url);
  const [referenceAt, entityAt] = [optionalRole(run, page, 'atmReference'), optionalRole(run, page, 'atmEntity')];
  if (referenceAt) await rendered(run, referenceAt);
  else await page.waitForFunction(() => /\d{3}/.test(document.body.innerText), undefined, { timeout: run.profile.timeouts.requestMs }).catch(() => undefined);
  const text = await page.locator('body').innerText();
  // Where the reference never came within requestMs, the entity is not waited for again.
  const rendering = !referenceAt || (await referenceAt.count()) > 0;
  const textAt = async (at: typeof referenceAt) =>
    at
      ? ((await at
          .first()
          .textContent({ timeout: rendering ? run.profile.timeouts.requestMs : 1 })
          .catch(() => null)) ?? '')
      : text;
  return { url, text, referenceText: await textAt(referenceAt), entityText: await textAt(entityAt) };
}

test.describe('hosted pages', { tag: paysInBrowser }, () => {
  const pageTitles: Record<keyof typeof pageOpeningClasses, string> = {
    web: 'a web checkout',
    basic: 'a basic checkout',
    default: 'a default checkout',
    atm: 'an ATM (MB, web) checkout',
  };
  for (const [kind, classes] of Object.entries(pageOpeningClasses) as [keyof typeof pageOpeningClasses, InputClass<CheckoutRequest>[]][]) {
    test(
      `checkoutUrl of ${pageTitles[kind]} opens a payment page, again and reloaded before it is paid (every class)`,
      { tag: tags('PAGE-1'), annotation: exercises('PAGE-1', pageOpenedAgain, pageReloaded) },
      async ({ run, api, browserPages, observe }) => {
        const atm = kind === 'atm';
        const customer = await someCustomer(run, api);
        const page = await browserPages.newPage();
        let opened = 0;
        await exerciseClasses(run, api, 'PAGE-1', classes, async (request, inputClass) => {
          const created = await createCheckoutOfClass(api, forCustomer(request, customer));
          if ('skipped' in created) return created;
          opened += 1;
          const { id, checkoutUrl } = created.checkout;
          const problems = checkPaymentPageOpens(await openedPage(run, page, checkoutUrl, () => page.goto(checkoutUrl), atm), { atm });
          // A page is opened more than once (a refresh, the link opened again in another tab): the row's checkout in each of those states.
          if (inputClass !== classes[0] || problems.length > 0) return problems;
          problems.push(...checkPaymentPageOpens(await openedPage(run, page, checkoutUrl, () => page.reload(), atm), { atm }));
          const again = await page.context().newPage();
          problems.push(...checkPaymentPageOpens(await openedPage(run, again, checkoutUrl, () => again.goto(checkoutUrl), atm), { atm }));
          if (problems.length > 0 || !helpersUsable(run)) return problems;
          const paidWith = atm ? ({ method: 'MB' } as const) : ({ method: 'CC', card: sample(run, card()) } as const);
          await mustSucceed(api, helperClient(api).pay(id, { outcome: 'success', ...paidWith }));
          // What it shows then is not shown: its first answer is recorded, nothing waited for.
          const response = await again.goto(checkoutUrl);
          await observe.record('checkoutUrl opened once its checkout was paid (not shown: recorded, never judged)', {
            url: checkoutUrl,
            status: response?.status() ?? null,
            text: await again.locator('body').innerText(),
          });
          return problems;
        });
        test.skip(opened === 0, `the target refused every checkout of ${pageTitles[kind]} (recorded under CHK-13): no page to open`);
      },
    );
  }

  // Strings in every case and length where they reach a page: a checkout the target takes opens, whatever language it names.
  test(
    'checkoutUrl opens a payment page whatever page.language the checkout names, or none',
    { tag: tags('PAGE-1'), annotation: exercises('PAGE-1', ...pageLanguages.map(pageLanguageName)) },
    async ({ run, api, browserPages }) => {
      const problems: Problem[] = [];
      const page = await browserPages.newPage();
      let opened = 0;
      for (const language of pageLanguages) {
        const request = sample(run, checkoutVariants.embedMobile);
        const { language: _own, ...pageFields } = request.page ?? {};
        const checkout = await createIfAccepted(api, { ...request, page: language === null ? pageFields : { ...pageFields, language } });
        if (!checkout) continue;
        opened += 1;
        const response = await page.goto(checkout.checkoutUrl);
        const form = paymentForm(run, page);
        if (response?.ok()) await rendered(run, form);
        const text = await page.locator('body').innerText();
        problems.push(...checkPaymentPageOpens({ url: checkout.checkoutUrl, status: response?.status() ?? null, formCount: await form.count(), text }));
      }
      test.skip(opened === 0, 'the target refused every checkout naming another page.language or none (recorded under CHK-13): no page to open');
      api.expectNoProblems(problems);
    },
  );

  test(
    'the embed script renders the payment form inside form.paymentWidgets, however the merchant page holds it (every class)',
    { tag: tags('PAGE-2') },
    async ({ run, api, receiver, browserPages }) => {
      const page = await browserPages.newPage();
      const formInside = async (checkoutUrl: string, form?: MerchantPageForm) => {
        await page.goto(receiver.merchantPageUrl(checkoutUrl, form));
        const widgets = page.locator('form.paymentWidgets');
        const payButton = run.profile.selectors?.payButton;
        const inside = widgets.locator(typeof payButton === 'string' ? payButton : 'input, button, select, iframe');
        await rendered(run, inside);
        return checkFormInsideWidgets({ scriptUrl: checkoutUrl, formCount: await inside.count(), html: await widgets.innerHTML() });
      };
      await exerciseClasses(run, api, 'PAGE-2', merchantPageClasses, async (form) => {
        const { checkout } = await createCheckout(api, sample(run, checkoutVariants.embedWeb));
        return formInside(checkout.checkoutUrl, form);
      });
      const customer = await someCustomer(run, api);
      await exerciseClasses(run, api, 'PAGE-2', pageClasses['PAGE-2'], async (request) => {
        const created = await createCheckoutOfClass(api, forCustomer(request, customer));
        return 'skipped' in created ? created : formInside(created.checkout.checkoutUrl);
      });
    },
  );

  test(
    'paying in the browser sends it to the action URL with id, its own query kept, and nothing is posted there',
    { tag: tags('PAGE-3', 'PAGE-7'), annotation: [...exercises('PAGE-3', 'paid in the browser'), ...exercises('PAGE-7', 'paid in the browser')] },
    async ({ run, api, receiver, browserPages }) => {
      const action = actionUrl(receiver);
      const { checkout } = await createCheckout(api, withAction(sample(run, checkoutVariants.embedWeb), action.url));
      const page = await browserPages.newPage();
      await page.goto(receiver.merchantPageUrl(checkout.checkoutUrl));
      await payByCard(run, page, sample(run, card()));
      // The browser itself must land there (a 30x, a script or a meta refresh): a request to the action URL from elsewhere, or a link on the page, is not the redirect.
      const actionPage = new URL(action.url);
      await page
        .waitForURL((url) => url.origin === actionPage.origin && url.pathname === actionPage.pathname, { timeout: run.profile.timeouts.eventMs })
        .catch(() => undefined);
      api.expectNoProblems([
        ...checkRedirect(page.url(), { actionUrl: action.url, checkoutId: checkout.id, clause: 'PAGE-3' }),
        ...checkNothingPostedToAction(receiver.received(action.path), { browserVisited: true }),
      ]);
    },
  );

  for (const deepLink of deepLinks) {
    test(
      `the redirect in a mobile webview goes to the deep link ${deepLink} with id`,
      { tag: tags('PAGE-4'), annotation: exercises('PAGE-4', `webview, ${deepLink}`) },
      async ({ run, api, browserPages }) => {
        const { checkout } = await createCheckout(api, withAction(sample(run, checkoutVariants.embedMobile), deepLink));
        const page = await browserPages.newPage({ ...devices['Pixel 7'] });
        const scheme = new URL(deepLink).protocol;
        // The webview is sent there by a 30x, a script or a meta refresh; a link the customer could follow is not a redirect.
        const toDeepLink = new Promise<string>((resolve) => {
          const take = (url: string | undefined) => url?.startsWith(scheme) && resolve(url);
          page.on('response', (response: Response) => take(response.headers().location));
          page.on('request', (request: Request) => take(request.url()));
          page.on('requestfailed', (request: Request) => take(request.url()));
          page.on('framenavigated', (frame) => take(frame.url()));
        });
        await page.goto(checkout.checkoutUrl);
        await payByCard(run, page, sample(run, card()));
        const timedOut = new Promise<null>((resolve) => setTimeout(() => resolve(null), run.profile.timeouts.eventMs));
        const reached = await Promise.race([toDeepLink, timedOut]);
        api.expectNoProblems(checkRedirect(reached, { actionUrl: deepLink, checkoutId: checkout.id, clause: 'PAGE-4' }));
      },
    );
  }

  test(
    'the ATM payment page of every kind of ATM checkout (its row, no optional field, every documented one) shows the entity and the 9-digit reference (every class)',
    { tag: tags('PAGE-5') },
    async ({ run, api, browserPages }) => {
      const customer = await someCustomer(run, api);
      const page = await browserPages.newPage();
      await exerciseClasses(run, api, 'PAGE-5', pageClasses['PAGE-5'], async (request) => {
        const created = await createCheckoutOfClass(api, forCustomer(request, customer));
        if ('skipped' in created) return created;
        const { checkout } = created;
        const probe = await atmPageProbe(run, page, checkout.checkoutUrl);
        // A stateless mock's payment query answers its example, not this checkout's payment.
        const shown = run.profile.capabilities.stateful ? paymentOf(await api.call('getPayment', { param: checkout.paymentId }))?.referenceDetails : undefined;
        return checkAtmPageReference(probe, { paymentId: checkout.paymentId, apiReference: shown?.reference, apiEntity: shown?.entity });
      });
    },
  );

  // The target draws the reference: as REF-2's, MB checkouts are created until one of each shape
  // (no, one, several leading zeros) came, and the page of each is read. A stateless mock's payment
  // query answers its example, not a checkout's payment: its one page is judged by the shape it shows,
  // as is a target's whose payment query shows no reference before payment.
  test(
    'the ATM payment page shows the entity and the 9-digit reference as the API gives it, leading zeros kept (every shape)',
    { tag: tags('PAGE-5') },
    async ({ run, api, browserPages }) => {
      // The first page before the search: a run without a browser skips here.
      const firstPage = await browserPages.newPage();
      const stateful = run.profile.capabilities.stateful;
      const requests = samples(run, checkoutVariants.atmPage, stateful ? referenceSearchBound : 1);
      const found = new Map<string, { checkout: Checkout; reference?: string; entity?: string }>();
      const notFound = stateful
        ? await searchReferenceShapes(
            'MB checkouts',
            async (index) => {
              const { checkout } = await createCheckout(api, requests[index]);
              const shown = paymentOf(await api.call('getPayment', { param: checkout.paymentId }))?.referenceDetails;
              const shape = referenceShapeOf(shown?.reference);
              if (shape && !found.has(shape)) found.set(shape, { checkout, reference: shown!.reference, entity: shown?.entity });
            },
            () => found.size,
          )
        : "a stateless target: its payment query does not show a checkout's reference to search by";
      // Where no payment query showed a reference to search by, one page is judged by what it shows.
      const pages = found.size > 0 ? [...found.values()] : [{ checkout: (await createCheckout(api, requests[0])).checkout }];
      const problems: Problem[] = [];
      const shownShapes = new Set<string>();
      for (const [index, { checkout, reference, entity }] of pages.entries()) {
        const probe = await atmPageProbe(run, index === 0 ? firstPage : await browserPages.newPage(), checkout.checkoutUrl);
        const shape = reference ? referenceShapeOf(reference) : referenceShapeOf(probe.referenceText.match(/\d{9}/)?.[0]);
        if (shape) shownShapes.add(shape);
        problems.push(
          ...checkAtmPageReference(probe, { paymentId: checkout.paymentId, apiReference: reference, apiEntity: entity }).map((problem) => ({
            ...problem,
            message: `${problem.message}${shape ? ` (class: ${atmPageClassName(shape)})` : ''}`,
          })),
        );
      }
      await recordClasses(
        referenceShapes.map(({ name }) => ({ clause: 'PAGE-5', name: atmPageClassName(name), skipped: shownShapes.has(name) ? null : notFound })),
      );
      api.expectNoProblems(problems);
    },
  );

  test(
    'the ATM payment pages of two MB checkouts alike in every field each show the entity and the 9-digit reference of their own payment',
    { tag: tags('PAGE-5'), annotation: exercises('PAGE-5', 'two MB checkouts of the same body') },
    async ({ run, api, browserPages }) => {
      // Collisions on every visible attribute: the same product, amount and language, created one after the other.
      const request = sample(run, checkoutVariants.atmPage);
      const checkouts = [(await createCheckout(api, request)).checkout, (await createCheckout(api, request)).checkout];
      const page = await browserPages.newPage();
      const problems: Problem[] = [];
      for (const checkout of checkouts) {
        const probe = await atmPageProbe(run, page, checkout.checkoutUrl);
        // A stateless mock's payment query answers its example, not this checkout's payment.
        const shown = run.profile.capabilities.stateful ? paymentOf(await api.call('getPayment', { param: checkout.paymentId }))?.referenceDetails : undefined;
        problems.push(...checkAtmPageReference(probe, { paymentId: checkout.paymentId, apiReference: shown?.reference, apiEntity: shown?.entity }));
      }
      api.expectNoProblems(problems);
    },
  );

  // A target may refuse every checkout here but the consent row itself (classifyCheckout): a refused one offers nothing, and is not judged.
  for (const storingPage of storingPages) {
    const [layout, code] = storingPage;
    const cases = consentOfferCases.filter(({ page }) => page === storingPage);
    test(
      `the option to store the method is offered with allowRegistration true, and only then, createRegistration left out, false or true (${code}, layout ${layout})`,
      { tag: tags('PAGE-6'), annotation: exercises('PAGE-6', storingPageName(storingPage), ...cases.map(({ details }) => registrationName(details))) },
      async ({ run, api, browserPages }) => {
        const base = forCustomer(withLayout(sample(run, checkoutVariants.storeWithConsent), layout, code), await someCustomer(run, api));
        const problems: Problem[] = [];
        let judged = 0;
        for (const { details } of cases) {
          const checkout = await createIfAccepted(api, withRegistration(base, details));
          if (!checkout) continue;
          judged += 1;
          const page = await browserPages.newPage();
          await page.goto(checkout.checkoutUrl, { waitUntil: 'load' });
          const consent = consentControl(run, page);
          // Where the option is owed, wait for it; where it is not, wait for the form to be there before saying it is absent.
          const owed = details.allowRegistration === true;
          await rendered(run, owed ? consent : (optionalRole(run, page, 'payButton') ?? page.locator('button, input[type=submit]')));
          problems.push(...checkConsentOffer({ url: checkout.checkoutUrl, consentOffered: (await consent.count()) > 0 }, { details }));
        }
        test.skip(
          judged === 0,
          `the target refused every checkout beyond the rows of 4.1 (${code}, layout ${layout}): rule 3 allows them, 4.1 does not list them`,
        );
        api.expectNoProblems(problems);
      },
    );
  }

  test(
    'the hosted page shows the amount in major units (every amount class a row must be accepted with)',
    { tag: tags('CHK-8') },
    async ({ run, api, browserPages }) => {
      const customer = await someCustomer(run, api);
      const page = await browserPages.newPage();
      await exerciseClasses(run, api, 'CHK-8', shownAmountClasses, async (request) => {
        const amount = request.payment!.amount!;
        const { checkout } = await createCheckout(api, forCustomer(request, customer));
        await page.goto(checkout.checkoutUrl);
        const shownAt = optionalRole(run, page, 'amount') ?? page.locator('body');
        await rendered(run, shownAt);
        const shown = (await shownAt.first().textContent()) ?? '';
        return checkAmountShown(shown, { amount, where: `${checkout.checkoutUrl} ${JSON.stringify(run.profile.selectors?.amount ?? 'body')}` });
      });
    },
  );
});

test.describe('redirects through the pay helper', () => {
  test(
    "the pay helper's redirectUrl is the action URL with id, for every form of action URL (every class)",
    { tag: tags('PAGE-3') },
    async ({ run, api, helpers, receiver }) => {
      await exerciseClasses(run, api, 'PAGE-3', actionUrlClasses, async (form, inputClass) => {
        const url = `${receiver.urlOf(receiver.newPath('action'))}${form}`;
        const created = await createCheckoutOfClass(api, withAction(sample(run, checkoutVariants.embedWeb), url), inputClass);
        if ('skipped' in created) return created;
        const { checkout } = created;
        const paid = await mustSucceed(api, helpers.pay(checkout.id, { outcome: 'success', method: 'CC', card: sample(run, card()) }));
        return checkRedirect((paid.response.body as { redirectUrl?: string })?.redirectUrl, { actionUrl: url, checkoutId: checkout.id, clause: 'PAGE-3' });
      });
    },
  );

  test(
    "the pay helper's redirectUrl is the action URL with id where redirects of other types come before it",
    { tag: tags('PAGE-3'), annotation: exercises('PAGE-3', ...redirectsBesideAction.map(besideActionName)) },
    async ({ run, api, helpers, receiver }) => {
      const problems: Problem[] = [];
      let paidCheckouts = 0;
      for (const types of redirectsBesideAction) {
        const url = receiver.urlOf(receiver.newPath('action'));
        const request = withAction(sample(run, checkoutVariants.embedWeb), url);
        const others = types.map((type) => ({ type, url: receiver.urlOf(receiver.newPath(type)) }));
        const checkout = await createIfAccepted(api, { ...request, redirects: [...others, ...(request.redirects ?? [])] });
        if (!checkout) continue;
        paidCheckouts += 1;
        const paid = await mustSucceed(api, helpers.pay(checkout.id, { outcome: 'success', method: 'CC', card: sample(run, card()) }));
        problems.push(
          ...checkRedirect((paid.response.body as { redirectUrl?: string })?.redirectUrl, { actionUrl: url, checkoutId: checkout.id, clause: 'PAGE-3' }),
        );
      }
      test.skip(paidCheckouts === 0, 'the target refused every checkout with redirects of other types (recorded under CHK-13)');
      api.expectNoProblems(problems);
    },
  );

  test(
    "the pay helper's redirectUrl for a mobile checkout is the deep link with id, for every form of deep link",
    { tag: tags('PAGE-4'), annotation: exercises('PAGE-4', ...helperDeepLinks.map((link) => `pay helper, ${link}`)) },
    async ({ run, api, helpers }) => {
      const problems: Problem[] = [];
      for (const deepLink of helperDeepLinks) {
        const { checkout } = await createCheckout(api, withAction(sample(run, checkoutVariants.embedMobile), deepLink));
        const paid = await mustSucceed(api, helpers.pay(checkout.id, { outcome: 'success', method: 'CC', card: sample(run, card()) }));
        problems.push(
          ...checkRedirect((paid.response.body as { redirectUrl?: string })?.redirectUrl, { actionUrl: deepLink, checkoutId: checkout.id, clause: 'PAGE-4' }),
        );
      }
      api.expectNoProblems(problems);
    },
  );

  test(
    "the service posts nothing to the action URL: the redirect is the browser's",
    {
      tag: [...tags('PAGE-7'), waitsOutEventMs],
      annotation: exercises('PAGE-7', 'paid through the pay helper, no browser', 'declined through the pay helper, no browser'),
    },
    async ({ run, api, helpers, receiver }) => {
      // Every path to an outcome: a payment made and one declined, side by side, waited out together.
      const actions = await Promise.all(
        (['success', 'failure'] as const).map(async (outcome) => {
          const action = actionUrl(receiver);
          const { checkout } = await createCheckout(api, withAction(sample(run, checkoutVariants.embedWeb), action.url));
          await mustSucceed(api, helpers.pay(checkout.id, { outcome, method: 'CC', card: sample(run, card()) }));
          return action;
        }),
      );
      await receiver.waitFor((request) => actions.some((action) => request.path === action.path), quietMs(run));
      const received = actions.flatMap((action) => receiver.received(action.path));
      for (const request of received) api.note({ request, response: null, note: 'received at the action URL with no browser involved' });
      api.expectNoProblems(checkNothingPostedToAction(received, { browserVisited: false }));
    },
  );
});
