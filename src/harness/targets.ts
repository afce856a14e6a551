/**
 * Many targets in one Playwright run (the mutant catalogue, mutants/run.ts): every top-level test and
 * describe of the specs is declared once per target, inside a describe that names it, and a test's
 * fixtures take that target's run config. Workers are kept across targets: starting one costs about
 * two seconds of CPU, which a worker per target paid once per candidate.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestType } from '@playwright/test';

/** Names the JSON file of the targets (TargetEntry[]); unset: one target, the run config's. */
export const targetsEnv = 'CHECKOUT_CONFORMANCE_TARGETS';
/** The annotation that names a test's target. */
export const targetAnnotation = 'target';
/** The header that names the test a request comes from (URI-encoded), on a target that records which tests reach what (mutants/reach.ts). */
export const testKeyHeader = 'x-checkout-conformance-test';
/** The header of a test that reads back what others created (readsBackTag), naming it for what no creating test owns. */
export const readingBackHeader = 'x-checkout-conformance-reads-back';

/**
 * The tag of a test that reads back what other tests created (the final audit): its requests name it
 * apart (readingBackHeader), so that what a candidate changes in them reaches the tests that created
 * what they read, and only what no one test created reaches the read-back itself.
 */
export const readsBackTag = '@reads-back-the-run';

/** A test as the raw results name it (src/report/raw-results.ts): its spec file and its title path, joined with " › ". */
export interface TestRef {
  file: string;
  title: string;
  /** How long it took on the sandbox, where known: the catalogue starts the longest first (mutants/playwright.config.ts). */
  durationMs?: number;
}

/**
 * A test's reference from its title path from its spec file on (the file's path in the specs'
 * folder, then its describes and its title). Not from its location: with targets, a top-level test
 * is declared again inside each target's describe, from src/harness/targets.ts. With targets, the first
 * describe is the target's, which is left out: the same test of every target has one reference.
 */
export function testRefOf([file, ...titles]: readonly string[], withTargets: boolean): TestRef {
  return { file, title: titles.slice(withTargets ? 1 : 0).join(' › ') };
}

/** One string for a test, the same in its requests (testKeyHeader) and its raw results. */
export const testKeyOf = (test: TestRef) => `${test.file} › ${test.title}`;

export interface TargetEntry {
  name: string;
  /** Only the tests of this clause run against the target (a mutant's); null: every test. */
  clause: string | null;
  /** Only these tests run against the target (those that reach a candidate's change); null: as `clause` says. */
  tests: TestRef[] | null;
  /** Every request of a test names it (testKeyHeader): the target records what each test reaches. */
  marksTests: boolean;
  /** Once a test found a problem naming this clause, the target's later tests are skipped: the proof is in. Null: every test runs. */
  stopOnceFailed: string | null;
  /** The target's RunConfig (src/core/run-config.ts). */
  runConfigFile: string;
}

/** The run's targets, where it has several. */
export function targetsOfRun(): TargetEntry[] | null {
  const file = process.env[targetsEnv];
  return file ? (JSON.parse(readFileSync(file, 'utf8')) as TargetEntry[]) : null;
}

/** The title of the describe that holds a target's tests. */
export const describeTitle = (target: TargetEntry) => `[${target.name}]`;

/** The name of the target whose describe a title path holds (the first describeTitle in it), if any. */
export const targetNameIn = (titlePath: string): string | undefined => / \[([^\]]+)\]/.exec(titlePath)?.[1];

/** The test's target, by its annotation. */
export function targetOf(annotations: { type: string; description?: string }[], targets: TargetEntry[] | null): TargetEntry | null {
  const name = annotations.find((annotation) => annotation.type === targetAnnotation)?.description;
  return (name !== undefined && targets?.find((target) => target.name === name)) || null;
}

const specsFolder = fileURLToPath(new URL('../../specs/', import.meta.url));

/** The spec file, relative to the specs' folder, that is declaring tests now: the first spec file on the stack. */
function declaringSpec(): string | null {
  const path = /(\/[^\s()]*\.spec\.ts):\d+/.exec(new Error().stack ?? '')?.[1];
  return path ? relative(specsFolder, path) : null;
}

/**
 * Whether a top-level test or describe of a spec file is declared for a target: for one that runs
 * only some tests (those that reach a candidate), only where it holds one of them. Each worker
 * declares what it loads for every target: hundreds of targets times every test cost each worker
 * seconds of CPU to start, for tests that the grep then left out.
 */
export function declaredFor(target: TargetEntry, file: string | null, title: unknown): boolean {
  if (target.tests === null || file === null || typeof title !== 'string') return true;
  return target.tests.some((test) => test.file === file && (test.title === title || test.title.startsWith(`${title} › `)));
}

/**
 * The test type whose top-level tests and describes are declared once per target, each inside a
 * describe named after it and annotated with it; without targets, the test type itself.
 */
export function onEveryTarget<T extends TestType<any, any>>(test: T, targets: TargetEntry[] | null): T {
  if (!targets) return test;
  // Playwright takes a test's location from its caller's stack frame: the declarations inside a
  // target's describe go straight to Playwright (a proxy without a trap adds no frame), so that
  // they keep the spec file's lines.
  const testHandler: ProxyHandler<T> = {};
  const describeHandler: ProxyHandler<T['describe']> = {};
  const onEach = (declare: () => void, title: unknown) => {
    const file = declaringSpec();
    for (const target of targets) {
      if (!declaredFor(target, file, title)) continue;
      test.describe(describeTitle(target), { annotation: { type: targetAnnotation, description: target.name } }, () => {
        delete testHandler.apply;
        delete describeHandler.apply;
        try {
          declare();
        } finally {
          trapTopLevel();
        }
      });
    }
  };
  const trapTopLevel = () => {
    testHandler.apply = (declareTest, self, args) => onEach(() => Reflect.apply(declareTest as Function, self, args), args[0]);
    describeHandler.apply = (describe, self, args) => onEach(() => Reflect.apply(describe as Function, self, args), args[0]);
  };
  trapTopLevel();
  const describe = new Proxy(test.describe, describeHandler);
  testHandler.get = (object, property, receiver) => (property === 'describe' ? describe : Reflect.get(object, property, receiver));
  return new Proxy(test, testHandler);
}
