/**
 * The hosted pages as the profile's selectors find them (profiles/profile.schema.json): a field on
 * the page or inside a frame (hosted card fields, as payment providers build them for PCI), each
 * role optional. A test that needs a role the profile lacks is skipped with the reason.
 */
import type { Locator, Page } from '@playwright/test';
import type { BrowserSelectors, Selector } from '../../schemas/generated/profile.ts';
import type { Card } from '../../schemas/generated/types.ts';
import { needs } from '../core/needs.ts';
import type { PaidWith } from '../checks/index.ts';
import type { RunConfig } from '../core/run-config.ts';
import { test, type BrowserPages } from './fixtures.ts';

type Role = keyof BrowserSelectors;

function locate(page: Page, selector: Selector): Locator {
  return typeof selector === 'string' ? page.locator(selector) : page.locator(selector.frame).contentFrame().locator(selector.field);
}

/** The role's element, or null where the profile gives no selector for it. */
export function optionalRole(run: RunConfig, page: Page, role: Role): Locator | null {
  const selector = run.profile.selectors?.[role];
  return selector ? locate(page, selector) : null;
}

/** The role's element; the test is skipped where the profile gives no selector for it. */
export function requiredRole(run: RunConfig, page: Page, role: Role): Locator {
  const found = optionalRole(run, page, role);
  test.skip(!found, `${needs.selectors.reason} ${role}`);
  return found!;
}

/**
 * Where the page offers a way to pay: the profile's paymentForm, else the fields a customer fills
 * (not hidden inputs, not buttons: a "not found" page has a button back to the shop too) and frames
 * (hosted card fields).
 */
export function paymentForm(run: RunConfig, page: Page): Locator {
  const fillable = 'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]), select, textarea, iframe';
  return optionalRole(run, page, 'paymentForm') ?? page.locator(fillable);
}

/** Waits (up to requestMs) for what a page may render by script after it loaded; absent is an answer too. */
export async function rendered(run: RunConfig, locator: Locator): Promise<void> {
  await locator
    .first()
    .waitFor({ state: 'attached', timeout: run.profile.timeouts.requestMs })
    .catch(() => undefined);
}

/**
 * Pays on the hosted page as a customer would: the method chosen where the page offers a choice,
 * its fields filled (on the page or in their frame), the option to store the method set where
 * asked, the pay button pressed.
 */
export async function payOnPage(
  run: RunConfig,
  page: Page,
  paid: PaidWith,
  options: { storeConsent?: boolean; whereOffered?: boolean } = {},
): Promise<{ consentOffered: boolean }> {
  const fields: [Role, string][] =
    paid.method === 'CC'
      ? [
          ['cardNumber', paid.card.number],
          ['cardHolder', paid.card.holder],
          ['expireMonth', paid.card.expireMonth],
          ['expireYear', paid.card.expireYear],
        ]
      : [
          ['walletCountryCode', paid.wallet.countryCode],
          ['walletNumber', paid.wallet.number],
        ];
  const located = fields.map(([role, value]) => [requiredRole(run, page, role), value] as const);
  const pay = requiredRole(run, page, 'payButton');
  await rendered(run, pay);
  const chooser = optionalRole(run, page, paid.method === 'CC' ? 'methodCard' : 'methodWallet');
  if (chooser && (await chooser.count()) > 0) await chooser.first().check();
  for (const [field, value] of located) await field.fill(value);
  let consentOffered = false;
  if (options.storeConsent !== undefined) {
    const consent = consentControl(run, page);
    consentOffered = (await consent.count()) > 0;
    test.skip(!consentOffered && !options.whereOffered, 'the hosted page offers no option to store the method (PAGE-6 judges that)');
    if (consentOffered) await consent.first().setChecked(options.storeConsent);
  }
  await pay.click();
  return { consentOffered };
}

/**
 * Opens checkoutUrl in a page of its own and pays there (see payOnPage), then waits (up to
 * requestMs) for the page the payment leads to; the page's context is closed after.
 */
export async function payOnNewPage(
  run: RunConfig,
  browserPages: BrowserPages,
  checkoutUrl: string,
  paid: PaidWith,
  options: { storeConsent?: boolean; whereOffered?: boolean } = {},
): Promise<{ consentOffered: boolean }> {
  const page = await browserPages.newPage();
  try {
    await page.goto(checkoutUrl);
    const loaded = page.waitForEvent('load', { timeout: run.profile.timeouts.requestMs }).catch(() => undefined);
    const answer = await payOnPage(run, page, paid, options);
    await loaded;
    return answer;
  } finally {
    await page.context().close();
  }
}

/** Pays with a card on the hosted page (see payOnPage). */
export const payByCard = (run: RunConfig, page: Page, card: Card) => payOnPage(run, page, { method: 'CC', card });

/**
 * The control that offers to store the method: the profile's selector, else a checkbox or switch
 * whose accessible name speaks of saving, storing or remembering (in English, Portuguese or Spanish).
 */
export function consentControl(run: RunConfig, page: Page): Locator {
  const name = /save|store|remember|keep|guardar|memorizar|recordar/i;
  return optionalRole(run, page, 'storeConsent') ?? page.getByRole('checkbox', { name }).or(page.getByRole('switch', { name }));
}
