/**
 * Child processes the run starts (Prism, Playwright): each in its own process group, so that it and
 * every process it starts can be stopped by its pid alone, whatever happens.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

const startErrors = new WeakMap<ChildProcess, Error>();

export function spawnGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  child.once('error', (error) => startErrors.set(child, error));
  return child;
}

/**
 * The script of an npm package's command-line tool (its package.json "bin"), found by Node's module
 * resolution as this package imports it: in a clone it is under ./node_modules, in a user's project
 * npm may have put it one level up, next to this package. Run it with process.execPath.
 */
export function toolPath(packageName: string, bin: string): string {
  let manifest: string;
  try {
    manifest = createRequire(import.meta.url).resolve(`${packageName}/package.json`);
  } catch {
    throw new Error(`${bin} (npm package ${packageName}) is not installed: run npm install`);
  }
  const bins = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> }).bin;
  const relative = typeof bins === 'string' ? bins : bins?.[bin];
  if (!relative) throw new Error(`${packageName} has no command ${bin}`);
  return join(dirname(manifest), relative);
}

/** Why the child could not be started at all, in one line; null when it started. */
export function startFailure(child: ChildProcess, name: string): string | null {
  const error = startErrors.get(child);
  return error ? `${name} could not be started: ${error.message}` : null;
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves when the child has exited, or could not be started at all (see startFailure). */
export function exited(child: ChildProcess): Promise<void> {
  if (hasExited(child) || startErrors.has(child)) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
}

export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** SIGTERM to the group, SIGKILL to it after graceMs. Resolves once the child has exited. */
export async function stopGroup(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (!hasExited(child)) signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  await exited(child);
  clearTimeout(timer);
  // Grandchildren may outlive the child itself.
  signalGroup(child, 'SIGKILL');
}

/** A loopback port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
