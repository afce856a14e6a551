/**
 * The contract between the command line (src/runner/) and the specs (specs/): the runner resolves
 * options, profile and target into one RunConfig, writes it as JSON into the run's folder and
 * names that file in the environment variable below; the specs' fixtures read it.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export const runConfigEnv = 'CHECKOUT_CONFORMANCE_CONFIG';

export type { BrowserSelectors, Capabilities, Profile } from '../../schemas/generated/profile.ts';
import type { Profile } from '../../schemas/generated/profile.ts';
import type { Transport } from './transport-options.ts';

export interface RunConfig {
  baseUrl: string;
  targetKind: 'sandbox' | 'prism' | 'url';
  profile: Profile;
  /** Profile headers merged with --header ones; never written to a report. */
  headers: Record<string, string>;
  seed: number;
  /** fast-check runs per property. */
  runs: number;
  /** Command sequences of the model of the whole service (specs/model.spec.ts); absent: its default. */
  modelRuns?: number;
  /** --replay-path: the one case of a failing property to run, as its report's replay gives it (replayOf, src/harness/property.ts). */
  replayPath?: string;
  strict: boolean;
  allowWrites: boolean;
  /** Host the suite's notification receiver listens on. */
  callbackHost: string;
  /** Address the target must call to reach that receiver, when it is not the receiver's own. */
  publicCallbackUrl: string | null;
  outDir: string;
  /** How every request reaches the target (src/core/transport.ts); absent: directly, verified by the system's CAs. */
  transport?: Transport;
  /** The public keys of the target's certificates that the preflight verified through the transport, for the browser. */
  verifiedServerKeys?: string[];
  /**
   * Chromium to launch (where it was found, its --version), or null with the reason the browser
   * checks are skipped. wsEndpoint: one already running (a Playwright browser server) that every
   * worker connects to instead.
   */
  chromium: { executablePath: string; source: BrowserSource; version: string; wsEndpoint?: string } | { executablePath: null; reason: string };
}

/** Where the Chromium came from: CHROMIUM_PATH, Playwright's own, the system's, npm's (src/core/chromium.ts). */
export type BrowserSource = 'env' | 'playwright' | 'system' | 'npm';

/** The run config in `path`, by default the file the environment variable names. */
export function readRunConfig(path = process.env[runConfigEnv]): RunConfig {
  if (!path) throw new Error(`${runConfigEnv} is not set: run the specs through "checkout-conformance run"`);
  return JSON.parse(readFileSync(path, 'utf8')) as RunConfig;
}

/**
 * What the runner knows before the target answers: enough for Playwright's config and reporter (the
 * run's folder, its profile's timeouts and secrets). Playwright starts on it, written where the run
 * config goes, while the target starts and the preflight runs; the run config then replaces it.
 */
export type RunPlan = Pick<RunConfig, 'outDir' | 'profile' | 'headers'> & { plan: true };

/** The run config in `path`, or the plan still in its place. */
export const readRunPlan = (path = process.env[runConfigEnv]): RunPlan | RunConfig => readRunConfig(path);

/** The run config in `path`, once it replaced the plan there (a worker waits for the target to answer). */
export async function runConfigWritten(path = process.env[runConfigEnv]): Promise<RunConfig> {
  for (;;) {
    const read = readRunPlan(path);
    if (!('plan' in read)) return read;
    await sleep(planPollMs);
  }
}
const planPollMs = 10;

/** Writes `value` to `path` whole: a reader sees the file before or after, never half of it. */
export function writeWhole(path: string, value: RunConfig | RunPlan): void {
  writeFileSync(`${path}.next`, JSON.stringify(value), { mode: 0o600 });
  renameSync(`${path}.next`, path);
}

/** fast-check cases per property, unless --runs says otherwise. */
export const defaultRuns = 100;
