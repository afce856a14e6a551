/**
 * Finds a Chromium for the browser checks, in this order: CHROMIUM_PATH; Playwright's own
 * (`npx playwright install`); a system Chromium or Chrome; the headless Chromium that npm installs
 * with this package (@sparticuz/chromium, an optional dependency). CHECKOUT_CONFORMANCE_BROWSER
 * names one of these sources (env, playwright, system, npm) to hide the others.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { BrowserSource, RunConfig } from './run-config.ts';

export const browserSources: readonly BrowserSource[] = ['env', 'playwright', 'system', 'npm'];
export const browserSourceEnv = 'CHECKOUT_CONFORMANCE_BROWSER';
export const howToGetChromium = 'no Chromium found: run npm install (it installs a headless Chromium, @sparticuz/chromium), or set CHROMIUM_PATH';
/** How the browser checks start Chromium. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

const systemChromiums = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];
const npmChromium = '@sparticuz/chromium';

type Found = { executablePath: string; source: BrowserSource } | { executablePath: null; reason: string };

/**
 * Whether Playwright may have browsers of its own (`npx playwright install`): where its documentation
 * says it keeps them, PLAYWRIGHT_BROWSERS_PATH, else an ms-playwright folder in the user's cache.
 * Only then is Playwright asked: loading it takes about 0.3 s of CPU, as the run starts.
 */
export function mayHavePlaywrightsBrowsers(env: NodeJS.ProcessEnv, home = homedir()): boolean {
  if (env.PLAYWRIGHT_BROWSERS_PATH) return true;
  const caches = [env.XDG_CACHE_HOME, join(home, '.cache'), join(home, 'Library', 'Caches'), env.LOCALAPPDATA];
  return caches.some((cache) => cache !== undefined && existsSync(join(cache, 'ms-playwright')));
}

async function playwrightsChromium(env: NodeJS.ProcessEnv): Promise<string | null> {
  if (!mayHavePlaywrightsBrowsers(env)) return null;
  const { chromium } = await import('@playwright/test');
  const path = chromium.executablePath();
  return path && existsSync(path) ? path : null;
}

/**
 * The npm-installed Chromium, unpacked once per version into its own folder under the system's
 * temporary folder. @sparticuz/chromium unpacks into os.tmpdir(): a child process with TMPDIR set
 * to a fresh folder does it there, and the folder is renamed into place whole, so that two runs
 * starting at once never see a half-written binary.
 */
async function npmsChromium(): Promise<string | null> {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(npmChromium);
  } catch {
    return null;
  }
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  const home = join(tmpdir(), `checkout-conformance-chromium-${version}`);
  const executable = join(home, 'chromium');
  if (existsSync(executable)) return executable;
  const unpacking = mkdtempSync(`${home}-unpacking-`);
  try {
    const script = `import(${JSON.stringify(pathToFileURL(entry).href)}).then((module) => module.default.executablePath())`;
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TMPDIR: unpacking }, timeout: 120_000 });
    try {
      renameSync(unpacking, home);
    } catch (error) {
      if (!existsSync(executable)) throw error;
    }
  } finally {
    rmSync(unpacking, { recursive: true, force: true });
  }
  return executable;
}

async function fromSource(source: BrowserSource, env: NodeJS.ProcessEnv): Promise<Found | null> {
  switch (source) {
    case 'env': {
      const path = env.CHROMIUM_PATH;
      if (!path) return null;
      return existsSync(path) ? { executablePath: path, source } : { executablePath: null, reason: `CHROMIUM_PATH ${path} does not exist` };
    }
    case 'playwright': {
      const path = await playwrightsChromium(env);
      return path ? { executablePath: path, source } : null;
    }
    case 'system': {
      const path = systemChromiums.find((candidate) => existsSync(candidate));
      return path ? { executablePath: path, source } : null;
    }
    case 'npm': {
      const path = await npmsChromium().catch((error: Error) => {
        throw new Error(`the npm Chromium (${npmChromium}) did not unpack: ${error.message.split('\n')[0]}`);
      });
      return path ? { executablePath: path, source } : null;
    }
  }
}

/** "Chromium 153.0.8010.0", as the binary prints it; null where it does not run. */
async function versionOf(executablePath: string): Promise<string | null> {
  try {
    const { stdout } = await promisify(execFile)(executablePath, ['--version'], { timeout: 15_000 });
    return stdout.trim().split('\n')[0] || null;
  } catch {
    return null;
  }
}

export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<RunConfig['chromium']> {
  const only = env[browserSourceEnv] || undefined;
  if (only !== undefined && !browserSources.includes(only as BrowserSource)) {
    return { executablePath: null, reason: `${browserSourceEnv}=${only} names no browser source (${browserSources.join(', ')})` };
  }
  for (const source of only ? [only as BrowserSource] : browserSources) {
    let found: Found | null;
    try {
      found = await fromSource(source, env);
    } catch (error) {
      found = { executablePath: null, reason: (error as Error).message };
    }
    if (!found) continue;
    if (found.executablePath === null) return found;
    const version = await versionOf(found.executablePath);
    if (!version)
      return {
        executablePath: null,
        reason: `the Chromium at ${found.executablePath} (${found.source}) does not start: ${found.executablePath} --version failed`,
      };
    return { ...found, version };
  }
  return { executablePath: null, reason: only ? `no Chromium from ${only} (${browserSourceEnv})` : howToGetChromium };
}

/** "Chromium 153.0.8010.0 (npm, /tmp/…/chromium)" for the run's header and report; the reason where there is none. */
export function describeBrowser(chromium: RunConfig['chromium']): string {
  return chromium.executablePath === null ? `none: ${chromium.reason}` : `${chromium.version} (${chromium.source}, ${chromium.executablePath})`;
}
