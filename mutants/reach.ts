/**
 * Which tests reach each candidate, as Stryker's per-test coverage and PIT's line coverage tell which
 * tests reach a mutant: one run of the whole suite on the sandbox, behind a proxy that applies no
 * candidate but asks every candidate, on a copy of each exchange, whether it would change it. Every
 * request of that run names its test (testKeyHeader); what comes without one (a page's own requests,
 * a notification) is the test's whose identifiers it carries (a notification's, first its address's). A test no candidate's change reaches
 * runs as on the sandbox, so a candidate runs only the tests that reach it. learnReach makes that run.
 */
import { rmSync } from 'node:fs';
import type { RunConfig } from '../src/core/run-config.ts';
import { uuidPattern } from '../src/core/operations.ts';
import { readingBackHeader, testKeyHeader, testKeyOf, type TargetEntry } from '../src/harness/targets.ts';
import { readRawResults, type RawTest } from '../src/report/raw-results.ts';
import type { watchInterruption } from '../src/runner/run.ts';
import { snapshot, type Delivery, type ProxyContext, type ProxyRequest, type ProxyResponse, type Transform } from './proxy.ts';
import { drawsKey, drawsOf, type Candidate } from './rotation.ts';
import { runTargets, startTarget, stopTarget, type SharedRunConfig, type Target } from './candidate-targets.ts';

export interface Reached {
  /** The tests on whose exchanges the candidate would change something, by testKeyOf. */
  tests: Set<string>;
  /** Of those, the tests on whose exchanges it did change something here, not only came close to a race (ProxyContext.mayRace). */
  changed: Set<string>;
  /** It would change something no test could be told for (or on every exchange: a delay): every test may see it. */
  unattributed: boolean;
}

/** What each candidate reaches, by name, and the recording proxy's transform that learns it. */
export interface ReachRecorder {
  transform: Transform;
  reached: Map<string, Reached>;
  /** Waits for the candidates' hooks still running on copies. */
  settled(): Promise<void>;
}

interface Shadowed {
  name: string;
  transform: Transform;
}

/** The identifiers in a value (UUIDs, ids, URL paths' segments) that can tie a later exchange to the test that made them. */
function identifiersIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') {
    if (uuidPattern.test(value) || /^[0-9]{9}$/.test(value) || /^[A-Za-z0-9_-]{16,}$/.test(value)) into.push(value);
    else if (/^https?:\/\//.test(value) && URL.canParse(value)) identifiersIn(segmentsOf(value), into);
  } else if (Array.isArray(value)) for (const item of value) identifiersIn(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) identifiersIn(item, into);
  return into;
}

/** A URL's path segments and query values. */
function segmentsOf(url: string): string[] {
  const parsed = new URL(url, 'http://x');
  return [...parsed.pathname.split('/').map(decodeURIComponentSafely), ...parsed.searchParams.values()];
}

function decodeURIComponentSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const copyOfRequest = (request: ProxyRequest): ProxyRequest => ({
  ...request,
  query: new URLSearchParams(request.query),
  headers: { ...request.headers },
  json: structuredClone(request.json),
});
const copyOfResponse = (response: ProxyResponse): ProxyResponse => ({ ...response, headers: { ...response.headers }, json: structuredClone(response.json) });

