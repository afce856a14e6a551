import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(packageRoot, 'bin/checkout-conformance.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

type CliOptions = { env?: NodeJS.ProcessEnv; timeoutMs?: number; execPath?: string };

/** Runs the command line as a user would, in a child process. */
export function cli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).result;
}

/** The command line started, with its process (to signal it) and its result once it ends. */
export function startCli(args: string[], options: CliOptions = {}): { child: ChildProcess; result: Promise<CliResult> } {
  let child!: ChildProcess;
  const result = new Promise<CliResult>((resolve) => {
    child = execFile(
      options.execPath ?? process.execPath,
      [bin, ...args],
      { env: { ...process.env, ...options.env }, timeout: options.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code) : 0, stdout, stderr }),
    );
  });
  return { child, result };
}

/** A temporary folder removed after the test. */
export function tempDir(t: { after(fn: () => void): void }, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export { readReport } from '../../src/runner/diff.ts';

/** A throw-away spec folder (for CHECKOUT_CONFORMANCE_SPECS): file name → source. */
export function specFolder(t: { after(fn: () => void): void }, specs: Record<string, string>): string {
  const dir = tempDir(t, 'specs-');
  symlinkSync(join(packageRoot, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
  for (const [name, source] of Object.entries(specs)) writeFileSync(join(dir, name), source);
  return dir;
}
