/**
 * The model of the whole service (model.spec.ts) with customers paying on the hosted page as well as
 * through the pay helper: what a page payment stores, or must not, among the other operations. A
 * page payment costs Chromium's CPU, so one directed sequence (every class of a page payment, on
 * every run) and a random one, in the browser's workers.
 */
import { checkoutVariants } from '../generators/index.ts';
import { CreateCheckout, ListMethods, PayOnPage, type Command } from '../src/model/index.ts';
import { needs } from '../src/core/needs.ts';
import type { RunConfig } from '../src/core/run-config.ts';
import { helpersUsable, requires, tags, test } from './fixtures.ts';
import { sample } from './flows.ts';
import { modelTimeoutMs, runModel } from './model-run.ts';

/** Random sequences of this spec, whatever --model-runs says (that sets the helper model's): each page payment takes about a second. */
const pageModelRuns = 1;
const pageRoles = ['cardNumber', 'cardHolder', 'expireMonth', 'expireYear', 'walletCountryCode', 'walletNumber', 'payButton'] as const;

/**
 * Each class of a page payment once, for the two customers a sequence starts with: consent declined
 * and given (TOK-2), createRegistration with a card and a wallet (TOK-1), no registration (TOK-4),
 * then both lists, each of which must hold only its own customer's methods (TOK-6).
 */
function everyPageClass(run: RunConfig): Command[] {
  const consenting = () => sample(run, checkoutVariants.storeWithConsent);
  const storing = () => sample(run, checkoutVariants.storeMethod);
  return [
    new CreateCheckout('storeWithConsent', consenting(), 'CC', 0),
    new PayOnPage(0, false),
    new CreateCheckout('storeWithConsent', consenting(), 'CC', 1),
    new PayOnPage(0, true),
    new CreateCheckout('storeMethod', storing(), 'CC', 0),
    new PayOnPage(0, false),
    new CreateCheckout('storeMethod', storing(), 'MW', 1),
    new PayOnPage(0, true),
    new CreateCheckout('withoutRegistration', consenting(), 'CC', 0),
    new PayOnPage(0, true),
    new ListMethods(0),
    new ListMethods(1),
  ];
}

test.describe('a model of the whole service, paying on the hosted page', () => {
  test(
    'sequences of every operation, customers paying on the hosted page too, judged step by step against the model',
    { tag: tags('TOK-1', 'TOK-2', 'TOK-4', 'TOK-6') },
    async ({ run, api, receiver, property, browserPages }) => {
      requires(run, 'hostedPages');
      const missing = pageRoles.filter((role) => !run.profile.selectors?.[role]);
      test.skip(missing.length > 0, `${needs.selectors.reason} ${missing.join(', ')}`);
      test.setTimeout(modelTimeoutMs(pageModelRuns + 1));
      await runModel(run, api, receiver, property, { helpers: helpersUsable(run), browserPages, runs: pageModelRuns, directed: [everyPageClass(run)] });
    },
  );
});
