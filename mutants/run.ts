/**
 * `npm run mutants [name …]`: runs the suite with --strict against every mutant (expecting its
 * own clause to fail, and no clause it may not disturb) and every benign variant (expecting a
 * conformant verdict), each behind its own proxy in front of its own in-memory sandbox.
 *
 * The whole catalogue is one Playwright run (mutants/playwright.config.ts) in which every candidate
 * is a target (src/harness/targets.ts), and one Chromium that every worker connects to: the start-up of
 * the command line, Playwright, its workers and the browser is paid once, not once per candidate.
 * Each candidate's report is then built from its raw results, as `checkout-conformance run` builds it.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type BrowserServer } from '@playwright/test';
import { clauses } from '../src/core/clauses.ts';
import type { RunConfig } from '../src/core/run-config.ts';
import { chromiumArgs, describeBrowser, findChromium } from '../src/core/chromium.ts';
import { playwright, stopGraceMs } from '../src/runner/playwright.ts';
import { builtInProfile, loadProfile, secretsOfRun } from '../src/core/profile.ts';
import { readRawResults, type RawTest } from '../src/report/raw-results.ts';
import { buildReport } from '../src/report/report.ts';
import { watchInterruption } from '../src/runner/run.ts';
import { writeReport } from '../src/report/write.ts';
import { startSandbox, type Sandbox } from '../src/sandbox/index.ts';
import { benignVariants, generatedNames, mutants } from './catalogue.ts';
import { generatedCatalogue, operatorTwins } from './operators.ts';
import { catalogueEventMs, type Mutant } from './kinds.ts';
import { targetsEnv, testKeyOf, type TargetEntry } from '../src/harness/targets.ts';
import { changedCandidates, type ChangedInputs } from './changed.ts';
import { loadClauseIndex } from '../src/report/clause-index.ts';
import { startProxy, type RunningProxy, type Transform } from './proxy.ts';
import { recordReach, selectedTests, type ReachRecorder, type Reached } from './reach.ts';

const catalogueConfig = fileURLToPath(new URL('playwright.config.ts', import.meta.url));
/**
 * The catalogue's five seeds. `npm test` runs the catalogue on one of them, which turns with the
 * commit (rotationOf); test/catalogue/mutant-catalogue.test.ts runs the sandbox and a sample of mutants that
 * turns too on all five (their verdicts and failed clauses must agree); --all-seeds runs the matrix.
 */
export const catalogueSeeds = [1, 42, 20240501, 987_654_321, 2_147_483_647];
/** The catalogue's turns: over five runs of consecutive turns each candidate meets every seed once and is fully checked once. */
export const rotationTurns = catalogueSeeds.length;
export const rotationEnv = 'CHECKOUT_CONFORMANCE_ROTATION';
/**
 * fast-check cases per property, for every candidate: every run exercises every input class of every
 * clause (src/generators/classes.ts) and the model's directed sequences, so the draws only come on top,
 * and a mutant that needs more than 10 of them to be killed on whichever seed its turn gives is a class missing.
 * The model of the whole service keeps its default number of random sequences, for the same reason.
 */
export const candidateRuns = 10;
/** Workers of the Playwright run beside the catalogue's (the candidates reach does not choose tests for): half of the catalogue's. */
const besideWorkers = 2 * availableParallelism();
/**
 * The credentials every candidate is called with, as a partner's run would carry them: the sandbox
 * ignores them, and a variant that refuses calls without them (SEC-1) gets them.
 */
const catalogueHeaders = { authorization: `Basic ${Buffer.from('catalogue:sandbox-private-key').toString('base64')}` };
// Within the 65 minutes test/catalogue/mutant-catalogue.test.ts allows, so that a run this slow still ends with the matrix.
const catalogueTimeoutMs = 60 * 60_000;

export interface Candidate {
  name: string;
  /** The clause a mutant must make fail; null for a benign variant. */
  clause: string | null;
  /** Other clauses the mutant's fault legitimately breaks too; any other that fails is collateral blame. */
  disturbs: string[];
  transform: Transform;
  /** This candidate's own seed and cases per property (--seed, --all-seeds, --runs). */
  seed?: number;
  runs?: number;
  /**
   * A mutant runs every test of its clause, as a whole run would, and so proves no clause outside
   * what it disturbs fails; otherwise its tests stop at the first that fails its clause (the proof).
   * A benign variant runs every test that reaches it; otherwise a fifth of them, another each turn (turnsSlice).
   */
  fullCheck?: boolean;
  /**
   * How its tests are chosen: those that reach it (mutants/reach.ts, the default); every test of its
   * clause (a benign variant's: every test), whatever the seed makes reach; or every test of the
   * suite, what the selection is measured against.
   */
  testsBy?: 'reach' | 'clause' | 'whole suite';
}

