/**
 * npm run bench: the suite's own speed, each figure beside its goal and, for the three timed ones,
 * its critical path (the longest chain of waits that no concurrency removes: the start, the longest
 * test, or a candidate's tests where it has one worker, and the report). Prints each run, then:
 *   1. wall time of a full run on the embedded sandbox (default property runs, browser checks
 *      included), the median of --runs runs (default 5);
 *   2. wall time of a run against a target like a hosted sandbox: the reference sandbox as its own
 *      process answering every request 150 ms late (`sandbox --latency-ms 150`), run with --base-url
 *      and no profile, so eventMs is 30 s; the median of --latency-runs runs (default 1);
 *   3. wall time of the whole mutant catalogue as `npm test` runs it (`npm run mutants`, the same
 *      runCandidates), the median of --mutant-runs runs (default 1: it takes minutes; --skip-mutants
 *      leaves it out);
 *   4. the property phase's request rate over a plain HTTP loop's, same requests, same sandbox, same process;
 *   5. peak memory of a full run: the proportional set size (shared pages split between their
 *      sharers) of its whole process tree (runner, Playwright, workers, Chromium), summed, sampled
 *      every half second, in a full run of its own whose time is not counted;
 *   6. the latency "observe" adds to one exchange: the median of sequential POST /checkouts through
 *      the observing proxy minus the median of the same sent directly, to an in-memory sandbox.
 *
 *   npm run bench -- [--runs 5] [--latency-runs 1] [--mutant-runs 1] [--skip-mutants]
 * A count of 0 leaves that figure out (--runs needs at least 1: the memory run and the rates follow it).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { anyValidCheckout } from '../src/generators/index.ts';
import { checkCheckoutCreated } from '../src/checks/index.ts';
import type { RunConfig } from '../src/core/run-config.ts';
import { requestOf } from '../src/core/operations.ts';
import type { RegisterCustomerAnswer } from '../schemas/generated/types.ts';
import { builtInProfile, loadProfile } from '../src/core/profile.ts';
import { startObserver } from '../src/observe/observer.ts';
import { startSandbox } from '../src/sandbox/index.ts';
import { criticalPath, readTimings, timingsEnv, type CriticalPath } from '../src/runner/timings.ts';
import { createApi } from '../src/harness/api.ts';
import { forCustomer } from '../src/harness/flows.ts';
import { createPacer, defaultConcurrentRequests } from '../src/harness/pace.ts';

const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const usage = 'usage: npm run bench -- [--runs 5] [--latency-runs 1] [--mutant-runs 1] [--skip-mutants]';
function refuse(why: string): never {
  console.error(`bench: ${why}\n${usage}`);
  process.exit(2);
}
const options = {
  runs: { type: 'string', default: '5' },
  'latency-runs': { type: 'string', default: '1' },
  'mutant-runs': { type: 'string', default: '1' },
  'skip-mutants': { type: 'boolean', default: false },
} as const;
const values = (() => {
  try {
    return parseArgs({ options }).values;
  } catch (error) {
    return refuse((error as Error).message.split('\n')[0]);
  }
})();
function count(option: 'runs' | 'latency-runs' | 'mutant-runs', least: number): number {
  const text = values[option];
  if (!/^\d+$/.test(text) || Number(text) < least) refuse(`--${option} takes a whole number of runs, at least ${least}; got "${text}"`);
  return Number(text);
}
const runs = count('runs', 1);
const latencyRuns = count('latency-runs', 0);
const mutantRuns = count('mutant-runs', 0);
const goalSeconds = { full: 10, latency: 60, mutants: 300 };
/** The round trip of the target like a hosted sandbox (figure 2). */
const targetLatencyMs = 150;
const seed = 20240501;
const propertyCases = 100;

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];

/** Summed proportional set size (MB) of a process and all its descendants, from /proc. */
function treeMemoryMb(root: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // "pid (comm) state ppid …": comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents) if (tree.has(parent) && !tree.has(pid)) grew = Boolean(tree.add(pid));
  }
  let kb = 0;
  for (const pid of tree) {
    try {
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // The process ended meanwhile.
    }
  }
  return kb / 1024;
}

