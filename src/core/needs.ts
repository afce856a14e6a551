import { pathOf, titleOf } from './operations.ts';

/**
 * What a check may need of the target or the run, why it is skipped without it, and what would let
 * the suite verify it: the specs skip with these reasons, the report names the remedy of each.
 */
export const needs = {
  testHelpers: {
    reason: 'target has no test helpers',
    remedy:
      'the four test helpers of docs/contracts/test-helpers.md (in the checkout-conformance package) on the target (found by the preflight, or capabilities.testHelpers true in the profile)',
  },
  stateful: {
    reason: 'stateless mock: responses do not depend on the request',
    remedy: 'a stateful target (a sandbox or the service itself) instead of a mock',
  },
  refusesBrokenRules: {
    reason: 'target does not refuse requests that break a rule (profile: refusesBrokenRules false)',
    remedy: 'a target that validates requests (capabilities.refusesBrokenRules true in the profile)',
  },
  hostedPages: {
    reason: 'target has no hosted pages a browser can open',
    remedy: 'a target whose checkoutUrl opens a page (capabilities.hostedPages in the profile)',
  },
  selectors: {
    reason: 'profile gives no hosted-page selector for',
    remedy: 'the selector of that role of the hosted pages in the profile (selectors), or the test helpers',
  },
  interbank: {
    reason: 'target has no test helpers: only the interbank network confirms a reference, and the confirm helper stands in for it',
    remedy: `the test helpers (${titleOf('confirmPayment')}, PUT and DELETE ${pathOf('setWebhook')}) on a sandbox of the target`,
  },
  customers: {
    reason: 'target has no register-customer helper and the profile names too few customers',
    remedy: 'customers registered out of band, their UUIDs in the profile (customers), or the test helpers',
  },
  declinedPayment: {
    reason: 'target has no pay helper, and the profile names no card its issuer declines',
    remedy: 'the number of a test card the target declines in the profile (declinedCardNumber), or the test helpers',
  },
  writes: {
    reason: 'live target: writes not allowed without --allow-writes',
    remedy: '--allow-writes, on a target where writes are acceptable',
  },
  browser: {
    reason: 'no Chromium',
    remedy: 'a Chromium: npm install (it installs @sparticuz/chromium), or set CHROMIUM_PATH',
  },
  paymentId: {
    reason: 'target answered no payment id (REF-10)',
    remedy: `the payment id as data.id in the answer of ${titleOf('createReference')}`,
  },
} as const;

export type Need = keyof typeof needs;

/** Not a need a spec skips for up front: a refusal test finds it out with its first request (checks/refusal.ts). */
export const served = {
  reason: 'not verified: the target did not accept a valid request to this operation, so its refusals show nothing of the rule',
  remedy: "a target that accepts valid requests (check --base-url, and the credentials: --header or the profile's headers)",
};

/** Not a need either: a test helper that answers after the request time-out leaves its test's clauses unverified, not failed. */
export const slowHelper = {
  reason: 'not verified: a test helper gave no complete answer within the request time-out',
  remedy: "a longer request time-out, for a target that is only slow: the profile's timeouts.requestMs or --request-timeout-ms",
};

/** What would let the suite verify a clause skipped for this reason; null where it is not one of the needs. */
export function remedyFor(reason: string): string | null {
  // The longest reason that fits: one may start with another ("target has no test helpers: …").
  const fitting = [...Object.values(needs), served, slowHelper].filter((need) => reason.startsWith(need.reason));
  return fitting.sort((a, b) => b.reason.length - a.reason.length)[0]?.remedy ?? null;
}

/** What a status that every scenario stops on most likely means, for a user's first minute; null: nothing to say. */
export function statusHint(status: number): string | null {
  if (status === 401 || status === 403) return 'check the credentials: --header "Authorization: …" (or the profile\'s headers)';
  if (status === 404) return 'check --base-url';
  return null;
}