export interface Outcome {
  name: string;
  clause: string | null;
  /** The seed it ran with: `npm run mutants -- --seed N <name>` runs it again. */
  seed: number;
  verdict: string;
  failedClauses: string[];
  /** Failed clauses the mutant may not disturb: the suite blamed a clause the fault does not break. */
  collateral: string[];
  /** How many times its transform fired (mutants/proxy.ts): none means it tried nothing. */
  effects: number;
  /** No test reaches what it changes (mutants/reach.ts), so none ran. */
  unreached: boolean;
  /** Tests chosen for it that produced no result in a run that was not cut short: chosen, then never declared or run. */
  notRun: string[];
  /** Killed with no collateral blame (a mutant), or conformant (a benign variant), its transform having fired. */
  asExpected: boolean;
  /** Its full check (every test), or the part a turn runs: a mutant's tests up to the first kill, a benign variant's fifth. */
  checked: Checked;
  /** Why the run went wrong, where it did. */
  problem: string | null;
  /** The report's folder, kept where the outcome is not the expected one. */
  reportDir: string | null;
}

/**
 * This run's turn of the rotation: the environment's (to replay a CI run), else taken from the
 * commit checked out, so that each new commit's CI takes the catalogue a turn further.
 */
export function rotationOf(environment = process.env): number {
  const given = environment[rotationEnv];
  if (given !== undefined) {
    const turn = Number(given);
    if (!Number.isSafeInteger(turn) || turn < 0) throw new Error(`${rotationEnv} takes a turn from 0 to ${rotationTurns - 1}, not ${given}`);
    return turn % rotationTurns;
  }
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return Number.parseInt(commit.slice(0, 8), 16) % rotationTurns;
  } catch {
    return 0;
  }
}

/**
 * Every candidate of the catalogue, in the catalogue's order, on this turn: every candidate takes the
 * turn's seed (one run of the suite on the sandbox then tells which tests reach each candidate,
 * mutants/reach.ts), and mutant i is fully checked where (i + turn) mod 5 is 0, a benign variant runs
 * a fifth of its tests, another each turn (turnsSlice). Five consecutive turns give each candidate
 * every seed and its full check: a mutant's on one turn, a benign variant's over the five. A mutant
 * generated from operators × sites comes on one turn in five, fully checked (all of them where
 * `everyGenerated`, as when one is named).
 */
export function candidates(turn = 0, { everyGenerated = false } = {}): (Candidate & { seed: number })[] {
  const handWritten = mutants.filter(({ name }) => !generatedNames.has(name));
  const generated = mutants.filter(({ name }) => generatedNames.has(name) && (everyGenerated || turnOfKey(name) === turn % rotationTurns));
  const seed = catalogueSeeds[turn % rotationTurns];
  const asCandidate = ({ name, clause, disturbs = [], transform }: Mutant) => ({ name, clause, disturbs, transform, seed });
  return [
    ...handWritten.map((mutant, index) => ({ ...asCandidate(mutant), fullCheck: (index + turn) % rotationTurns === 0 })),
    ...generated.map((mutant) => ({ ...asCandidate(mutant), fullCheck: true })),
    ...benignVariants.map(({ name, transform }) => ({ name, clause: null, disturbs: [], transform, seed, fullCheck: false })),
  ];
}

/** The catalogue as `npm test` runs it: every candidate once, on this turn's seed and full checks. */
export function catalogueAsTested(turn = rotationOf()): (Candidate & { seed: number })[] {
  return candidates(turn);
}

export type Checked = 'every test' | 'to the first kill' | 'a fifth of its tests';

export function checkedOf(candidate: Candidate): Checked {
  if (candidate.fullCheck) return 'every test';
  if (candidate.clause !== null) return 'to the first kill';
  return chosenByReach(candidate) ? 'a fifth of its tests' : 'every test';
}

/** The turn a key falls to, the same whatever else changes. */
const turnOfKey = (key: string) => createHash('sha256').update(key).digest()[0] % rotationTurns;