/** User and system CPU seconds of this process's children that have ended (and theirs that they waited for), from /proc. */
function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // From the state on (field 3): cutime and cstime, fields 16 and 17, in ticks of 1/100 s.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

interface Timed {
  seconds: number;
  /** The machine's 1-minute load average when the command started and when it ended. */
  load: [number, number];
  /** CPU time of the command and the processes it waited for: what other work on the machine does not inflate. */
  cpuSeconds: number;
  peakMb: number;
  code: number | null;
  /** Null where no test ran. */
  path: CriticalPath | null;
}

/**
 * Runs a command to its end: wall seconds, peak tree memory, exit code, and its critical path from
 * the tests' timings (src/runner/timings.ts).
 */
async function timed(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; sampleMemory?: boolean } = {}): Promise<Timed> {
  const timingsDir = mkdtempSync(join(tmpdir(), 'bench-timings-'));
  const timingsFile = join(timingsDir, 'timings.jsonl');
  const startedAt = Date.now();
  const loadBefore = loadavg()[0];
  const cpuBefore = childrenCpuSeconds();
  const child = spawn(command, args, { cwd: packageRoot, stdio: 'ignore', env: { ...process.env, ...options.env, [timingsEnv]: timingsFile } });
  let peakMb = 0;
  // Reading every process's memory costs CPU of its own (twice a second, about a quarter of a core on
  // the embedded run): only in a run of its own, whose time is not counted.
  const sampler = options.sampleMemory ? setInterval(() => (peakMb = Math.max(peakMb, treeMemoryMb(child.pid!))), 500) : undefined;
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const endedAt = Date.now();
  clearInterval(sampler);
  const path = criticalPath(readTimings(timingsFile), startedAt, endedAt);
  rmSync(timingsDir, { recursive: true, force: true });
  return { seconds: (endedAt - startedAt) / 1000, load: [loadBefore, loadavg()[0]], cpuSeconds: childrenCpuSeconds() - cpuBefore, peakMb, code, path };
}

/** A conformance run with these arguments, timed; its verdict read from its report, which is kept where the sandbox was not found conformant (the suite's own false positive). */
async function conformanceRun(args: string[], options: { sampleMemory?: boolean } = {}): Promise<Timed & { verdict: string }> {
  const out = mkdtempSync(join(tmpdir(), 'bench-run-'));
  let verdict = 'no report';
  try {
    const result = await timed(process.execPath, ['bin/checkout-conformance.js', 'run', '--seed', String(seed), '--out', out, ...args], options);
    verdict = (JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { verdict: string }).verdict;
    return { ...result, verdict: verdict === 'conformant' ? verdict : `${verdict}, report kept in ${out}` };
  } finally {
    if (verdict === 'conformant') rmSync(out, { recursive: true, force: true });
  }
}

const fullRun = (options: { sampleMemory?: boolean } = {}) => conformanceRun([], options);

/** A run against the reference sandbox as a process of its own, every answer targetLatencyMs late, by URL and without a profile. */
async function latencyRun() {
  const sandbox = spawn(
    process.execPath,
    ['bin/checkout-conformance.js', 'sandbox', '--port', '0', '--db', ':memory:', '--latency-ms', String(targetLatencyMs)],
    {
      cwd: packageRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      sandbox.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const listening = /listening on (http:\/\/\S+)/.exec(output);
        if (listening) resolve(listening[1]);
      });
      sandbox.on('exit', () => reject(new Error(`the sandbox ended before listening: ${output}`)));
    });
    return await conformanceRun(['--base-url', url]);
  } finally {
    sandbox.kill('SIGTERM');
  }
}

/** "12.3 s (critical path 9.1 s: start 4.0 s, [waiting] no notification… 4.2 s, report 0.9 s)" */
function describeTimed(seconds: number, path: CriticalPath | null): string {
  if (!path) return `${seconds.toFixed(1)} s (no test ran: no critical path)`;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const chain = path.chain.length > 70 ? `${path.chain.slice(0, 69)}…` : path.chain;
  return `${seconds.toFixed(1)} s (critical path ${s(path.totalMs)}: start ${s(path.startupMs)}, ${chain} ${s(path.chainMs)}, report ${s(path.windDownMs)})`;
}

