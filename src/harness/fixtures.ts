/**
 * The specs' fixtures: the run's configuration, an API client that records every exchange, the
 * test-helper client, the suite's own HTTP receiver, fast-check properties and Chromium. A failing
 * test carries the exchanges it made as evidence; an INFO test carries them always.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// Playwright's root test type, without its page and context fixtures: the specs launch Chromium
// themselves (sharedChromium), and those fixtures' 29 options were set up and torn down around every
// test, each a step whose stack was captured (about 2 s of the embedded run's CPU).
import { _baseTest as base, chromium, expect, type Browser, type BrowserContextOptions, type Page, type TestInfo } from '@playwright/test';
import { attachmentNames, mask, type Observation, type PropertyRun } from '../core/evidence.ts';
import { readRunConfig, runConfigWritten, type RunConfig } from '../core/run-config.ts';
import type { Judgement } from '../checks/index.ts';
import { needs, type Need } from '../core/needs.ts';
import { chromiumArgs } from '../core/chromium.ts';
import { askedToWaitSoFar, browserContextTransport, chromiumTransportArgs, onAskedToWait, trustExtraCaInThisProcess } from '../core/transport.ts';
import { secretsOfRun } from '../core/profile.ts';
import { capped, createApi, type Api } from './api.ts';
import { helperClient, type TestHelpers } from './test-helpers.ts';
import { createPacer, defaultConcurrentRequests, type Pacer } from './pace.ts';
import { propertyRunner, type Property } from './property.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { writeDownNotification, writeDownReceiverClosed, writeDownReceiverOpened } from './ledger.ts';
import { onEveryTarget, readsBackTag, targetOf, targetsOfRun, testKeyHeader, readingBackHeader, testKeyOf, testRefOf, type TargetEntry } from './targets.ts';

export { lastsEventMs, paysInBrowser, waitsOutEventMs } from './pools.ts';

export { expect };
export type { Receiver, ReceivedRequest } from './receiver.ts';
export type { Api, SendOptions } from './api.ts';
export { helperClient, type TestHelpers } from './test-helpers.ts';
export { leftOut, type Property } from './property.ts';
export { exercises, tags } from './tags.ts';

// Playwright writes a failed test's page (field values included: a card number typed into the hosted
// page) into test-results/*/error-context.md, unmasked. The failure itself is enough.
process.env.PLAYWRIGHT_NO_COPY_PROMPT ??= '1';

type RunNeed = Exclude<Need, 'browser' | 'paymentId' | 'selectors' | 'customers' | 'declinedPayment' | 'interbank'>;

function lacks(run: RunConfig, need: RunNeed): boolean {
  switch (need) {
    case 'writes':
      return run.profile.live && !run.allowWrites;
    default:
      return !run.profile.capabilities[need];
  }
}

/** Test helpers the run may call: a live target's are state-changing requests like any other. */
export function helpersUsable(run: RunConfig): boolean {
  return !lacks(run, 'testHelpers') && !lacks(run, 'writes');
}

/** Skips the running test, with the reason, where the target lacks what it needs. */
export function requires(run: RunConfig, ...wanted: RunNeed[]): void {
  for (const need of wanted) if (lacks(run, need)) base.skip(true, needs[need].reason);
}

export interface Observer {
  /** Records what the target did where the reference says "not shown" (INFO). */
  record(note: string, value: unknown): Promise<void>;
  /** Runs an INFO test's body: an error is recorded as what was observed, never a failure. */
  safely(body: () => Promise<void>): Promise<void>;
}

/** Pages in the run's Chromium, each in a fresh context (a device's settings for mobile emulation). */
export interface BrowserPages {
  newPage(options?: BrowserContextOptions): Promise<Page>;
}

interface TestFixtures {
  api: Api;
  helpers: TestHelpers;
  /**
   * The test helpers where a test stands in for the interbank network (confirm, and the webhook it
   * notifies): without them no reference can be confirmed, since only that network confirms one.
   */
  interbank: TestHelpers;
  property: Property;
  observe: Observer;
  browserPages: BrowserPages;
  /** The target this test runs against, where the run has several (src/harness/targets.ts). */
  target: TargetEntry | null;
  run: RunConfig;
  /** The worker's receiver, each path it makes claimed for this test's target. */
  receiver: Receiver;
  stopAtProof: void;
  waitsAsAsked: void;
}

interface WorkerFixtures {
  /** What every target of the run shares (profile, receiver, Chromium): the run's config, or its first target's. */
  runOfWorker: RunConfig;
  /** Paces the worker's requests to the target: overlapping, bounded, capped (src/harness/pace.ts). */
  pacer: Pacer;
  /** The worker's receiver, which target's run made each of its paths, and the targets' folders whose ledgers say it listens. */
  receiverOfWorker: { receiver: Receiver; owners: Map<string, RunConfig>; listeningFor: Set<string> };
  sharedChromium: Browser | null;
}

