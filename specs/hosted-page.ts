/**
 * The hosted pages as the profile's selectors find them (profiles/profile.schema.json): a field on
 * the page or inside a frame (hosted card fields, as payment providers build them for PCI), each
 * role optional. A test that needs a role the profile lacks is skipped with the reason.
 */
import type { Locator, Page } from '@playwright/test';
import type { BrowserSelectors, Selector } from '../schemas/generated/profile.ts';
import { needs } from '../src/needs.ts';
import type { RunConfig } from '../src/run-config.ts';
import { test } from './fixtures.ts';

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

/** Waits (up to requestMs) for what a page may render by script after it loaded; absent is an answer too. */
export async function rendered(run: RunConfig, locator: Locator): Promise<void> {
  await locator.first().waitFor({ state: 'attached', timeout: run.profile.timeouts.requestMs }).catch(() => undefined);
}

/**
 * Pays with a card on the hosted page: the card chosen where the page offers a choice, its fields
 * filled (on the page or in their frame), the pay button pressed.
 */
export async function payByCard(run: RunConfig, page: Page, paid: { number: string; holder: string; expireMonth: string; expireYear: string }): Promise<void> {
  const fields = (['cardNumber', 'cardHolder', 'expireMonth', 'expireYear', 'payButton'] as const).map((role) => requiredRole(run, page, role));
  const [number, holder, month, year, pay] = fields;
  await rendered(run, number);
  const method = optionalRole(run, page, 'methodCard');
  if (method && (await method.count()) > 0) await method.first().check();
  await number.fill(paid.number);
  await holder.fill(paid.holder);
  await month.fill(paid.expireMonth);
  await year.fill(paid.expireYear);
  await pay.click();
}

/**
 * The control that offers to store the method: the profile's selector, else a checkbox or switch
 * whose accessible name speaks of saving, storing or remembering (in English, Portuguese or Spanish).
 */
export function consentControl(run: RunConfig, page: Page): Locator {
  const name = /save|store|remember|keep|guardar|memorizar|recordar/i;
  return optionalRole(run, page, 'storeConsent') ?? page.getByRole('checkbox', { name }).or(page.getByRole('switch', { name }));
}