export function recordReach(candidates: Shadowed[]): ReachRecorder {
  const reached = new Map(candidates.map(({ name }) => [name, { tests: new Set<string>(), changed: new Set<string>(), unattributed: false }]));
  /** Identifier → the tests whose exchanges carried it; one that several carried tells none. */
  const owners = new Map<string, Set<string>>();
  const testOfRequest = new WeakMap<ProxyRequest, string | null>();
  const running = new Set<Promise<unknown>>();
  const memos = new Map(candidates.map(({ name }) => [name, new Map<string, unknown>()]));

  const own = (test: string, values: unknown) => {
    for (const id of identifiersIn(values)) owners.set(id, (owners.get(id) ?? new Set()).add(test));
  };
  const ownerOf = (values: unknown): string | null => {
    for (const id of identifiersIn(values)) {
      const tests = owners.get(id);
      if (tests?.size === 1) return [...tests][0];
    }
    return null;
  };
  const fired = (name: string, test: string | null, changed = true) => {
    const entry = reached.get(name)!;
    if (test === null) entry.unattributed = true;
    else {
      entry.tests.add(test);
      if (changed) entry.changed.add(test);
    }
  };
  for (const { name, transform } of candidates) if (transform.delayMs) fired(name, null);

  /** The proxy's context as one candidate sees it: its own scratch state, and calls that only record that it fired. */
  const shadowContext = (real: ProxyContext, name: string, test: string | null): ProxyContext => ({
    get origin() {
      return real.origin;
    },
    checkouts: real.checkouts,
    payments: real.payments,
    customers: real.customers,
    get webhookUrl() {
      return real.webhookUrl;
    },
    get lastCallbackUrl() {
      return real.lastCallbackUrl;
    },
    memo: memos.get(name)!,
    mayRace: () => fired(name, test, false),
    callUpstream() {
      // A candidate that asks the target before it changes an answer (another customer's methods, say)
      // is taken to change it: asking, for every candidate on every exchange of the whole suite, would
      // cost the reach run more than the tests it saves.
      fired(name, test);
      return Promise.reject(new Error('the reach run asks the target nothing for a candidate'));
    },
    deliver() {
      fired(name, test);
      return Promise.resolve(200);
    },
    postInBackground: () => fired(name, test),
    checkoutOfPage: (path) => real.checkoutOfPage(path),
  });

  /** Asks every candidate that has the hook, each on its copy; a candidate that throws is taken to change it. */
  const askEach = (hook: keyof Transform, test: string | null, ask: (transform: Transform, name: string) => boolean | Promise<boolean>) => {
    const asked = Promise.all(
      candidates
        .filter(({ transform }) => transform[hook] !== undefined)
        .map(async ({ name, transform }) => {
          const changed = await Promise.resolve()
            .then(() => ask(transform, name))
            .catch(() => true);
          if (changed) fired(name, test);
        }),
    );
    running.add(asked);
    return asked.finally(() => running.delete(asked));
  };

  /** Each candidate's copy of a request, which its response hook gets as the proxy gives a candidate the request it changed: a candidate may remember it. */
  const copiesOfRequest = new WeakMap<ProxyRequest, Map<string, ProxyRequest>>();

  const transform: Transform = {
    async request(request, proxy) {
      const [header, readingBack] = [request.headers[testKeyHeader], request.headers[readingBackHeader]];
      delete request.headers[testKeyHeader];
      delete request.headers[readingBackHeader];
      const named = header === undefined ? undefined : decodeURIComponentSafely(header);
      const referer = request.headers.referer;
      // A read-back goes to the test that created what it reads; what several tests share, to the read-back itself.
      const test =
        named ??
        ownerOf([segmentsOf(request.path), [...request.query.values()], referer ? segmentsOf(referer) : [], request.json]) ??
        (readingBack === undefined ? null : decodeURIComponentSafely(readingBack));
      testOfRequest.set(request, test);
      if (named) own(named, request.json);
      const original = snapshot(request);
      await askEach('request', test, async (candidate, name) => {
        const copy = copyOfRequest(request);
        copiesOfRequest.set(request, (copiesOfRequest.get(request) ?? new Map()).set(name, copy));
        const answered = await candidate.request!(copy, shadowContext(proxy, name, test));
        return Boolean(answered) || snapshot(copy) !== original;
      });
    },
    async response(response, request, proxy) {
      const test = testOfRequest.get(request) ?? null;
      if (test) own(test, response.json);
      const original = snapshot(response);
      await askEach('response', test, async (candidate, name) => {
        const copy = copyOfResponse(response);
        await candidate.response!(copy, copiesOfRequest.get(request)?.get(name) ?? copyOfRequest(request), shadowContext(proxy, name, test));
        return snapshot(copy) !== original;
      });
    },
    redirect(location, proxy, request) {
      const test = testOfRequest.get(request) ?? null;
      void askEach('redirect', test, (candidate, name) => candidate.redirect!(location, shadowContext(proxy, name, test), request) !== location);
      return location;
    },
    notification(delivery, proxy) {
      // The test whose address it goes to first (the webhook's, set by one test, notifies payments of
      // others): that test alone makes the notification come, and judges it.
      const test = ownerOf([segmentsOf(delivery.to), delivery.json]);
      const original = snapshot(delivery);
      void askEach('notification', test, (candidate, name) => {
        const copy: Delivery = { ...delivery, headers: { ...delivery.headers }, json: structuredClone(delivery.json) };
        const delivered = candidate.notification!(copy, shadowContext(proxy, name, test));
        return delivered.length !== 1 || snapshot(delivered[0]) !== original;
      });
      return [delivery];
    },
  };

  return {
    transform,
    reached,
    async settled() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}

/**
 * The tests a candidate runs: those that reach it, of its clause where it is a mutant (a mutant
 * proves its own clause; a benign variant must pass them all), and those that failed on the sandbox
 * itself (they stopped before they reached all they would have, and their outcome there says nothing
 * of the candidate). Null where a change of its reaches no test it can be told for: then its tests
 * are chosen as without reach.
 */
export function selectedTests(candidate: { name: string; clause: string | null }, reach: Reached, sandboxTests: RawTest[]): RawTest[] | null {
  if (reach.unattributed) return null;
  const ofClause = sandboxTests.filter((test) => candidate.clause === null || test.clauseIds.includes(candidate.clause));
  const selected = ofClause.filter((test) => reach.tests.has(testKeyOf(test)) || test.status === 'failed');
  // A test that reads back what others created (the final audit) runs beside the selected tests, on what they created.
  const readingBack = ofClause.filter((test) => test.readsBack && !selected.includes(test));
  return selected.length === 0 ? selected : [...selected, ...readingBack];
}

/** What the sandbox run behind a reach recorder gave: each candidate's reach, and the tests as they ran on the sandbox. */
export interface SandboxRun {
  reached: Map<string, Reached>;
  tests: RawTest[];
  /** Its run config; its folder is kept where `kept` named its draws (a candidate's outcome is read from it), else removed. */
  run: RunConfig;
}

/**
 * The suite on the sandbox once for each seed and number of draws among the candidates (the tests'
 * requests depend on them), each behind a proxy that records which tests reach each candidate.
 * The folders of the runs on the draws `kept` names stay, for the caller to remove.
 */
export async function learnReach(
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