const concurrentRequests = (run: RunConfig) => run.profile.requests?.concurrent ?? defaultConcurrentRequests;
/** A pacer of `shares` of the run's `workers` even shares of its requests. */
function pacerOf(run: RunConfig, shares: number, workers: number): Pacer {
  const perSecond = run.profile.requests?.perSecond;
  return createPacer({ maxConcurrent: concurrentRequests(run) * shares, perSecond: perSecond ? (perSecond * shares) / workers : null });
}

async function attachJson(testInfo: TestInfo, name: string, value: unknown, secrets: string[]) {
  await testInfo.attach(name, { body: JSON.stringify(mask(value, secrets), null, 2), contentType: 'application/json' });
}

const targets = targetsOfRun();
const runConfigs = new Map<string, RunConfig>();
const runConfigOf = (file: string) => runConfigs.get(file) ?? runConfigs.set(file, readRunConfig(file)).get(file)!;
/** Marks, in a target's folder, that one of its tests found a problem naming its stopOnceFailed clause (every worker sees it). */
const proofFile = (run: RunConfig) => join(run.outDir, 'proof-found');

const extended = base.extend<TestFixtures, WorkerFixtures>({
  runOfWorker: [async ({}, use) => use(targets ? runConfigOf(targets[0].runConfigFile) : await runConfigWritten()), { scope: 'worker' }],
  target: async ({}, use, testInfo) => use(targetOf(testInfo.annotations, targets)),
  run: async ({ runOfWorker, target }, use) => use(target ? runConfigOf(target.runConfigFile) : runOfWorker),
  stopAtProof: [
    async ({ target, run }, use) => {
      base.skip(Boolean(target?.stopOnceFailed) && existsSync(proofFile(run)), `${target?.stopOnceFailed} has already failed on this target: its proof is in`);
      await use();
    },
    { auto: true },
  ],

  // A wait the target asks for is not the test's time: its time-out grows by as long (a worker runs
  // one test at a time, so the process's waits during the test are its own), and the report says it waited.
  waitsAsAsked: [
    async ({}, use, testInfo) => {
      const before = askedToWaitSoFar();
      const stop = onAskedToWait((addedMs) => testInfo.timeout > 0 && testInfo.setTimeout(testInfo.timeout + addedMs));
      await use();
      stop();
      const after = askedToWaitSoFar();
      if (after.answers === before.answers) return;
      const askedToWait = { answers: after.answers - before.answers, waitedMs: after.waitedMs - before.waitedMs };
      await testInfo.attach(attachmentNames.askedToWait, { body: JSON.stringify(askedToWait), contentType: 'application/json' });
    },
    { auto: true },
  ],

  // The profile's rate cap is the whole run's: each worker takes an even share.
  pacer: [async ({ runOfWorker: run }, use, workerInfo) => use(pacerOf(run, 1, workerInfo.config.workers)), { scope: 'worker' }],

  // What comes to a path goes to the ledger of the target whose test made the path, for its final audit, and so do when the receiver starts and stops listening.
  receiverOfWorker: [
    async ({ runOfWorker: run }, use) => {
      const owners = new Map<string, RunConfig>();
      /** The folders of the targets whose ledgers say this receiver listens: each from its first path on. */
      const listeningFor = new Set<string>();
      const receiver = await startReceiver({
        host: run.callbackHost,
        publicUrl: run.publicCallbackUrl,
        onReceived(request) {
          const owner = owners.get(request.path);
          if (owner) writeDownNotification(owner.outDir, secretsOfRun(owner.headers, owner.profile), request);
        },
      });
      await use({ receiver, owners, listeningFor });
      for (const dir of listeningFor) writeDownReceiverClosed(dir, receiver.url);
      await receiver.close();
    },
    { scope: 'worker' },
  ],
  receiver: async ({ receiverOfWorker: { receiver, owners, listeningFor }, run }, use) => {
    await use({
      ...receiver,
      newPath(prefix, tail) {
        const path = receiver.newPath(prefix, tail);
        owners.set(path, run);
        if (!listeningFor.has(run.outDir)) {
          listeningFor.add(run.outDir);
          writeDownReceiverOpened(run.outDir, receiver.url);
        }
        return path;
      },
    });
  },

  api: async ({ run, pacer, target }, use, testInfo) => {
    const testKey = testKeyOf(testRefOf(testInfo.titlePath, targets !== null));
    const readsBack = testInfo.tags.includes(readsBackTag);
    // The final audit runs alone (specs/whole-run/audit.spec.ts): it takes every worker's share.
    const api = createApi(run, readsBack ? pacerOf(run, testInfo.config.workers, testInfo.config.workers) : pacer, {
      marks: target?.marksTests ? { [readsBack ? readingBackHeader : testKeyHeader]: encodeURIComponent(testKey) } : {},
      ledger: !readsBack,
      beforeWrite: () => requires(run, 'writes'),
      // Playwright starts a new worker after every unexpected failure, which costs seconds of CPU (a
      // target that refuses everything fails every test). Declared expected as it is judged, a
      // failure keeps the worker; the test's result, and so the report, is "failed" either way.
      beforeFailing: () => testInfo.fail(),
    });
    await use(api);
    if (target?.stopOnceFailed && api.problems.some((problem) => problem.clause === target.stopOnceFailed)) writeFileSync(proofFile(run), '');
    const secrets = secretsOfRun(run.headers, run.profile);
    const failed = testInfo.status !== 'passed' && testInfo.status !== 'skipped';
    const observing = testInfo.tags.includes('@INFO');
    if ((failed || observing) && api.evidence().length > 0) await attachJson(testInfo, attachmentNames.evidence, api.evidence(), secrets);
    const judgement: Judgement = { problems: api.problems, judged: api.judged() };
    await attachJson(testInfo, attachmentNames.judgement, judgement, secrets);
  },

  helpers: async ({ run, api }, use) => {
    requires(run, 'testHelpers');
    await use(helperClient(api));
  },

  interbank: async ({ run, api }, use) => {
    base.skip(!helpersUsable(run), needs.interbank.reason);
    await use(helperClient(api));
  },

  property: async ({ run, api, target }, use, testInfo) => {
    const attachRun = (propertyRun: PropertyRun) => attachJson(testInfo, attachmentNames.property, propertyRun, secretsOfRun(run.headers, run.profile));
    const settings = { seed: run.seed, runs: run.runs, concurrency: concurrentRequests(run), replayPath: run.replayPath, shrink: !target?.stopOnceFailed };
    await use(propertyRunner(settings, api, attachRun));
  },

  observe: async ({ run }, use, testInfo) => {
    const record = async (note: string, value: unknown) => {
      const cut = capped(value, 'the value');
      const observation: Observation = { note: cut.note ? `${note} (${cut.note})` : note, value: cut.value };
      await attachJson(testInfo, attachmentNames.observation, observation, secretsOfRun(run.headers, run.profile));
    };
    await use({
      record,
      async safely(body) {
        try {
          await body();
        } catch (error) {
          if (testInfo.expectedStatus === 'skipped') throw error;
          await record(`observation failed: ${(error as Error).message.split('\n')[0]}`, (error as Error).message);
        }
      },
    });
  },

  sharedChromium: [
    async ({ runOfWorker: run }, use, workerInfo) => {
      if (!run.chromium.executablePath) return use(null);
      const { executablePath, wsEndpoint } = run.chromium;
      if (wsEndpoint) {
        // One Chromium for every worker of the run (the mutant catalogue's): a connection, not a launch.
        const browser = await chromium.connect(wsEndpoint);
        await use(browser);
        return browser.close();
      }
      // A persistent context keeps Chromium's profile and cache inside the run's folder.
      const userDataDir = join(run.outDir, 'chromium', `worker-${workerInfo.workerIndex}`);
      mkdirSync(userDataDir, { recursive: true });
      trustExtraCaInThisProcess(run.transport);
      const args = [...chromiumArgs, ...chromiumTransportArgs(run.transport, run.verifiedServerKeys ?? [])];
      const context = await chromium.launchPersistentContext(userDataDir, { executablePath, args, headless: true });
      await use(context.browser());
      await context.close();
    },
    { scope: 'worker' },
  ],

  browserPages: async ({ run, sharedChromium, receiver }, use) => {
    const contexts: Awaited<ReturnType<Browser['newContext']>>[] = [];
    const transport = browserContextTransport(run.transport, run.baseUrl, [new URL(receiver.url).host]);
    await use({
      // Skips on the first page, not before: a test may pay through the helper instead of a page.
      async newPage(options) {
        base.skip(!sharedChromium, `${needs.browser.reason}: ${'reason' in run.chromium ? run.chromium.reason : 'it did not start'}`);
        requires(run, 'hostedPages');
        const context = await sharedChromium!.newContext({ ...transport, ...options });
        context.setDefaultTimeout(run.profile.timeouts.requestMs);
        contexts.push(context);
        return context.newPage();
      },
    });
    for (const context of contexts) await context.close();
  },
});

/** The specs' test type: with several targets (the mutant catalogue), each top-level test and describe once per target. */
export const test = onEveryTarget(extended, targets);
