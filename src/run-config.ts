/**
 * The contract between the command line (src/runner/) and the specs (specs/): the runner resolves
 * options, profile and target into one RunConfig, writes it as JSON into the run's folder and
 * names that file in the environment variable below; the specs' fixtures read it.
 */
import { readFileSync } from 'node:fs';

export const runConfigEnv = 'CHECKOUT_CONFORMANCE_CONFIG';

/** Where the hosted pages keep their fields and buttons: CSS selectors, by role. */
export interface BrowserSelectors {
  paymentForm: string;
  methodCard: string;
  methodWallet: string;
  cardNumber: string;
  cardHolder: string;
  expireMonth: string;
  expireYear: string;
  walletCountryCode: string;
  walletNumber: string;
  storeConsent: string;
  payButton: string;
  amount: string;
  atmEntity: string;
  atmReference: string;
}

export interface Capabilities {
  /** The four test-helper endpoints of shared/contracts/test-helpers.md. */
  testHelpers: boolean;
  /** Hosted pages that a browser can open (false for a stateless mock). */
  hostedPages: boolean;
  /** The target keeps state between requests (false for a stateless mock such as Prism). */
  stateful: boolean;
  /** The target validates requests and refuses bad ones (a mock may only check the schema). */
  refusesBrokenRules: boolean;
}

export interface Profile {
  name: string;
  /** A live target: no state-changing request unless writes are allowed. */
  live: boolean;
  headers: Record<string, string>;
  capabilities: Capabilities;
  /** Present where the suite can pay on the hosted pages in a browser. */
  selectors?: BrowserSelectors;
  timeouts: {
    /** One HTTP request. */
    requestMs: number;
    /** Waiting for a notification or a redirect. */
    eventMs: number;
  };
  /** Secret of the notification signature, where the target signs (observed, INFO). */
  notificationSecret?: string;
}

export interface RunConfig {
  baseUrl: string;
  targetKind: 'sandbox' | 'prism' | 'url';
  profile: Profile;
  /** Profile headers merged with --header ones; never written to a report. */
  headers: Record<string, string>;
  seed: number;
  /** fast-check runs per property. */
  runs: number;
  strict: boolean;
  allowWrites: boolean;
  /** Host the suite's notification receiver listens on. */
  callbackHost: string;
  /** Address the target must call to reach that receiver, when it is not the receiver's own. */
  publicCallbackUrl: string | null;
  outDir: string;
  /** Chromium to launch, or null with the reason the browser checks are skipped. */
  chromium: { executablePath: string } | { executablePath: null; reason: string };
}

export function readRunConfig(): RunConfig {
  const path = process.env[runConfigEnv];
  if (!path) throw new Error(`${runConfigEnv} is not set: run the specs through "checkout-conformance run"`);
  return JSON.parse(readFileSync(path, 'utf8')) as RunConfig;
}
