/**
 * A candidate as a target: its in-memory sandbox behind the transforming proxy, with its run config;
 * the Playwright runs of the catalogue's config over such targets, and the one Chromium they share.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserServer } from '@playwright/test';
import type { RunConfig } from '../src/core/run-config.ts';
import { chromiumArgs } from '../src/core/chromium.ts';
import { playwright, stopGraceMs } from '../src/runner/playwright.ts';
import type { watchInterruption } from '../src/runner/run.ts';
import { startSandbox, type Sandbox } from '../src/sandbox/index.ts';
import { targetsEnv, type TargetEntry } from '../src/harness/targets.ts';
import { startProxy, type RunningProxy, type Transform } from './proxy.ts';

export const catalogueConfig = fileURLToPath(new URL('playwright.config.ts', import.meta.url));
/** Workers of the Playwright run beside the catalogue's (the candidates reach does not choose tests for): half of the catalogue's. */
export const besideWorkers = 2 * availableParallelism();
/**
 * The credentials every candidate is called with, as a partner's run would carry them: the sandbox
 * ignores them, and a variant that refuses calls without them (SEC-1) gets them.
 */
export const catalogueHeaders = { authorization: `Basic ${Buffer.from('catalogue:sandbox-private-key').toString('base64')}` };
// Within the 65 minutes test/catalogue/mutant-catalogue.test.ts allows, so that a run this slow still ends with the matrix.
export const catalogueTimeoutMs = 60 * 60_000;

/** A target, running: its sandbox, the proxy in front of it, and its run config. */
export interface Target {
  sandbox: Sandbox;
  proxy: RunningProxy;
  run: RunConfig;
  runConfigFile: string;
}

export type SharedRunConfig = Omit<RunConfig, 'baseUrl' | 'runs' | 'outDir' | 'seed'>;

export async function startTarget(
  name: string,
  transform: Transform,
  draws: { seed: number; runs: number },
  shared: SharedRunConfig,
  configDir: string,
): Promise<Target> {
  const sandbox = await startSandbox({ port: 0, db: ':memory:', retryDelaysMs: [200, 200] });
  const proxy = await startProxy({ upstream: sandbox, transform }).catch(async (error: unknown) => {
    await sandbox.close();
    throw error;
  });
  const run: RunConfig = { ...shared, baseUrl: proxy.url, ...draws, outDir: mkdtempSync(join(tmpdir(), `mutant-${name}-`)) };
  const runConfigFile = join(configDir, `${name}.json`);
  writeFileSync(runConfigFile, JSON.stringify(run));
  return { sandbox, proxy, run, runConfigFile };
}

export async function stopTarget({ proxy, sandbox }: Target): Promise<void> {
  await proxy.close();
  await sandbox.close();
}

/** One Playwright run of the catalogue's config over these targets (with its own number of workers, where given). */
export async function runTargets(
  entries: TargetEntry[],
  configDir: string,
  interruption: ReturnType<typeof watchInterruption>,
  workers?: number,
): Promise<void> {
  if (interruption.reason() || entries.length === 0) return;
  const targetsFile = join(configDir, `targets-${randomUUID()}.json`);
  writeFileSync(targetsFile, JSON.stringify(entries));
  // Playwright's console reporter would print every expected failure of every mutant: the matrix says what matters.
  const args = ['test', '--config', catalogueConfig, '--global-timeout', String(catalogueTimeoutMs), ...(workers ? ['--workers', String(workers)] : [])];
  await playwright(args, { ...process.env, [targetsEnv]: targetsFile }, catalogueTimeoutMs + stopGraceMs, 'ignore');
}

/**
 * The Chromium every worker connects to. Chromium 156 gives every window (here, every page) two
 * omnibox-popup WebUI renderers, which cost more CPU than the pages themselves (measured: a third
 * of a benign variant's CPU). Disabling them takes a --disable-features, and Chromium keeps only the
 * last one: Playwright's own list is read from a first launch and extended.
 */
export async function startSharedChromium(executablePath: string): Promise<BrowserServer> {
  // --enable-automation: without it, Chromium does not tell its command line.
  const probe = await chromium.launch({ executablePath, args: [...chromiumArgs, '--enable-automation'], headless: true });
  const session = await probe.newBrowserCDPSession();
  const { arguments: commandLine } = await session.send('Browser.getBrowserCommandLine');
  await probe.close();
  const playwrightsFeatures = commandLine.filter((arg) => arg.startsWith('--disable-features='));
  const features = [...playwrightsFeatures.map((arg) => arg.slice('--disable-features='.length)), 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];
  return chromium.launchServer({
    executablePath,
    args: [...chromiumArgs, `--disable-features=${features.join(',')}`],
    ignoreDefaultArgs: playwrightsFeatures,
    headless: true,
    // Not Playwright's signal handlers: they would end this process before the reports are written.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
