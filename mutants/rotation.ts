/**
 * The catalogue's rotation: its five seeds, the candidates of a turn (which mutants are fully
 * checked, which fifth of its tests a benign variant runs), and the samples its own test runs on
 * every seed.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { benignVariants, generatedNames, mutants } from './catalogue.ts';
import { missedAtFirstSight } from './first-sight/index.ts';
import type { Mutant } from './kinds.ts';
import type { Transform } from './proxy.ts';

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
export function candidates(turn = 0, { everyGenerated = false, withMissedAtFirstSight = false } = {}): (Candidate & { seed: number })[] {
  const handWritten = [...mutants.filter(({ name }) => !generatedNames.has(name)), ...(withMissedAtFirstSight ? missedAtFirstSight : [])];
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
export const turnOfKey = (key: string) => createHash('sha256').update(key).digest()[0] % rotationTurns;

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

export const chosenByReach = (candidate: Candidate) => (candidate.testsBy ?? 'reach') === 'reach';
export const drawsOf = (candidate: Candidate & { seed: number }) => ({ seed: candidate.seed, runs: candidate.runs ?? candidateRuns });
export const drawsKey = (draws: { seed: number; runs: number }) => `${draws.seed}-${draws.runs}`;

/** Each candidate once on each of the seeds (every catalogue seed where none are given), named `name@seed`. */
export function onEverySeed<T extends Candidate>(list: T[], seeds: readonly number[] = catalogueSeeds): (T & { seed: number })[] {
  return seeds.flatMap((seed) => list.map((candidate) => ({ ...candidate, name: `${candidate.name}@${seed}`, seed })));
}

/** The seeds a turn compares: its own and the next turn's, so that over five turns each pair of neighbours is compared once. */
export const seedsOfTurn = (turn: number) => [catalogueSeeds[turn % rotationTurns], catalogueSeeds[(turn + 1) % rotationTurns]];
