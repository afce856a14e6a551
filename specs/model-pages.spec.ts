/**
 * The model of the whole service (model.spec.ts) with customers paying on the hosted page as well as
 * through the pay helper: what a page payment stores, or must not, among the other operations. A
 * page payment costs Chromium's CPU, so one directed sequence (every class of a page payment, on
 * every run) and a random one, in the browser's workers.
 */
import { directedCommands, pagePaymentClauses, pageSequence } from '../src/model/index.ts';
import { needs } from '../src/core/needs.ts';
import { helpersUsable, paysInBrowser, requires, tags, test } from '../src/harness/fixtures.ts';
import { modelTimeoutMs, runModel } from '../src/harness/model-run.ts';

/** Random sequences of this spec, whatever --model-runs says (that sets the helper model's): each page payment takes about a second. */
const pageModelRuns = 1;
const pageRoles = ['cardNumber', 'cardHolder', 'expireMonth', 'expireYear', 'walletCountryCode', 'walletNumber', 'payButton'] as const;

test.describe('a model of the whole service, paying on the hosted page', { tag: paysInBrowser }, () => {
  test(
    'sequences of every operation, customers paying on the hosted page too, judged step by step against the model',
    { tag: tags(...pagePaymentClauses) },
    async ({ run, api, receiver, property, browserPages, observe }) => {
      requires(run, 'hostedPages');
      const missing = pageRoles.filter((role) => !run.profile.selectors?.[role]);
      test.skip(missing.length > 0, `${needs.selectors.reason} ${missing.join(', ')}`);
      test.setTimeout(modelTimeoutMs(pageModelRuns + 1));
      await runModel(run, api, receiver, property, observe, {
        helpers: helpersUsable(run),
        browserPages,
        runs: pageModelRuns,
        directed: directedCommands([pageSequence], run.seed),
      });
    },
  );
});
