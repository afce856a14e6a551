import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../../src/runner/report.ts';

export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(packageRoot, 'bin/checkout-conformance.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command line as a user would, in a child process. */
export function cli(args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...process.env, ...options.env }, timeout: options.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code) : 0, stdout, stderr }),
    );
  });
}

/** A temporary folder removed after the test. */
export function tempDir(t: { after(fn: () => void): void }, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function readReport(dir: string): Report {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}
