/**
 * The specs' property runner: fast-check over a predicate that returns the problems a case found,
 * its cases overlapping until one fails, then shrunk one by one, the counterexample's exchanges kept
 * as the test's evidence.
 */
import fc from 'fast-check';
import { describeProblems, type Exchange, type Problem } from '../checks/index.ts';
import type { PropertyRun } from '../core/evidence.ts';
import type { Api } from './api.ts';
import { inParallel } from './pace.ts';

export interface PropertyOptions<T = unknown> {
  /** Overrides the run's number of cases, for properties whose cases are slow. */
  runs?: number;
  /** Stops the cases, and the shrinking of a failure (the smallest failing case found so far is kept), after this long. */
  timeLimitMs?: number;
  /** Cases tried first on every run, whatever the seed (fast-check's examples): the classes a run must not leave to chance. */
  examples?: T[];
}
/** What a case answers where it was not run (a time budget over): the property run records only the cases that ran. */
export const leftOut = Symbol('left out');
export type Property = <T>(
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<Problem[] | typeof leftOut>,
  options?: PropertyOptions<T>,
) => Promise<void>;

export interface PropertySettings {
  seed: number;
  /** Cases per property, unless its options say otherwise. */
  runs: number;
  /** Cases tried at once before a failure. */
  concurrency: number;
  /** --replay-path: only this failing case runs, unshrunk. */
  replayPath?: string;
  /**
   * False where a failure needs no counterexample, only its problems: a candidate of the mutant
   * catalogue that stops at its proof. Its first failing case, run again alone, is the verdict, unshrunk.
   */
  shrink?: boolean;
}

/**
 * A failing case's replay path (--replay-path): fast-check's counterexample path, and, where the
 * case is a sequence of fc.commands, their replayPath after "@", so that the sequence comes back as
 * shrunk without shrinking again.
 */
export function replayPathOf(counterexamplePath: string, counterexample: unknown): string {
  const commands = /replayPath="([^"]*)"/.exec(String(counterexample))?.[1];
  return commands ? `${counterexamplePath}@${commands}` : counterexamplePath;
}

/** A replay path's parts: fast-check's path, and the commands' replayPath where it has one. */
export function replayPathParts(replayPath: string): { path: string; commands: string | undefined } {
  const [path, commands] = replayPath.split('@');
  return { path, commands };
}

/** A case that found problems: its value, the problems, and the exchanges it made. */
interface FailingCase<T> {
  value: T;
  problems: Problem[];
  exchanges: readonly Exchange[];
}

/**
 * Whether the predicate finds no problem in any of the values, tried `concurrency` at a time (no
 * new one starts after a failure, a problem or an error), of how many it ran (not left out), and
 * the first case that found some.
 */
async function allHold<T>(
  values: T[],
  predicate: (value: T) => Promise<Problem[] | typeof leftOut>,
  concurrency: number,
  api: Api,
): Promise<{ held: boolean; ran: number; failing?: FailingCase<T> }> {
  let ran = 0;
  let failing: FailingCase<T> | undefined;
  try {
    await inParallel(
      values,
      async (value) => {
        const { result: problems, exchanges } = await api.madeBy(() => predicate(value));
        if (problems === leftOut) return;
        ran++;
        if (problems.length > 0) {
          failing ??= { value, problems, exchanges };
          throw new Error('a problem');
        }
      },
      concurrency,
    );
    return { held: true, ran };
  } catch {
    return { held: false, ran, ...(failing && { failing }) };
  }
}

