/**
 * npm run bench: the suite's own speed, as medians of --runs runs (default 5). Prints each run, then:
 *   1. wall time of a full run on the embedded sandbox (default property runs, browser checks included);
 *   2. the property phase's request rate over a plain HTTP loop's, same requests, same sandbox, same process;
 *   3. wall time of `npm run mutants`, the whole catalogue, as the median of --mutant-runs runs
 *      (default 1: one takes minutes; --skip-mutants to leave it out);
 *   4. peak memory of a full run: the proportional set size (shared pages split between their
 *      sharers) of its whole process tree (runner, Playwright, workers, Chromium), summed, sampled
 *      every 100 ms;
 *   5. the latency "observe" adds to one exchange: the median of sequential POST /checkouts through
 *      the observing proxy minus the median of the same sent directly, to an in-memory sandbox.
 *
 *   tsx bench/run.ts [--runs 5] [--mutant-runs 1] [--skip-mutants]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { anyValidCheckout } from '../generators/index.ts';
import { checkCheckoutCreated } from '../src/checks/index.ts';
import type { RunConfig } from '../src/run-config.ts';
import { builtInProfile, loadProfile } from '../src/runner/profile.ts';
import { startObserver } from '../src/observe/observer.ts';
import { startSandbox } from '../src/sandbox/index.ts';
import { createApi } from '../specs/api.ts';
import { forCustomer } from '../specs/flows.ts';
import { createPacer, defaultConcurrentRequests } from '../specs/pace.ts';

const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, 'mutant-runs': { type: 'string', default: '1' }, 'skip-mutants': { type: 'boolean', default: false } },
});
const runs = Number(values.runs);
const mutantRuns = Number(values['mutant-runs']);
const mutantGoalSeconds = 240;
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
  for (let grew = true; grew; ) {
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

/** Runs a command to its end: wall seconds, peak tree memory, exit code. */
function timed(command: string, args: string[]): Promise<{ seconds: number; peakMb: number; code: number | null }> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: packageRoot, stdio: 'ignore' });
  let peakMb = 0;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, treeMemoryMb(child.pid!))), 100);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearInterval(sampler);
      resolve({ seconds: (performance.now() - started) / 1000, peakMb, code });
    });
  });
}

async function fullRun() {
  const out = mkdtempSync(join(tmpdir(), 'bench-run-'));
  try {
    const result = await timed(process.execPath, ['bin/checkout-conformance.js', 'run', '--seed', String(seed), '--out', out]);
    const verdict = (JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { verdict: string }).verdict;
    return { ...result, verdict };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
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
    const customer = ((await (await fetch(`${sandbox.url}/test-helpers/customers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as { uuid: string }).uuid;
    const bodies = fc.sample(anyValidCheckout, { seed, numRuns: propertyCases }).map((request) => forCustomer(request, customer));
    const property = async () => {
      const api = specsApi(sandbox.url);
      await fc.assert(fc.asyncProperty(anyValidCheckout, async (request) => {
        checkCheckoutCreated(await api.post('/checkouts', forCustomer(request, customer)));
      }), { seed, numRuns: propertyCases });
    };
    const plainLoop = async () => {
      for (const body of bodies) {
        const answer = await fetch(`${sandbox.url}/checkouts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
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
  const body = JSON.stringify({ payment: { amount: 500, code: 'P1', summary: 'Book', paymentMethod: { code: 'MB' } }, page: { language: 'PT', layout: 'web' } });
  const timedPost = async (baseUrl: string) => {
    const started = performance.now();
    const answer = await fetch(`${baseUrl}/checkouts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
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

const figures = { fullSeconds: [] as number[], ratio: [] as number[], mutantSeconds: [] as number[], peakMb: [] as number[], observeMs: [] as number[] };
for (let run = 1; run <= runs; run++) {
  const full = await fullRun();
  figures.fullSeconds.push(full.seconds);
  figures.peakMb.push(full.peakMb);
  figures.ratio.push(await propertyRateRatio());
  figures.observeMs.push(await observeAddedMs());
  console.log(
    `run ${run}: full run ${full.seconds.toFixed(1)} s (${full.verdict}), peak ${full.peakMb.toFixed(0)} MB, property/plain rate ${figures.ratio.at(-1)!.toFixed(2)}, observe adds ${figures.observeMs.at(-1)!.toFixed(2)} ms`,
  );
}
const measureMutants = existsSync(join(packageRoot, 'mutants/run.ts')) && !values['skip-mutants'];
const mutantSet = measureMutants ? (await import('../mutants/run.ts')).candidates().length : 0;
if (measureMutants) {
  for (let run = 1; run <= mutantRuns; run++) {
    const mutants = await timed('npm', ['run', '--silent', 'mutants']);
    figures.mutantSeconds.push(mutants.seconds);
    console.log(`mutants run ${run}: ${mutants.seconds.toFixed(0)} s (exit ${mutants.code})`);
  }
}

console.log(`\nmedians of ${runs} runs`);
console.log(`full run on the embedded sandbox:        ${median(figures.fullSeconds).toFixed(1)} s`);
console.log(`property request rate / plain HTTP loop: ${median(figures.ratio).toFixed(2)}`);
console.log(`peak memory of a run (process tree):     ${median(figures.peakMb).toFixed(0)} MB`);
console.log(`latency observe adds per exchange:       ${median(figures.observeMs).toFixed(2)} ms (goal ≤ 2 ms)`);
const ofMutantRuns = mutantRuns > 1 ? `, median of ${mutantRuns} runs` : '';
console.log(
  measureMutants
    ? `mutant set (${mutantSet} candidates): ${median(figures.mutantSeconds).toFixed(0)} s (goal ≤ ${mutantGoalSeconds} s${ofMutantRuns})`
    : 'mutant set: not measured',
);
