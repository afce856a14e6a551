/** Reference 1, 4.1 and 6: what the customer sees, in Chromium, and where the browser is sent after paying. */
import { devices, type Page, type Request, type Response } from '@playwright/test';
import { card, checkoutVariants } from '../generators/index.ts';
import type { CheckoutRequest } from '../schemas/generated/types.ts';
import type { BrowserSelectors } from '../src/run-config.ts';
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
import { requires, tags, test, type Receiver } from './fixtures.ts';
import { createCheckout, getPayment, mustSucceed, quietMs, sample } from './flows.ts';

const withAction = (request: CheckoutRequest, url: string): CheckoutRequest => ({ ...request, redirects: [{ type: 'action', url }] });
const withLayout = (request: CheckoutRequest, layout: string, code = 'CC'): CheckoutRequest => ({
  ...request,
  payment: { ...request.payment, paymentMethod: { ...request.payment?.paymentMethod, code } },
  page: { ...request.page, layout },
});

/** An action URL of the receiver with a query of its own, which the redirect must keep. */
function actionUrl(receiver: Receiver): { path: string; url: string } {
  const path = receiver.newPath('action');
  return { path, url: `${receiver.urlOf(path)}?order=7` };
}

async function payOnPage(page: Page, selectors: BrowserSelectors, paid: { number: string; holder: string; expireMonth: string; expireYear: string }) {
  const method = page.locator(selectors.methodCard);
  if ((await method.count()) > 0) await method.first().check();
  await page.locator(selectors.cardNumber).fill(paid.number);
  await page.locator(selectors.cardHolder).fill(paid.holder);
  await page.locator(selectors.expireMonth).fill(paid.expireMonth);
  await page.locator(selectors.expireYear).fill(paid.expireYear);
  await page.locator(selectors.payButton).click();
}

/**
 * The control that offers to store the method: the profile's selector, else a checkbox or switch
 * whose accessible name speaks of saving, storing or remembering (in English, Portuguese or Spanish).
 */
function consentControl(page: Page, selectors: BrowserSelectors | undefined) {
  if (selectors) return page.locator(selectors.storeConsent);
  const name = /save|store|remember|keep|guardar|memorizar|recordar/i;
  return page.getByRole('checkbox', { name }).or(page.getByRole('switch', { name }));
}

