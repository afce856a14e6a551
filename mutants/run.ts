/**
 * `npm run mutants [name …]` (or `--first-sight`, every first-sight candidate, those still missed too): runs the suite with --strict against every mutant (expecting its
 * own clause to fail, and no clause it may not disturb) and every benign variant (expecting a
 * conformant verdict), each behind its own proxy in front of its own in-memory sandbox.
 *
 * The whole catalogue is one Playwright run (mutants/playwright.config.ts) in which every candidate
 * is a target (src/harness/targets.ts), and one Chromium that every worker connects to: the start-up of
 * the command line, Playwright, its workers and the browser is paid once, not once per candidate.
 * Each candidate's report is then built from its raw results, as `checkout-conformance run` builds it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { BrowserServer } from '@playwright/test';
import type { RunConfig } from '../src/core/run-config.ts';
import { describeBrowser, findChromium } from '../src/core/chromium.ts';
import { builtInProfile, loadProfile } from '../src/core/profile.ts';
import { watchInterruption } from '../src/runner/run.ts';
import { firstSightNames, generatedNames } from './catalogue.ts';
import { generatedCatalogue } from './operators.ts';
import { catalogueEventMs } from './kinds.ts';
import { testKeyOf, type TargetEntry } from '../src/harness/targets.ts';
import { changedCandidates, type ChangedInputs } from './changed.ts';
import { loadClauseIndex } from '../src/report/clause-index.ts';
import {
  candidates,
  catalogueSeeds,
  chosenByReach,
  checkedOf,
  drawsKey,
  drawsOf,
  rotationEnv,
  rotationOf,
  turnsSlice,
  onEverySeed,
  type Candidate,
} from './rotation.ts';
import {
  besideWorkers,
  catalogueHeaders,
  runTargets,
  startSharedChromium,
  startTarget,
  stopTarget,
  type SharedRunConfig,
  type Target,
} from './candidate-targets.ts';
import { learnReach, selectedTests } from './reach.ts';
import { outcomeOf, seedDisagreements, type Outcome, type Selection } from './outcome.ts';
import { formatMatrix } from './matrix.ts';

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

async function main(args: string[]): Promise<void> {
  const { values, positionals: names } = parseArgs({
    args,
    options: {
      seed: { type: 'string' },
      'all-seeds': { type: 'boolean', default: false },
      runs: { type: 'string' },
      rotation: { type: 'string' },
      changed: { type: 'boolean', default: false },
      'first-sight': { type: 'boolean', default: false },
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
  if ((values.changed || values['first-sight']) && names.length > 0) throw new Error('--changed and --first-sight choose the candidates themselves: name none');
  if (values['first-sight']) names.push(...firstSightNames);
  const named = candidates(turn, { everyGenerated: names.length > 0 || values.changed, withMissedAtFirstSight: names.length > 0 })
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
