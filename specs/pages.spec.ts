/** Reference 1, 4.1 and 6: what the customer sees, in Chromium, and where the browser is sent after paying. */
import { devices, type Request, type Response } from '@playwright/test';
import {
  actionFormName,
  actionUrlForms,
  besideActionName,
  pageLanguageName,
  pageLanguages,
  redirectsBesideAction,
  card,
  checkoutVariants,
  consentOfferCases,
  deepLinks,
  helperDeepLinks,
  registrationName,
  storingPageName,
  storingPages,
  withRegistration,
} from '../src/generators/index.ts';
import type { CheckoutRequest } from '../schemas/generated/types.ts';
import {
  checkAmountShown,
  checkAtmPageReference,
  checkConsentOffer,
  checkFormInsideWidgets,
  checkNothingPostedToAction,
  checkPaymentPageOpens,
  checkRedirect,
  paymentOf,
  type Problem,
} from '../src/checks/index.ts';
import { exercises, paysInBrowser, tags, test, waitsOutEventMs, type Receiver } from '../src/harness/fixtures.ts';
import { createCheckout, createIfAccepted, forCustomer, mustSucceed, quietMs, sample, someCustomer } from '../src/harness/flows.ts';
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

test.describe('hosted pages', { tag: paysInBrowser }, () => {
  // basic and default as their rows of 4.1 show them; web for a card is beyond the rows (4.1 shows it for MB), which a target may refuse.
  for (const layout of ['web', 'basic', 'default'] as const) {
    test(
      `checkoutUrl of a ${layout} checkout opens a payment page`,
      { tag: tags('PAGE-1'), annotation: exercises('PAGE-1', `layout ${layout}`) },
      async ({ run, api, browserPages }) => {
        const rows = { basic: checkoutVariants.storeWithConsent, default: checkoutVariants.embedMobile };
        const checkout = await createIfAccepted(
          api,
          layout === 'web' ? withLayout(sample(run, checkoutVariants.atmPage), layout) : forCustomer(sample(run, rows[layout]), await someCustomer(run, api)),
        );
        test.skip(!checkout, 'the target refused a card checkout of layout web, beyond the rows of 4.1 (recorded under CHK-13)');
        const page = await browserPages.newPage();
        const response = await page.goto(checkout!.checkoutUrl);
        const form = paymentForm(run, page);
        // An error status fails PAGE-1 whatever the page renders after it: nothing to wait for.
        if (response?.ok()) await rendered(run, form);
        api.expectNoProblems(
          checkPaymentPageOpens({
            url: checkout!.checkoutUrl,
            status: response?.status() ?? null,
            formCount: await form.count(),
            text: await page.locator('body').innerText(),
          }),
        );
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
    'checkoutUrl of an ATM (MB, web) checkout opens a page with the reference to pay',
    { tag: tags('PAGE-1'), annotation: exercises('PAGE-1', 'an ATM checkout (MB, layout web)') },
    async ({ run, api, browserPages }) => {
      const { checkout } = await createCheckout(api, sample(run, checkoutVariants.atmPage));
      const page = await browserPages.newPage();
      const response = await page.goto(checkout.checkoutUrl);
      if (response?.ok())
        await page.waitForFunction(() => /\d{3}/.test(document.body.innerText), undefined, { timeout: run.profile.timeouts.requestMs }).catch(() => undefined);
      const text = await page.locator('body').innerText();
      api.expectNoProblems(checkPaymentPageOpens({ url: checkout.checkoutUrl, status: response?.status() ?? null, formCount: 0, text }, { atm: true }));
    },
  );

  test(
    'the embed script renders the payment form inside form.paymentWidgets of the merchant page',
    { tag: tags('PAGE-2'), annotation: exercises('PAGE-2', 'form.paymentWidgets among other forms of the merchant page') },
    async ({ run, api, receiver, browserPages }) => {
      const { checkout } = await createCheckout(api, sample(run, checkoutVariants.embedWeb));
      const page = await browserPages.newPage();
      await page.goto(receiver.merchantPageUrl(checkout.checkoutUrl));
      const widgets = page.locator('form.paymentWidgets');
      const payButton = run.profile.selectors?.payButton;
      const inside = widgets.locator(typeof payButton === 'string' ? payButton : 'input, button, select, iframe');
      await inside
        .first()
        .waitFor({ state: 'attached' })
        .catch(() => undefined);
      api.expectNoProblems(checkFormInsideWidgets({ scriptUrl: checkout.checkoutUrl, formCount: await inside.count(), html: await widgets.innerHTML() }));
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
    'the ATM payment pages of two MB checkouts alike in every field each show the entity and the 9-digit reference of their own payment',
    { tag: tags('PAGE-5'), annotation: exercises('PAGE-5', 'the ATM page of an MB checkout', 'two MB checkouts of the same body') },
    async ({ run, api, browserPages }) => {
      // Collisions on every visible attribute: the same product, amount and language, created one after the other.
      const request = sample(run, checkoutVariants.atmPage);
      const checkouts = [(await createCheckout(api, request)).checkout, (await createCheckout(api, request)).checkout];
      const page = await browserPages.newPage();
      const problems: Problem[] = [];
      for (const checkout of checkouts) {
        await page.goto(checkout.checkoutUrl);
        const [referenceAt, entityAt] = [optionalRole(run, page, 'atmReference'), optionalRole(run, page, 'atmEntity')];
        if (referenceAt) await rendered(run, referenceAt);
        else
          await page
            .waitForFunction(() => /\d{3}/.test(document.body.innerText), undefined, { timeout: run.profile.timeouts.requestMs })
            .catch(() => undefined);
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
        const probe = { url: checkout.checkoutUrl, text, referenceText: await textAt(referenceAt), entityText: await textAt(entityAt) };
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

  test('the hosted page shows the amount in major units', { tag: tags('CHK-8') }, async ({ run, api, browserPages }) => {
    const request = forCustomer(sample(run, checkoutVariants.storeWithConsent), await someCustomer(run, api));
    const amount = 123456;
    const { checkout } = await createCheckout(api, { ...request, payment: { ...request.payment, amount } });
    const page = await browserPages.newPage();
    await page.goto(checkout.checkoutUrl);
    const shownAt = optionalRole(run, page, 'amount') ?? page.locator('body');
    await rendered(run, shownAt);
    const shown = (await shownAt.first().textContent()) ?? '';
    api.expectNoProblems(checkAmountShown(shown, { amount, where: `${checkout.checkoutUrl} ${JSON.stringify(run.profile.selectors?.amount ?? 'body')}` }));
  });
});

test.describe('redirects through the pay helper', () => {
  test(
    "the pay helper's redirectUrl is the action URL with id, for every form of action URL",
    {
      tag: tags('PAGE-3'),
      annotation: exercises('PAGE-3', ...actionUrlForms.map(actionFormName), ...redirectsBesideAction.map(besideActionName)),
    },
    async ({ run, api, helpers, receiver }) => {
      const problems: Problem[] = [];
      const redirectOf = async (checkout: { id: string }) =>
        (await mustSucceed(api, helpers.pay(checkout.id, { outcome: 'success', method: 'CC', card: sample(run, card()) }))).response.body as {
          redirectUrl?: string;
        };
      for (const form of actionUrlForms) {
        const url = `${receiver.urlOf(receiver.newPath('action'))}${form}`;
        const { checkout } = await createCheckout(api, withAction(sample(run, checkoutVariants.embedWeb), url));
        problems.push(...checkRedirect((await redirectOf(checkout)).redirectUrl, { actionUrl: url, checkoutId: checkout.id, clause: 'PAGE-3' }));
      }
      for (const types of redirectsBesideAction) {
        const url = receiver.urlOf(receiver.newPath('action'));
        const request = withAction(sample(run, checkoutVariants.embedWeb), url);
        const others = types.map((type) => ({ type, url: receiver.urlOf(receiver.newPath(type)) }));
        const checkout = await createIfAccepted(api, { ...request, redirects: [...others, ...(request.redirects ?? [])] });
        if (!checkout) continue;
        problems.push(...checkRedirect((await redirectOf(checkout)).redirectUrl, { actionUrl: url, checkoutId: checkout.id, clause: 'PAGE-3' }));
      }
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