test.describe('hosted pages', () => {
  for (const layout of ['web', 'basic', 'default'] as const) {
    test(`checkoutUrl of a ${layout} checkout opens a payment page`, { tag: tags('PAGE-1') }, async ({ run, api, browserPages }) => {
      const request = layout === 'default' ? sample(run, checkoutVariants.embedMobile) : withLayout(sample(run, checkoutVariants.atmPage), layout);
      const { checkout } = await createCheckout(api, request);
      const page = await browserPages.newPage();
      const response = await page.goto(checkout.checkoutUrl);
      api.expectNoProblems(
        checkPaymentPageOpens({
          url: checkout.checkoutUrl,
          status: response?.status() ?? null,
          formCount: await page.locator(run.profile.selectors?.paymentForm ?? 'form, input, button').count(),
          text: await page.locator('body').innerText(),
        }),
      );
    });
  }

  test('the embed script renders the payment form inside form.paymentWidgets of the merchant page', { tag: tags('PAGE-2') }, async ({ run, api, receiver, browserPages }) => {
    const { checkout } = await createCheckout(api, sample(run, checkoutVariants.embedWeb));
    const page = await browserPages.newPage();
    await page.goto(receiver.merchantPageUrl(checkout.checkoutUrl));
    const widgets = page.locator('form.paymentWidgets');
    const inside = widgets.locator(run.profile.selectors?.payButton ?? 'input, button, select');
    await inside.first().waitFor({ state: 'attached' }).catch(() => undefined);
    api.expectNoProblems(checkFormInsideWidgets({ scriptUrl: checkout.checkoutUrl, formCount: await inside.count(), html: await widgets.innerHTML() }));
  });

  test('paying in the browser sends it to the action URL with id, its own query kept, and nothing is posted there', { tag: tags('PAGE-3', 'PAGE-7') }, async ({ run, api, receiver, browserPages }) => {
    requires(run, 'selectors');
    const action = actionUrl(receiver);
    const { checkout } = await createCheckout(api, withAction(sample(run, checkoutVariants.embedWeb), action.url));
    const page = await browserPages.newPage();
    await page.goto(receiver.merchantPageUrl(checkout.checkoutUrl));
    await payOnPage(page, run.profile.selectors!, sample(run, card()));
    const landed = await receiver.waitFor((request) => request.path === action.path, run.profile.timeouts.eventMs);
    api.expectNoProblems([
      ...checkRedirect(landed ? receiver.urlOf(landed.url) : page.url(), { actionUrl: action.url, checkoutId: checkout.id, clause: 'PAGE-3' }),
      ...checkNothingPostedToAction(receiver.received(action.path), { browserVisited: true }),
    ]);
  });

  test('the redirect in a mobile webview goes to the deep link with id', { tag: tags('PAGE-4') }, async ({ run, api, browserPages }) => {
    requires(run, 'selectors');
    const deepLink = 'myshop://paid?order=7';
    const { checkout } = await createCheckout(api, withAction(sample(run, checkoutVariants.embedMobile), deepLink));
    const page = await browserPages.newPage({ ...devices['Pixel 7'] });
    const toDeepLink = new Promise<string>((resolve) => {
      const take = (url: string | undefined) => url?.startsWith('myshop:') && resolve(url);
      page.on('response', (response: Response) => take(response.headers().location));
      page.on('request', (request: Request) => take(request.url()));
      page.on('framenavigated', (frame) => take(frame.url()));
    });
    await page.goto(checkout.checkoutUrl);
    await payOnPage(page, run.profile.selectors!, sample(run, card()));
    const timedOut = new Promise<null>((resolve) => setTimeout(() => resolve(null), run.profile.timeouts.eventMs));
    const reached = await Promise.race([toDeepLink, timedOut]);
    api.expectNoProblems(checkRedirect(reached, { actionUrl: deepLink, checkoutId: checkout.id, clause: 'PAGE-4' }));
  });

  test('the ATM payment page shows the entity and the 9-digit reference', { tag: tags('PAGE-5') }, async ({ run, api, browserPages }) => {
    const { checkout } = await createCheckout(api, sample(run, checkoutVariants.atmPage));
    const page = await browserPages.newPage();
    await page.goto(checkout.checkoutUrl);
    const text = await page.locator('body').innerText();
    const textAt = async (selector: string | undefined) => (selector ? ((await page.locator(selector).first().textContent({ timeout: run.profile.timeouts.eventMs }).catch(() => null)) ?? '') : text);
    const probe = { url: checkout.checkoutUrl, text, referenceText: await textAt(run.profile.selectors?.atmReference), entityText: await textAt(run.profile.selectors?.atmEntity) };
    // A stateless mock's payment query answers its example, not this checkout's payment.
    const apiReference = run.profile.capabilities.stateful ? paymentOf(await getPayment(api, checkout.paymentId))?.referenceDetails?.reference : undefined;
    api.expectNoProblems(checkAtmPageReference(probe, { paymentId: checkout.paymentId, apiReference }));
  });

  test('the option to store the method is offered with allowRegistration, and only then', { tag: tags('PAGE-6') }, async ({ run, api, browserPages }) => {
    const offering = sample(run, checkoutVariants.storeWithConsent);
    const { details: _consent, ...method } = offering.payment!.paymentMethod!;
    const notOffering = { ...offering, payment: { ...offering.payment, paymentMethod: method } };
    const problems: Problem[] = [];
    for (const [request, allowRegistration] of [[offering, true], [notOffering, false]] as const) {
      const { checkout } = await createCheckout(api, request);
      const page = await browserPages.newPage();
      await page.goto(checkout.checkoutUrl, { waitUntil: 'load' });
      const consentOffered = (await consentControl(page, run.profile.selectors).count()) > 0;
      problems.push(...checkConsentOffer({ url: checkout.checkoutUrl, consentOffered }, { allowRegistration }));
    }
    api.expectNoProblems(problems);
  });

  test('the hosted page shows the amount in major units', { tag: tags('CHK-8') }, async ({ run, api, browserPages }) => {
    const request = sample(run, checkoutVariants.storeWithConsent);
    const amount = 123456;
    const { checkout } = await createCheckout(api, { ...request, payment: { ...request.payment, amount } });
    const page = await browserPages.newPage();
    await page.goto(checkout.checkoutUrl);
    const selector = run.profile.selectors?.amount ?? 'body';
    const shown = (await page.locator(selector).first().textContent()) ?? '';
    api.expectNoProblems(checkAmountShown(shown, { amount, where: `${checkout.checkoutUrl} ${selector}` }));
  });
});

test.describe('redirects through the pay helper', () => {
  test("the pay helper's redirectUrl is the action URL with id, its own query kept", { tag: tags('PAGE-3') }, async ({ run, api, helpers, receiver }) => {
    const action = actionUrl(receiver);
    const { checkout } = await createCheckout(api, withAction(sample(run, checkoutVariants.embedWeb), action.url));
    const paid = await mustSucceed(api, helpers.pay(checkout.id, { outcome: 'success', method: 'CC', card: sample(run, card()) }));
    api.expectNoProblems(checkRedirect((paid.response.body as { redirectUrl?: string })?.redirectUrl, { actionUrl: action.url, checkoutId: checkout.id, clause: 'PAGE-3' }));
  });

  test("the pay helper's redirectUrl for a mobile checkout is the deep link with id", { tag: tags('PAGE-4') }, async ({ run, api, helpers }) => {
    const deepLink = 'myshop://paid?order=7';
    const { checkout } = await createCheckout(api, withAction(sample(run, checkoutVariants.embedMobile), deepLink));
    const paid = await mustSucceed(api, helpers.pay(checkout.id, { outcome: 'success', method: 'CC', card: sample(run, card()) }));
    api.expectNoProblems(checkRedirect((paid.response.body as { redirectUrl?: string })?.redirectUrl, { actionUrl: deepLink, checkoutId: checkout.id, clause: 'PAGE-4' }));
  });

  test('the service posts nothing to the action URL: the redirect is the browser\'s', { tag: tags('PAGE-7') }, async ({ run, api, helpers, receiver }) => {
    const action = actionUrl(receiver);
    const { checkout } = await createCheckout(api, withAction(sample(run, checkoutVariants.embedWeb), action.url));
    await mustSucceed(api, helpers.pay(checkout.id, { outcome: 'success', method: 'CC', card: sample(run, card()) }));
    await receiver.waitFor((request) => request.path === action.path, quietMs(run));
    const received = receiver.received(action.path);
    for (const request of received) api.note({ request, response: null, note: 'received at the action URL with no browser involved' });
    api.expectNoProblems(checkNothingPostedToAction(received, { browserVisited: false }));
  });
});
