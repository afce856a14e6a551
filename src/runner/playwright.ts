/** Runs the specs: "playwright test" as a child, in its own process group, bounded in time. */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeFile, packageDir } from '../core/package-root.ts';
import { runConfigEnv } from '../core/run-config.ts';
import { exited, signalGroup, spawnGroup, startFailure, stopGroup, toolPath } from './processes.ts';

/** Past the run's time-out, Playwright gets this long to stop by itself before it is killed. */
export const stopGraceMs = 30_000;

/** Text as a pattern that matches exactly it. */
export const literalPattern = (text: string) => text.replace(/[.*+?^${}()[\]\\/]/g, '\\$&');

/**
 * --grep TEXT as Playwright's pattern (matched against titles and tags). TEXT is literal, and a
 * clause ID matches exactly that clause: CHK-1 is not CHK-10. Alternatives may be joined by "|".
 */
export function grepPattern(text: string): string {
  return text
    .split('|')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => (/^[A-Za-z]+-\d+$/.test(part) ? `\\b${part}\\b` : literalPattern(part)))
    .join('|');
}

export interface PlaywrightRun {
  configFile: string;
  grep: string | null;
  workers: number | null;
  timeoutMs: number;
  /** "i/n": Playwright's --shard. */
  shard: string | null;
  /** Where Playwright's blob reporter writes, for "checkout-conformance merge"; null: no blob. */
  blobDir: string | null;
  /** Stops Playwright (and its workers) before its end: the run found it cannot go on. */
  stop?: AbortSignal;
}

/** Read by playwright.config.ts: the blob reporter's folder, when there is one. */
export const blobDirEnv = 'CHECKOUT_CONFORMANCE_BLOB_DIR';

/** A run's blob reports, in its report folder. */
export const blobDirOf = (outDir: string) => join(outDir, 'blob-report');

/** Resolves with Playwright's exit code (null when it had to be killed). */
export async function runPlaywright(run: PlaywrightRun): Promise<number | null> {
  const args = ['test', '--config', codeFile('playwright.config'), '--global-timeout', String(run.timeoutMs)];
  if (run.grep) args.push('--grep', grepPattern(run.grep));
  if (run.workers) args.push('--workers', String(run.workers));
  if (run.shard) args.push('--shard', run.shard);
  const env = { ...process.env, [runConfigEnv]: run.configFile, ...(run.blobDir && { [blobDirEnv]: run.blobDir }) };
  return playwright(args, env, run.timeoutMs + stopGraceMs, 'inherit', run.stop);
}

/**
 * "playwright merge-reports" of the blob reports in blobDir, with the conformance reporter, which
 * writes raw-results.json into the folder the run config (configFile) names.
 */
export function mergeBlobReports(blobDir: string, configFile: string, timeoutMs: number): Promise<number | null> {
  const args = ['merge-reports', '--reporter', codeFile('src/runner/reporter'), blobDir];
  return playwright(args, { ...process.env, [runConfigEnv]: configFile }, timeoutMs);
}

/**
 * V8 compiles Playwright's bundles (7 MB) again in every worker it starts. Node's compile cache (22.1
 * and later; Node 20 ignores it) keeps their bytecode between processes and runs: a worker starts
 * with about 0.25 s less CPU. Unless the user chose a cache, or turned it off.
 */
function withCompileCache(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.NODE_COMPILE_CACHE !== undefined || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return env;
  return { ...env, NODE_COMPILE_CACHE: join(tmpdir(), 'node-compile-cache') };
}

/** "playwright ARGS" in its own process group, killed after killAfterMs; resolves with its exit code. */
export async function playwright(
  args: string[],
  env: NodeJS.ProcessEnv,
  killAfterMs: number,
  stdout: 'inherit' | 'ignore' = 'inherit',
  stop?: AbortSignal,
): Promise<number | null> {
  // Without this, Playwright's error-context files may hold a page snapshot with what was typed (a card number).
  const child = spawnGroup(process.execPath, [toolPath('@playwright/test', 'playwright'), ...args], {
    cwd: packageDir,
    stdio: ['ignore', stdout, 'inherit'],
    env: { ...withCompileCache(env), PLAYWRIGHT_NO_COPY_PROMPT: '1' },
  });
  // Its own process group does not get the terminal's Ctrl-C: pass signals on.
  const forward = (signal: NodeJS.Signals) => signalGroup(child, signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const stopNow = () => void stopGroup(child);
  const deadline = setTimeout(stopNow, killAfterMs);
  stop?.addEventListener('abort', stopNow);
  if (stop?.aborted) stopNow();
  try {
    await exited(child);
    const failure = startFailure(child, 'Playwright');
    if (failure) throw new Error(failure);
    return child.exitCode;
  } finally {
    clearTimeout(deadline);
    stop?.removeEventListener('abort', stopNow);
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
    signalGroup(child, 'SIGKILL'); // workers that outlived the runner
  }
}