/** Other work on the machine shows in every figure: the load average says how much there was. */
const describeLoad = ({ load, cpuSeconds }: Timed) =>
  `${cpuSeconds.toFixed(0)} s of CPU, load average ${load[0].toFixed(1)} → ${load[1].toFixed(1)} on ${availableParallelism()} cores`;

/** The run whose time is the median, with its critical path. */
function medianRun<T extends { seconds: number }>(list: T[]): T {
  return [...list].sort((a, b) => a.seconds - b.seconds)[Math.floor(list.length / 2)];
}

/** The specs' own API client (recording, bounded, masking), as a spec on the embedded sandbox has it. */
function specsApi(baseUrl: string) {
  const run: RunConfig = {
    baseUrl,
    targetKind: 'sandbox',
    profile: loadProfile(builtInProfile('sandbox.json')),
    headers: {},
    seed,
    runs: propertyCases,
    strict: false,
    allowWrites: true,
    callbackHost: '127.0.0.1',
    publicCallbackUrl: null,
    outDir: tmpdir(),
    chromium: { executablePath: null, reason: 'not needed to measure requests' },
  };
  return createApi(run, createPacer({ maxConcurrent: defaultConcurrentRequests, perSecond: null }), { beforeWrite: () => {}, beforeFailing: () => {} });
}

/**
 * The property phase (generation, request, answer parsed, checks) against a loop that sends the
 * same bodies, drawn beforehand, and only reads the answers. Both take turns on one in-memory
 * sandbox in this process, after a warm-up, so that neither gets a colder or a fuller one.
 */