/**
 * The tests a benign variant runs on a turn: the fifth of `tests` whose key, with the variant's name,
 * falls to this turn (a variant's test falls to the same turn whatever the seed, so five consecutive
 * turns run every test that reaches it: its full check, for the cost of a fifth a turn; the variants
 * that change every answer reach the whole suite), with at least one test known to reach its change,
 * so that it fires (every one of them where there are at most fewReaching). The variant's name
 * spreads one test's runs over the turns: the model's tests, the longest, fall to no turn for every
 * variant at once.
 */
export function turnsSlice<T>(variant: string, tests: T[], turn: number, keyOf: (test: T) => string, known: (test: T) => boolean = () => true): T[] {
  const reaching = tests.filter(known).sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  // A change that few tests showed (a race) may not come again in one of them: each of them runs.
  const ownTurn = (test: T) => turnOfKey(`${variant} › ${keyOf(test)}`) === turn % rotationTurns || (reaching.length <= fewReaching && known(test));
  const slice = tests.filter(ownTurn);
  if (reaching.length > 0 && !slice.some(known)) slice.push(reaching[turn % reaching.length]);
  return slice.length > 0 || tests.length === 0 ? slice : [tests[turn % tests.length]];
}
/** At most this many tests known to reach a benign variant's change: every turn runs them all. */
const fewReaching = 3;

/** A few of the list, spread over it, a different few each turn. */
function turningSample<T>(list: T[], turn: number, size: number): T[] {
  const stride = Math.floor(list.length / size);
  return Array.from({ length: size }, (_, k) => list[(k * stride + turn * 7) % list.length]);
}

/** The mutants the catalogue's test runs on every seed on this turn: a few, a different few each turn. */
export function seedSample(turn = rotationOf(), size = 3): (Candidate & { seed: number })[] {
  return turningSample(
    candidates(turn).filter((candidate) => candidate.clause !== null),
    turn,
    size,
  );
}

/** The benign variants the catalogue's test runs on the whole suite as well as on the tests that reach them: a few, a different few each turn. */
export function benignSample(turn = rotationOf(), size = 2): (Candidate & { seed: number })[] {
  return turningSample(
    candidates(turn).filter((candidate) => candidate.clause === null),
    turn,
    size,
  );
}

/** A target, running: its sandbox, the proxy in front of it, and its run config. */
interface Target {
  sandbox: Sandbox;
  proxy: RunningProxy;
  run: RunConfig;
  runConfigFile: string;
}

type SharedRunConfig = Omit<RunConfig, 'baseUrl' | 'runs' | 'outDir' | 'seed'>;

async function startTarget(
  name: string,
  transform: Transform,
  draws: { seed: number; runs: number },
  shared: SharedRunConfig,
  configDir: string,
): Promise<Target> {
  const sandbox = await startSandbox({ port: 0, db: ':memory:', retryDelaysMs: [200, 200] });
  const proxy = await startProxy({ upstream: sandbox, transform }).catch(async (error: unknown) => {
    await sandbox.close();
    throw error;
  });
  const run: RunConfig = { ...shared, baseUrl: proxy.url, ...draws, outDir: mkdtempSync(join(tmpdir(), `mutant-${name}-`)) };
  const runConfigFile = join(configDir, `${name}.json`);
  writeFileSync(runConfigFile, JSON.stringify(run));
  return { sandbox, proxy, run, runConfigFile };
}

async function stopTarget({ proxy, sandbox }: Target): Promise<void> {
  await proxy.close();
  await sandbox.close();
}

/** One Playwright run of the catalogue's config over these targets (with its own number of workers, where given). */
async function runTargets(entries: TargetEntry[], configDir: string, interruption: ReturnType<typeof watchInterruption>, workers?: number): Promise<void> {
  if (interruption.reason() || entries.length === 0) return;
  const targetsFile = join(configDir, `targets-${randomUUID()}.json`);
  writeFileSync(targetsFile, JSON.stringify(entries));
  // Playwright's console reporter would print every expected failure of every mutant: the matrix says what matters.
  const args = ['test', '--config', catalogueConfig, '--global-timeout', String(catalogueTimeoutMs), ...(workers ? ['--workers', String(workers)] : [])];
  await playwright(args, { ...process.env, [targetsEnv]: targetsFile }, catalogueTimeoutMs + stopGraceMs, 'ignore');
}

