/** The target of a run: the reference sandbox in-process, a Prism mock, or a URL given by the user. */
import { createWriteStream } from 'node:fs';
import { packageDir } from '../core/package-root.ts';
import type { Profile, RunConfig } from '../core/run-config.ts';
import type { RunOptions } from './options.ts';
import { exited, freePort, spawnGroup, startFailure, stopGroup, toolPath } from './processes.ts';
import { builtInProfile, loadProfile } from '../core/profile.ts';

export interface Target {
  kind: RunConfig['targetKind'];
  baseUrl: string;
  profile: Profile;
  stop(): Promise<void>;
}

const prismStartMs = 60_000;

/**
 * Milliseconds the embedded sandbox answers every request late (a hosted sandbox's round trip), for
 * measuring the suite against a realistic target (npm run bench); unset or 0: at once.
 */
export const sandboxLatencyEnv = 'CHECKOUT_CONFORMANCE_SANDBOX_LATENCY_MS';

/** A target known only by its URL: the checks assume nothing beyond the reference, and the preflight probes the rest. */
export const unprofiled: Profile = {
  name: 'unprofiled',
  live: false,
  headers: {},
  capabilities: { stateful: true, refusesBrokenRules: true },
  timeouts: { requestMs: 10_000, eventMs: 30_000 },
};

/** The profile of the run: --profile, else the one that ships for the target. */
export function profileFor(options: RunOptions): Profile {
  const profile = options.profilePath
    ? loadProfile(options.profilePath)
    : options.baseUrl
      ? unprofiled
      : loadProfile(builtInProfile(options.target === 'prism' ? 'prism.json' : 'sandbox.json'));
  if (options.requestTimeoutMs === null) return profile;
  return { ...profile, timeouts: { ...profile.timeouts, requestMs: options.requestTimeoutMs } };
}

/** Starts (or, for --base-url, just names) the target. logDir receives Prism's log. */
export async function startTarget(options: RunOptions, profile: Profile, logDir: string): Promise<Target> {
  if (options.baseUrl) return { kind: 'url', baseUrl: options.baseUrl, profile, stop: async () => {} };
  if (options.target === 'prism') return startPrism(profile, logDir);
  const { startSandbox } = await import('../sandbox/index.ts');
  // The sandbox signs its notifications with the profile's secret, so that the signature is checkable.
  const secret = profile.notificationSecret ? { notificationSecret: profile.notificationSecret } : {};
  const latencyMs = Number(process.env[sandboxLatencyEnv] ?? 0);
  if (!Number.isInteger(latencyMs) || latencyMs < 0)
    throw new Error(`${sandboxLatencyEnv} must be a whole number of milliseconds, not "${process.env[sandboxLatencyEnv]}"`);
  const sandbox = await startSandbox({ port: 0, db: ':memory:', latencyMs, ...secret });
  return { kind: 'sandbox', baseUrl: sandbox.url, profile, stop: () => sandbox.close() };
}

/**
 * A Prism mock of schemas/generated/openapi.json on a free loopback port; logDir receives its log.
 * The project's own Prism (5.14.2) unless another's script is named (the test that watches newer ones).
 */
export async function startPrism(profile: Profile, logDir: string, prismScript = toolPath('@stoplight/prism-cli', 'prism')): Promise<Target> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPrismOnce(profile, logDir, prismScript);
    } catch (error) {
      // The port was free when chosen; another process may bind it before Prism does.
      if (attempt === 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startPrismOnce(profile: Profile, logDir: string, prismScript: string): Promise<Target> {
  const port = await freePort();
  const prism = spawnGroup(process.execPath, [prismScript, 'mock', '-h', '127.0.0.1', '-p', String(port), `${packageDir}schemas/generated/openapi.json`], {
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(`${logDir}/prism.log`);
  prism.stdout!.pipe(log);
  prism.stderr!.pipe(log);
  const stop = () => stopGroup(prism);
  try {
    await listening(prism);
  } catch (error) {
    await stop();
    throw error;
  }
  return { kind: 'prism', baseUrl: `http://127.0.0.1:${port}`, profile, stop };
}

/** Resolves when Prism says it listens; rejects when it exits or takes too long. */
function listening(prism: ReturnType<typeof spawnGroup>): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => done(new Error(`Prism did not start within ${prismStartMs} ms (see prism.log)`)), prismStartMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening on')) done();
    };
    const done = (error?: Error) => {
      clearTimeout(timer);
      prism.stdout!.off('data', onData);
      prism.stderr!.off('data', onData);
      if (error) reject(error);
      else resolve();
    };
    prism.stdout!.on('data', onData);
    prism.stderr!.on('data', onData);
    void exited(prism).then(() => {
      const lastLine = output.trim().split('\n').at(-1);
      const why =
        startFailure(prism, 'Prism') ??
        `Prism exited (${prism.exitCode ?? prism.signalCode}) before listening${lastLine ? `: ${lastLine}` : ''} (see prism.log)`;
      done(new Error(why));
    });
  });
}
