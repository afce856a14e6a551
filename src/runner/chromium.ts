/** Finds a Chromium for the browser checks: CHROMIUM_PATH, Debian's, else Playwright's own. */
import { existsSync } from 'node:fs';
import type { RunConfig } from '../run-config.ts';

const debianChromium = '/usr/bin/chromium';
export const howToGetChromium = 'no Chromium found: install one (apt-get install -y chromium) or set CHROMIUM_PATH';
/** How the browser checks start Chromium. */
export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<RunConfig['chromium']> {
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv) {
    return existsSync(fromEnv)
      ? { executablePath: fromEnv }
      : { executablePath: null, reason: `CHROMIUM_PATH ${fromEnv} does not exist` };
  }
  if (existsSync(debianChromium)) return { executablePath: debianChromium };
  const { chromium } = await import('@playwright/test');
  const playwrights = chromium.executablePath();
  if (playwrights && existsSync(playwrights)) return { executablePath: playwrights };
  return { executablePath: null, reason: howToGetChromium };
}