/** What the sandbox run behind a reach recorder gave: each candidate's reach, and the tests as they ran on the sandbox. */
interface SandboxRun {
  reached: Map<string, Reached>;
  tests: RawTest[];
  /** Its run config; its folder is kept where `kept` named its draws (a candidate's outcome is read from it), else removed. */
  run: RunConfig;
}

const chosenByReach = (candidate: Candidate) => (candidate.testsBy ?? 'reach') === 'reach';
const drawsOf = (candidate: Candidate & { seed: number }) => ({ seed: candidate.seed, runs: candidate.runs ?? candidateRuns });
const drawsKey = (draws: { seed: number; runs: number }) => `${draws.seed}-${draws.runs}`;

/**
 * The suite on the sandbox once for each seed and number of draws among the candidates (the tests'
 * requests depend on them), each behind a proxy that records which tests reach each candidate.
 * The folders of the runs on the draws `kept` names stay, for the caller to remove.
 */
async function learnReach(
  list: (Candidate & { seed: number })[],
  shared: SharedRunConfig,
  configDir: string,
  interruption: ReturnType<typeof watchInterruption>,
  kept: Set<string>,
): Promise<Map<string, SandboxRun>> {
  const groups = new Map<string, (Candidate & { seed: number })[]>();
  for (const candidate of list) {
    const key = drawsKey(drawsOf(candidate));
    groups.set(key, [...(groups.get(key) ?? []), candidate]);
  }
  const recorders = new Map<string, { recorder: ReachRecorder; target: Target }>();
  let learned = false;
  try {
    for (const [key, group] of groups) {
      const recorder = recordReach(group);
      recorders.set(key, { recorder, target: await startTarget(`sandbox-reach-${key}`, recorder.transform, drawsOf(group[0]), shared, configDir) });
    }
    const entries: TargetEntry[] = [...recorders].map(([key, { target }]) => ({
      name: `sandbox-reach-${key}`,
      clause: null,
      tests: null,
      marksTests: true,
      stopOnceFailed: null,
      runConfigFile: target.runConfigFile,
    }));
    await runTargets(entries, configDir, interruption);
    const runs = new Map<string, SandboxRun>();
    for (const [key, { recorder, target }] of recorders) {
      await recorder.settled();
      const tests = readRawResults(target.run.outDir)?.tests ?? [];
      const failed = tests.filter((test) => test.status === 'failed').map((test) => `${test.title} (${test.reason?.split('\n')[0]})`);
      console.error(
        `mutants: on the sandbox, seed ${target.run.seed}: ${tests.length} tests, ${failed.length} failed${failed.length ? ` (every benign variant runs them): ${failed.join('; ')}` : ''}`,
      );
      runs.set(key, { reached: recorder.reached, tests, run: target.run });
    }
    learned = true;
    return runs;
  } finally {
    for (const [key, { target }] of recorders) {
      await stopTarget(target);
      if (!learned || !kept.has(key)) rmSync(target.run.outDir, { recursive: true, force: true });
    }
  }
}

/**
 * The Chromium every worker connects to. Chromium 156 gives every window (here, every page) two
 * omnibox-popup WebUI renderers, which cost more CPU than the pages themselves (measured: a third
 * of a benign variant's CPU). Disabling them takes a --disable-features, and Chromium keeps only the
 * last one: Playwright's own list is read from a first launch and extended.
 */