async function propertyRateRatio(): Promise<number> {
  const sandbox = await startSandbox({ port: 0, db: ':memory:' });
  try {
    const customer = ((await specsApi(sandbox.url).call('registerCustomer', { body: {} })).response.body as RegisterCustomerAnswer).uuid;
    const bodies = fc.sample(anyValidCheckout, { seed, numRuns: propertyCases }).map((request) => forCustomer(request, customer));
    const property = async () => {
      const api = specsApi(sandbox.url);
      await fc.assert(
        fc.asyncProperty(anyValidCheckout, async (request) => {
          checkCheckoutCreated(await api.call('createCheckout', { body: forCustomer(request, customer) }));
        }),
        { seed, numRuns: propertyCases },
      );
    };
    const creation = requestOf('createCheckout');
    const plainLoop = async () => {
      for (const body of bodies) {
        const answer = await fetch(`${sandbox.url}${creation.path}`, {
          method: creation.method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        await answer.arrayBuffer();
      }
    };
    const seconds = async (work: () => Promise<void>) => {
      const started = performance.now();
      await work();
      return (performance.now() - started) / 1000;
    };
    await plainLoop();
    await property();
    // Three turns each, alternating who goes first, as the sandbox's tables grow between turns.
    let propertySeconds = 0;
    let loopSeconds = 0;
    for (let turn = 0; turn < 3; turn++) {
      if (turn % 2 === 0) loopSeconds += await seconds(plainLoop);
      propertySeconds += await seconds(property);
      if (turn % 2 === 1) loopSeconds += await seconds(plainLoop);
    }
    // Same number of requests on both sides: the ratio of rates is the inverse ratio of times.
    return loopSeconds / propertySeconds;
  } finally {
    await sandbox.close();
  }
}

/**
 * Milliseconds the observing proxy adds to an exchange, at the median: direct and proxied requests
 * take turns, one each, after a warm-up, so that both meet the same sandbox.
 */
async function observeAddedMs(requests = 300): Promise<number> {
  const sandbox = await startSandbox({ port: 0, db: ':memory:' });
  const observer = await startObserver({ upstream: sandbox.url });
  const body = JSON.stringify({
    payment: { amount: 500, code: 'P1', summary: 'Book', paymentMethod: { code: 'MB' } },
    page: { language: 'PT', layout: 'web' },
  });
  const creation = requestOf('createCheckout');
  const timedPost = async (baseUrl: string) => {
    const started = performance.now();
    const answer = await fetch(`${baseUrl}${creation.path}`, { method: creation.method, headers: { 'content-type': 'application/json' }, body });
    await answer.arrayBuffer();
    return performance.now() - started;
  };
  try {
    for (let warmUp = 0; warmUp < 50; warmUp++) {
      await timedPost(sandbox.url);
      await timedPost(observer.url);
    }
    const direct: number[] = [];
    const proxied: number[] = [];
    for (let request = 0; request < requests; request++) {
      direct.push(await timedPost(sandbox.url));
      proxied.push(await timedPost(observer.url));
    }
    return median(proxied) - median(direct);
  } finally {
    await observer.stop();
    await sandbox.close();
  }
}

const figures = { full: [] as Timed[], latency: [] as Timed[], mutants: [] as Timed[], ratio: [] as number[], observeMs: [] as number[] };
for (let run = 1; run <= runs; run++) {
  const full = await fullRun();
  figures.full.push(full);
  figures.ratio.push(await propertyRateRatio());
  figures.observeMs.push(await observeAddedMs());
  console.log(
    `run ${run}: full run ${describeTimed(full.seconds, full.path)} (${full.verdict}, ${describeLoad(full)}), property/plain rate ${figures.ratio.at(-1)!.toFixed(2)}, observe adds ${figures.observeMs.at(-1)!.toFixed(2)} ms`,
  );
}
const memoryRun = await fullRun({ sampleMemory: true });
console.log(`memory run: peak ${memoryRun.peakMb.toFixed(0)} MB (${memoryRun.verdict}, its time not counted)`);
for (let run = 1; run <= latencyRuns; run++) {
  const latency = await latencyRun();
  figures.latency.push(latency);
  console.log(`latency run ${run}: ${describeTimed(latency.seconds, latency.path)} (${latency.verdict}, ${describeLoad(latency)})`);
}
const measureMutants = existsSync(join(packageRoot, 'mutants/rotation.ts')) && !values['skip-mutants'];
const mutantSet = measureMutants ? (await import('../mutants/rotation.ts')).catalogueAsTested().length : 0;
if (measureMutants) {
  for (let run = 1; run <= mutantRuns; run++) {
    // Every test of the catalogue is dispatched on its own to the workers it shares (mutants/playwright.config.ts).
    const mutants = await timed('npm', ['run', '--silent', 'mutants']);
    figures.mutants.push(mutants);
    console.log(`mutants run ${run}: ${describeTimed(mutants.seconds, mutants.path)} (exit ${mutants.code}, ${describeLoad(mutants)})`);
  }
}

const line = (figure: string, list: Timed[], goal: number, of: string) => {
  if (list.length === 0) return console.log(`${figure.padEnd(44)} not measured`);
  const typical = medianRun(list);
  const met = median(list.map((run) => run.seconds)) <= goal ? 'met' : 'not met';
  console.log(
    `${figure.padEnd(44)} ${describeTimed(median(list.map((run) => run.seconds)), typical.path)}; goal ≤ ${goal} s, ${met}${of} (${describeLoad(typical)})`,
  );
};
const medianOf = (count: number) => (count > 1 ? `, median of ${count} runs` : '');
console.log('');
line('full run on the embedded sandbox:', figures.full, goalSeconds.full, medianOf(runs));
line(`${targetLatencyMs} ms latency, eventMs 30 s (no profile):`, figures.latency, goalSeconds.latency, medianOf(latencyRuns));
line(measureMutants ? `mutant set (${mutantSet} candidates):` : 'mutant set:', figures.mutants, goalSeconds.mutants, medianOf(mutantRuns));
console.log(`property request rate / plain HTTP loop:     ${median(figures.ratio).toFixed(2)}`);
console.log(`peak memory of a run (process tree):         ${memoryRun.peakMb.toFixed(0)} MB (a full run of its own)`);
console.log(`latency observe adds per exchange:           ${median(figures.observeMs).toFixed(2)} ms (goal ≤ 2 ms)`);