/** Runs properties through the test's client, handing each run's seed, cases and counterexample to attachRun. */
export function propertyRunner(
  { seed, runs: runsOfRun, concurrency, replayPath, shrink = true }: PropertySettings,
  api: Api,
  attachRun: (propertyRun: PropertyRun) => Promise<void>,
): Property {
  return async (arbitrary, predicate, options = {}) => {
    const runs = options.runs ?? runsOfRun;
    // First the cases fc.check tries, drawn from the same seed, several at a time (their requests
    // overlap). Only where one fails does fc.check go through them one by one, to shrink it. A
    // replay (--replay-path) goes straight to its case.
    const examples = options.examples ?? [];
    const firstPass = replayPath
      ? { held: false, ran: 0 }
      : await allHold([...examples, ...fc.sample(arbitrary, { seed, numRuns: runs })], predicate, concurrency, api);
    if (firstPass.held) {
      await attachRun({ seed, runs: firstPass.ran });
      return api.expectNoProblems([]);
    }
    // Alone, as fast-check would run it again: beside the other cases, what a case meets (a webhook
    // they share) may blame another clause than the fault's.
    const alone = !shrink && firstPass.failing ? await predicate(firstPass.failing.value) : [];
    if (alone !== leftOut && alone.length > 0) {
      await attachRun({ seed, runs: firstPass.ran });
      return api.expectNoProblems(alone);
    }
    api.forget();
    let lastFailure: { problems: Problem[]; exchanges: readonly Exchange[] } | null = null;
    const result = await fc.check(
      fc.asyncProperty(arbitrary, async (value) => {
        const from = api.exchanges.length;
        const problems = await predicate(value);
        if (problems === leftOut || problems.length === 0) return;
        lastFailure = { problems, exchanges: api.exchanges.slice(from) };
        throw new Error(describeProblems(problems));
      }),
      {
        seed,
        numRuns: runs,
        examples: examples.map((example) => [example]),
        ...(replayPath && { path: replayPathParts(replayPath).path, endOnFailure: true }),
        ...(options.timeLimitMs !== undefined && { interruptAfterTimeLimit: options.timeLimitMs }),
      },
    );
    const propertyRun: PropertyRun = {
      seed,
      runs,
      ...(result.failed && {
        path: result.counterexamplePath === null ? undefined : replayPathOf(result.counterexamplePath, result.counterexample?.[0]),
        counterexample: result.counterexample?.[0],
      }),
    };
    await attachRun(propertyRun);
    if (!result.failed) return api.expectNoProblems([]);
    // Keep only the counterexample's exchanges as evidence: replay it once.
    api.forget();
    const counterexample = result.counterexample?.[0];
    const replay = counterexample === undefined ? [] : await predicate(counterexample as never);
    const replayed = replay === leftOut ? [] : replay;
    const shrunk = `${replayPath ? 'replayed' : 'shrunk'} counterexample (seed ${seed}, path ${propertyRun.path}): ${JSON.stringify(counterexample)}`;
    if (replayed.length > 0) {
      api.note({ request: null, response: null, note: shrunk });
      api.expectNoProblems(replayed);
    }
    // The replay passed (the target answers the same request differently: a reference drawn at
    // random), or fc.check's time ran out before any case ended (interrupted, it counts that a
    // failure): the last failing case of the run is the evidence, else the first pass's.
    const failure = (lastFailure as { problems: Problem[]; exchanges: readonly Exchange[] } | null) ?? firstPass.failing ?? null;
    if (!failure) throw new Error(api.masked(`property failed (seed ${seed}): ${failedWith(result, options.timeLimitMs)}`));
    api.forget(failure.exchanges);
    const why = lastFailure
      ? `${shrunk}; its replay passed, so the evidence is the run's last failing case`
      : `${failedWith(result, options.timeLimitMs)}: the evidence is the first failing case`;
    api.note({ request: null, response: null, note: why });
    api.expectNoProblems(failure.problems);
  };
}

/** Why fc.check failed where no case of it found a problem: the error a case threw, or its time running out. */
function failedWith(result: Pick<fc.RunDetails<unknown>, 'errorInstance' | 'interrupted'>, timeLimitMs: number | undefined): string {
  if (result.errorInstance != null) return String(result.errorInstance);
  return result.interrupted ? `no case ended within its time limit (${timeLimitMs} ms)` : 'no case failed';
}