async function startSharedChromium(executablePath: string): Promise<BrowserServer> {
  // --enable-automation: without it, Chromium does not tell its command line.
  const probe = await chromium.launch({ executablePath, args: [...chromiumArgs, '--enable-automation'], headless: true });
  const session = await probe.newBrowserCDPSession();
  const { arguments: commandLine } = await session.send('Browser.getBrowserCommandLine');
  await probe.close();
  const playwrightsFeatures = commandLine.filter((arg) => arg.startsWith('--disable-features='));
  const features = [...playwrightsFeatures.map((arg) => arg.slice('--disable-features='.length)), 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];
  return chromium.launchServer({
    executablePath,
    args: [...chromiumArgs, `--disable-features=${features.join(',')}`],
    ignoreDefaultArgs: playwrightsFeatures,
    headless: true,
    // Not Playwright's signal handlers: they would end this process before the reports are written.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/**
 * Runs the candidates: first the suite on the sandbox, learning which tests reach each candidate
 * (mutants/reach.ts), then every candidate in one Playwright run, each on the tests that reach it.
 * The outcomes are in the order of `list`.
 */
export async function runCandidates(list: Candidate[], options: { seed?: number; turn?: number } = {}): Promise<Outcome[]> {
  const turn = options.turn ?? rotationOf();
  const startedAt = new Date().toISOString();
  const interruption = watchInterruption();
  const configDir = mkdtempSync(join(tmpdir(), 'mutants-'));
  const seeded = list.map((candidate) => ({ ...candidate, seed: options.seed ?? candidate.seed ?? catalogueSeeds[0] }));
  const generated = list.filter((candidate) => generatedNames.has(candidate.name)).length;
  if (generated > 0) console.error(`mutants: ${generated} of ${generatedCatalogue} in this run`);
  const targets = new Map<Candidate, Target>();
  /** The candidates whose run is the one that learned reach. */
  const reachRuns = new Map<Candidate, RunConfig>();
  const selections = new Map<Candidate, Selection>();
  const effects = new Map<string, number>();
  let browser: BrowserServer | null = null;
  let besideRun: Promise<void> = Promise.resolve();
  try {
    const profile = loadProfile(builtInProfile('sandbox.json'));
    const found = await findChromium();
    console.error(`browser: ${describeBrowser(found)}`);
    if (found.executablePath) browser = await startSharedChromium(found.executablePath);
    const shared: SharedRunConfig = {
      targetKind: 'url',
      profile: { ...profile, timeouts: { ...profile.timeouts, eventMs: catalogueEventMs } },
      headers: { ...profile.headers, ...catalogueHeaders },
      strict: true,
      allowWrites: false,
      callbackHost: '127.0.0.1',
      publicCallbackUrl: null,
      chromium: browser && found.executablePath ? { ...found, wsEndpoint: browser.wsEndpoint() } : found,
    };
    const entryOf = (candidate: Candidate, { runConfigFile }: Target): TargetEntry => ({
      name: candidate.name,
      clause: candidate.testsBy === 'whole suite' ? null : candidate.clause,
      tests: selections.get(candidate)?.tests.map(({ file, title, durationMs }) => ({ file, title, durationMs })) ?? null,
      marksTests: false,
      stopOnceFailed: checkedOf(candidate) === 'to the first kill' ? candidate.clause : null,
      runConfigFile,
    });
    // Benign variants first: they run the most tests, so they should not be the ones left at the end.
    const benignFirst = (list: (Candidate & { seed: number })[]) => [...list].sort((a, b) => Number(a.clause !== null) - Number(b.clause !== null));
    // The candidates whose tests reach does not choose run in a Playwright run of their own, beside the
    // others' (the suite that learns reach, then theirs): each fills the cores the other leaves idle.
    const byReach = benignFirst(seeded.filter(chosenByReach));
    // The whole suite on the sandbox itself, on draws the suite that learns reach runs on anyway, is that run.
    const reachDraws = new Set(byReach.map((candidate) => drawsKey(drawsOf(candidate))));
    const isReachRun = (candidate: Candidate & { seed: number }) =>
      !chosenByReach(candidate) && candidate.clause === null && Object.keys(candidate.transform).length === 0 && reachDraws.has(drawsKey(drawsOf(candidate)));
    const notByReach = benignFirst(seeded.filter((candidate) => !chosenByReach(candidate) && !isReachRun(candidate)));
    for (const candidate of notByReach) targets.set(candidate, await startTarget(candidate.name, candidate.transform, drawsOf(candidate), shared, configDir));
    besideRun = runTargets(
      notByReach.map((candidate) => entryOf(candidate, targets.get(candidate)!)),
      configDir,
      interruption,
      besideWorkers,
    );
    const keptDraws = new Set(seeded.filter(isReachRun).map((candidate) => drawsKey(drawsOf(candidate))));
    const sandboxRuns = await learnReach(byReach, shared, configDir, interruption, keptDraws);
    for (const candidate of seeded.filter(isReachRun)) reachRuns.set(candidate, sandboxRuns.get(drawsKey(drawsOf(candidate)))!.run);
    for (const candidate of byReach) {
      const sandboxRun = sandboxRuns.get(drawsKey(drawsOf(candidate)))!;
      const reach = sandboxRun.reached.get(candidate.name)!;
      const selected = selectedTests(candidate, reach, sandboxRun.tests);
      // A benign variant that changes what no test can be told for may meet any test: its fifths are of every test.
      const tests =
        checkedOf(candidate) === 'a fifth of its tests'
          ? turnsSlice(candidate.name, selected ?? sandboxRun.tests, turn, testKeyOf, (test) =>
              (reach.changed.size > 0 ? reach.changed : reach.tests).has(testKeyOf(test)),
            )
          : selected;
      if (tests) selections.set(candidate, { tests, sandboxTests: sandboxRun.tests, firedInReach: reach.changed.size > 0 });
      targets.set(candidate, await startTarget(candidate.name, candidate.transform, drawsOf(candidate), shared, configDir));
    }
    const selectedCount = [...selections.values()].reduce((sum, { tests }) => sum + tests.length, 0);
    console.error(
      `mutants: ${selectedCount} tests selected by reach for ${selections.size} candidates, the other ${seeded.length - selections.size} by their clause (these beside the sandbox's run)`,
    );
    await runTargets(
      byReach.map((candidate) => entryOf(candidate, targets.get(candidate)!)),
      configDir,
      interruption,
    );
    await besideRun;
  } catch (error) {
    await besideRun.catch(() => undefined);
    for (const { outDir } of [...[...targets.values()].map(({ run }) => run), ...reachRuns.values()]) rmSync(outDir, { recursive: true, force: true });
    throw error;
  } finally {
    for (const [candidate, target] of targets) {
      effects.set(candidate.name, target.proxy.effects());
      await stopTarget(target);
    }
    await browser?.close();
    rmSync(configDir, { recursive: true, force: true });
    interruption.stop();
  }
  const finishedAt = new Date().toISOString();
  return seeded.map((candidate) =>
    outcomeOf(
      candidate,
      targets.get(candidate)?.run ?? reachRuns.get(candidate)!,
      selections.get(candidate) ?? null,
      { startedAt, finishedAt },
      interruption.reason(),
      effects.get(candidate.name) ?? 0,
    ),
  );
}

/** The tests a candidate ran by reach, and the sandbox's run they were chosen from. */
interface Selection {
  tests: RawTest[];
  sandboxTests: RawTest[];
  /** The candidate changed what the suite sent or got in the run that learned reach, on the same draws. */
  firedInReach: boolean;
}

/** The candidate's report, built as `checkout-conformance run` builds it, and judged; its folder is kept only when the outcome is unexpected. */
function outcomeOf(
  candidate: Candidate,
  run: RunConfig,
  selection: Selection | null,
  times: { startedAt: string; finishedAt: string },
  runFailure: string | null,
  effects: number,
): Outcome {
  const ran = readRawResults(run.outDir);
  // A benign variant's report is its whole run's: the tests it did not reach ran as on the sandbox.
  const selected = new Set(selection?.tests.map(testKeyOf));
  const raw =
    ran && selection && candidate.clause === null
      ? { ...ran, tests: [...ran.tests, ...selection.sandboxTests.filter((test) => !selected.has(testKeyOf(test)))] }
      : ran;
  const report = buildReport(
    clauses(),
    raw,
    {
      baseUrl: run.baseUrl,
      targetKind: run.targetKind,
      profileName: run.profile.name,
      profilePath: null,
      findings: [],
      seed: run.seed,
      runs: run.runs,
      strict: run.strict,
      // A mutant runs the checks of its own clause only: the run is partial by design.
      allowPartial: candidate.clause !== null,
      grep: candidate.testsBy === 'whole suite' ? null : candidate.clause,
      shard: null,
      ...times,
    },
    runFailure,
  );
  const failedClauses = report.clauses.filter((clause) => clause.status === 'failed').map((clause) => clause.id);
  const collateral = candidate.clause ? failedClauses.filter((id) => id !== candidate.clause && !candidate.disturbs.includes(id)) : [];
  // A variant that stopped matching what the suite sends would pass as conformant having changed nothing.
  // A fifth of a variant's tests may hold none that fires it alone: what a notification meets is set by
  // other tests (the webhook one test sets notifies the payments of others). That it matches what the
  // suite sends, the run that learned reach shows.
  const fired = effects > 0 || (checkedOf(candidate) === 'a fifth of its tests' && selection?.firedInReach === true);
  const unreached = selection !== null && selection.tests.length === 0;
  const resulted = new Set(ran?.tests.map(testKeyOf));
  const notRun = runFailure === null && ran ? (selection?.tests.map(testKeyOf).filter((key) => !resulted.has(key)) ?? []) : [];
  const asExpected =
    fired && notRun.length === 0 && (candidate.clause ? failedClauses.includes(candidate.clause) && collateral.length === 0 : report.verdict === 'conformant');
  const problem = unreached
    ? `no test${candidate.clause ? ` of ${candidate.clause}` : ''} reaches it on seed ${run.seed}: a hole in the suite, not a pass`
    : notRun.length > 0
      ? `${notRun.length} of the tests chosen for it never ran, a hole in the selection, not a pass: ${notRun.slice(0, 3).join('; ')}${notRun.length > 3 ? '…' : ''}`
      : !fired
        ? 'no effect: its transform never fired'
        : collateral.length > 0
          ? `collateral blame: ${collateral.join(', ')} failed too`
          : report.reason;
  if (asExpected) rmSync(run.outDir, { recursive: true, force: true });
  else writeReport(run.outDir, report, secretsOfRun(run.headers, run.profile));
  return {
    name: candidate.name,
    clause: candidate.clause,
    seed: run.seed,
    verdict: report.verdict,
    failedClauses,
    collateral,
    effects,
    unreached,
    notRun,
    asExpected,
    checked: checkedOf(candidate),
    problem,
    reportDir: asExpected ? null : run.outDir,
  };
}

/** The candidates an operator makes at a site, mutants and twins: the others were written by hand, for what no operator generates. */
const fromOperators = new Set([...generatedNames, ...operatorTwins.map(({ name }) => name)]);

/** Where a candidate comes from, by its name without what a run adds to it (`@seed`, `:selected`). */
function originOf(name: string): 'operator' | 'by hand' | '-' {
  const candidate = name.replace(/[@:].*$/, '');
  return candidate === 'sandbox' ? '-' : fromOperators.has(candidate) ? 'operator' : 'by hand';
}

export function formatMatrix(outcomes: Outcome[]): string {
  const rows = outcomes.map((outcome) => [
    outcome.name,
    originOf(outcome.name),
    outcome.clause ?? 'benign',
    String(outcome.seed),
    outcome.checked,
    outcome.verdict,
    outcome.failedClauses.join(' ') || '-',
    resultOf(outcome),
  ]);
  const header = ['mutant', 'from', 'expected clause', 'seed', 'tests run', 'verdict', 'clauses failed', 'result'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd();
  const problems = outcomes
    .filter((outcome) => !outcome.asExpected)
    .map((outcome) => `  ${outcome.name}: ${outcome.problem ?? 'see the report'} (${outcome.reportDir})`);
  return [line(header), ...rows.map(line), ...(problems.length ? ['', 'problems:', ...problems] : []), '', summaryLine(outcomes)].join('\n');
}

function resultOf(outcome: Outcome): string {
  if (outcome.unreached) return 'UNREACHED';
  if (outcome.notRun.length > 0) return 'NOT RUN';
  // A benign variant's fifth of its tests may meet none that fires it, where the run that learned reach saw it fire.
  if (outcome.effects === 0 && !outcome.asExpected) return 'NO EFFECT';
  if (!outcome.clause) return outcome.asExpected ? 'conformant' : 'FLAGGED';
  if (outcome.collateral.length > 0) return `COLLATERAL ${outcome.collateral.join(' ')}`;
  return outcome.asExpected ? 'killed' : 'SURVIVED';
}

export function summaryLine(outcomes: Outcome[]): string {
  const ofKind = (mutant: boolean) => outcomes.filter((outcome) => (outcome.clause !== null) === mutant);
  const count = (list: Outcome[]) => `${list.filter((outcome) => outcome.asExpected).length}/${list.length}`;
  const byOrigin = (list: Outcome[]) =>
    `(from operators ${count(list.filter(({ name }) => originOf(name) === 'operator'))}, by hand ${count(list.filter(({ name }) => originOf(name) === 'by hand'))})`;
  return `mutants killed: ${count(ofKind(true))} ${byOrigin(ofKind(true))}, benign conformant: ${count(ofKind(false))} ${byOrigin(ofKind(false))}`;
}

/** Each candidate once on every catalogue seed, named `name@seed`. */
export function onEverySeed<T extends Candidate>(list: T[]): (T & { seed: number })[] {
  return catalogueSeeds.flatMap((seed) => list.map((candidate) => ({ ...candidate, name: `${candidate.name}@${seed}`, seed })));
}

/** The outcomes of candidates run by onEverySeed, by the candidate's own name (without its `@seed`); the others are left out. */
export function outcomesByCandidate(outcomes: Outcome[]): Map<string, Outcome[]> {
  const byCandidate = new Map<string, Outcome[]>();
  for (const outcome of outcomes) {
    const at = outcome.name.lastIndexOf('@');
    if (at < 0) continue;
    const name = outcome.name.slice(0, at);
    byCandidate.set(name, [...(byCandidate.get(name) ?? []), outcome]);
  }
  return byCandidate;
}

/** The candidates run by onEverySeed whose verdict or failed clauses differ with the seed, each with what each seed gave. */
export function seedDisagreements(outcomes: Outcome[]): string[] {
  return [...outcomesByCandidate(outcomes)]
    .filter(([, mine]) => new Set(mine.map(verdictOf)).size > 1)
    .map(([name, mine]) => `${name}: ${mine.map((outcome) => `seed ${outcome.seed} ${verdictOf(outcome)}`).join('; ')}`);
}

/** What must not change with the seed: the verdict and the failed clauses; of a mutant stopped at its proof, whether its own clause failed (what else failed by then depends on timing). */
const verdictOf = (outcome: Outcome) =>
  outcome.checked === 'to the first kill'
    ? `${outcome.verdict} (${outcome.clause} ${outcome.failedClauses.includes(outcome.clause!) ? 'failed' : 'held'})`
    : `${outcome.verdict} (${outcome.failedClauses.join(' ') || 'no clause failed'})`;

async function main(args: string[]): Promise<void> {
  const { values, positionals: names } = parseArgs({
    args,
    options: {
      seed: { type: 'string' },
      'all-seeds': { type: 'boolean', default: false },
      runs: { type: 'string' },
      rotation: { type: 'string' },
      changed: { type: 'boolean', default: false },
      since: { type: 'string', default: 'HEAD' },
    },
    allowPositionals: true,
  });
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new Error(`--seed takes an integer, not ${values.seed}`);
  if (seed !== undefined && values['all-seeds']) throw new Error('--seed and --all-seeds exclude each other');
  const runs = values.runs === undefined ? undefined : Number(values.runs);
  if (runs !== undefined && !(Number.isSafeInteger(runs) && runs > 0)) throw new Error(`--runs takes a positive integer, not ${values.runs}`);
  const turn = rotationOf(values.rotation === undefined ? process.env : { [rotationEnv]: values.rotation });
  // Named candidates are a developer's question about them: each runs every test of its clause.
  if (values.changed && names.length > 0) throw new Error('--changed chooses the candidates itself: name none');
  const named = candidates(turn, { everyGenerated: names.length > 0 || values.changed })
    .filter((candidate) => names.length === 0 || names.includes(candidate.name))
    .map((candidate) => (names.length > 0 ? { ...candidate, fullCheck: true } : candidate));
  if (named.length === 0) throw new Error(`no mutant or variant named ${names.join(', ')}`);
  const chosen = values.changed ? changedCandidates(named, changedSince(values.since)) : named;
  if (values.changed) console.error(`mutants: ${chosen.length} of ${named.length} candidates reached by what changed since ${values.since}`);
  if (chosen.length === 0) return;
  const seeded = values['all-seeds'] ? onEverySeed(chosen) : chosen;
  const list = seeded.map((candidate) => (runs === undefined ? candidate : { ...candidate, runs }));
  console.error(`mutants: ${list.length} candidates in one Playwright run, turn ${turn} of the rotation (--rotation ${turn} replays it)…`);
  const outcomes = await runCandidates(list, { seed, turn });
  console.log(formatMatrix(outcomes));
  const disagreements = seedDisagreements(outcomes);
  for (const line of disagreements) console.log(`differs with the seed: ${line}`);
  process.exitCode = outcomes.every((outcome) => outcome.asExpected) && disagreements.length === 0 ? 0 : 1;
}

/** What changed since a commit (committed, staged, in the work tree, or new), and the sources and index that map it to candidates. */
function changedSince(commit: string): ChangedInputs {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  const changedFiles = [...new Set([...git('diff', '--name-only', commit), ...git('ls-files', '--others', '--exclude-standard')])];
  const sourceFiles = ['src/checks', 'mutants']
    .flatMap((folder) => readdirSync(join(root, folder)).map((name) => `${folder}/${name}`))
    .filter((file) => file.endsWith('.ts'));
  return {
    changedFiles,
    index: [...loadClauseIndex().values()],
    sources: new Map(sourceFiles.map((file) => [file, readFileSync(join(root, file), 'utf8')])),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`mutants: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  });
}
