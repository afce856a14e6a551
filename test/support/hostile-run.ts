/**
 * A CLI run whose every descendant process can be found afterwards: the run's environment carries a
 * marker that Playwright, its workers and Chromium inherit, so that a process left behind is one
 * whose /proc/PID/environ holds it, whatever process group or session it moved to.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cli, type CliResult } from './cli.ts';

export const reportFiles = ['junit.xml', 'report.html', 'report.json', 'summary.md'];

const markerName = 'CHECKOUT_CONFORMANCE_TEST_RUN';

export interface MarkedRun extends CliResult {
  durationMs: number;
  /** Processes of the run still alive after it ended ("pid command line"). */
  leftBehind: string[];
}

export async function markedRun(args: string[], timeoutMs: number, env: NodeJS.ProcessEnv = {}): Promise<MarkedRun> {
  const marker = randomUUID();
  const started = Date.now();
  const result = await cli(args, { env: { ...env, [markerName]: marker }, timeoutMs });
  const durationMs = Date.now() - started;
  return { ...result, durationMs, leftBehind: await processesMarked(`${markerName}=${marker}`) };
}

/** The processes whose environment holds the marker, after they had a moment to finish exiting. */
async function processesMarked(marker: string): Promise<string[]> {
  let found: string[] = [];
  for (let attempt = 0; attempt < 20; attempt++) {
    found = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) =>
        read(join('/proc', pid, 'environ'))
          .split('\0')
          .includes(marker),
      )
      .map(
        (pid) =>
          `${pid} ${read(join('/proc', pid, 'cmdline'))
            .replace(/\0/g, ' ')
            .trim()}`,
      );
    if (found.length === 0) return found;
    await sleep(100);
  }
  return found;
}

function read(file: string): string {
  try {
    return existsSync(file) ? readFileSync(file, 'latin1') : '';
  } catch {
    return ''; // gone meanwhile, or not ours
  }
}

/** The console's last lines, from the run's verdict on: its own one-line outcome, never a stack trace. */
export function outcomeLines(stdout: string): string[] {
  const lines = stdout.trimEnd().split('\n');
  const verdictAt = lines.map((line) => /^checkout-conformance: (conformant|non-conformant|incomplete): /.test(line)).lastIndexOf(true);
  return verdictAt === -1 ? lines.slice(-1) : lines.slice(verdictAt);
}
