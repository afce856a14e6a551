/**
 * The suite as a payment team gets it: packed (npm pack, which builds dist/), installed into an
 * empty project, and run from there with npx. Then the docs/ci.md recipes, parsed and run step by
 * step in that project against the reference sandbox: the verdict of each must be conformant.
 * The installed embedded run is also the proof that the reference sandbox is conformant under
 * --strict, every MUST and SHOULD clause passed, and that every browser check runs with the Chromium
 * npm installs, every other source hidden (a machine with no browser): one whole run, not three.
 */
import assert from 'node:assert/strict';
import { execFile, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import YAML from 'yaml';
import { browserSourceEnv } from '../../src/core/chromium.ts';
import { packageDir } from '../../src/core/package-root.ts';
import { parseRunOptions } from '../../src/runner/options.ts';
import { spawnGroup, stopGroup } from '../../src/runner/processes.ts';
import { readReport } from '../support/cli.ts';

const run = promisify(execFile);
const reportFiles = ['report.html', 'report.json', 'junit.xml', 'summary.md'];
/** A GitHub run id has 11 digits; the seed takes it as it is. */
const ciRunNumber = '12345678901';
const secrets = {
  CONFORMANCE_AUTHORIZATION: 'Basic dGVzdDp0ZXN0',
  CONFORMANCE_CLIENT_ID: '123456789',
  CONFORMANCE_NOTIFICATION_SECRET: 'sandbox-notification-secret',
};

let root: string;
let project: string;
let sandbox: ChildProcess;
let sandboxUrl: string;

interface Outcome {
  code: number;
  output: string;
}

/** A shell script in dir, as a CI runner runs it (bash, stop at the first failing command). */
async function shell(script: string, dir: string, env: Record<string, string>): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run('bash', ['-eo', 'pipefail', '-c', script], {
      cwd: dir,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 15 * 60_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: Number(failed.code ?? 1), output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** A folder like the user's repository: the installed suite, the profile copied and filled, a baseline. */
function workspace(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'conformance'), { recursive: true });
  cpSync(join(project, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(project, 'node_modules'), join(dir, 'node_modules'));
  // For the sandbox: its profile, as a team fills in example-service.json for its own service.
  cpSync(join(project, 'node_modules/checkout-conformance/profiles/sandbox.json'), join(dir, 'conformance/profile.json'));
  writeFileSync(join(dir, 'conformance/baseline.json'), '[]\n');
  mkdirSync(join(dir, '.tmp'));
  return dir;
}

const recipes = [...readFileSync(join(packageDir, 'docs/ci.md'), 'utf8').matchAll(/```yaml\n(# (\S+)\n[\s\S]*?)```/g)].map(([, text, file]) => ({
  file,
  recipe: YAML.parse(text) as Record<string, unknown>,
}));
const recipe = (file: string) => recipes.find((found) => found.file === file)!.recipe;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'checkout-conformance-install-'));
  project = join(root, 'project');
  mkdirSync(project);
  const { stdout } = await run('npm', ['pack', '--pack-destination', root, '--json'], { cwd: packageDir, maxBuffer: 16 * 1024 * 1024 });
  const [{ filename, files }] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ filename: string; files: { path: string }[] }];
  const shipped = files.map((file) => file.path);
  for (const needed of [
    'dist/playwright.config.js',
    'dist/src/cli.js',
    'docs/spec/clauses.md',
    'docs/spec/api-reference.md',
    'docs/contracts/test-helpers.md',
    'profiles/example-service.json',
    'schemas/generated/openapi.json',
  ]) {
    assert.ok(shipped.includes(needed), `the package ships ${needed}`);
  }
  for (const path of shipped) assert.doesNotMatch(path, /^(test|mutants|bench|\.ci|src|specs)\/|\.ts$/, `the package does not ship ${path}`);
  writeFileSync(join(project, 'package.json'), '{ "name": "payment-team", "private": true }\n');
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(root, filename)], { cwd: project, maxBuffer: 16 * 1024 * 1024 });
  sandbox = spawnGroup('npx', ['checkout-conformance', 'sandbox', '--db', ':memory:'], { cwd: project, stdio: ['ignore', 'pipe', 'inherit'] });
  sandboxUrl = await new Promise<string>((resolve, reject) => {
    let output = '';
    sandbox.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve(url);
    });
    sandbox.once('exit', () => reject(new Error(`the sandbox exited: ${output}`)));
  });
});

after(async () => {
  if (sandbox) await stopGroup(sandbox);
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The embedded run, made once: the nightly recipe takes its report for last night's, and package archives it. */
let embedded: Promise<Outcome> | undefined;
const embeddedRun = () => (embedded ??= shell('npx checkout-conformance run --strict --seed 20261121 --out embedded', project, { [browserSourceEnv]: 'npm' }));

// Two at a time: a run keeps less than one of 2 cores busy (36 s of CPU in 59 s), so two overlap;
// the tests that need the embedded report wait for its run, whichever started first.
describe('installed from the packed tarball', { concurrency: 2 }, () => {
  test('npx checkout-conformance run: the embedded sandbox is conformant, every MUST and SHOULD clause passed, under --strict, with the npm Chromium alone', async () => {
    const { code, output } = await embeddedRun();
    assert.equal(code, 0, output);
    assert.match(output, /conformant: 47 passed/);
    assert.match(output, /report\.html/);
    assert.match(output, /browser: Chromium \d+\.\S+ \(npm, /);
    const report = readReport(join(project, 'embedded'));
    assert.ok(report.target.findings.some((finding) => /^browser: Chromium .* \(npm, /.test(finding)));
    assert.equal(report.verdict, 'conformant');
    assert.equal(report.seed, 20261121);
    const notPassed = report.clauses
      .filter((clause) => clause.level !== 'INFO' && clause.status !== 'passed')
      .map((clause) => `${clause.id}: ${clause.status}`);
    assert.deepEqual(notPassed, []);
    for (const clause of report.clauses.filter((c) => c.level === 'INFO')) assert.equal(clause.status, 'observed', clause.id);
    // The final audit runs from dist/ as from the checkout: after every other test, and passing (its clauses pass on other tests too).
    const auditTests = report.clauses.flatMap((clause) => clause.tests).filter((test) => test.file === 'whole-run/audit.spec.js');
    assert.ok(auditTests.length > 0, 'the report holds the final audit');
    assert.deepEqual(
      auditTests.filter((test) => test.status !== 'passed').map((test) => `${test.title}: ${test.status} (${test.reason})`),
      [],
    );
  });

  test('the GitHub Actions recipe for pull requests: two shards and their merge, conformant', async () => {
    const dir = workspace('github');
    const outcome = await runGitHubWorkflow(recipe('.github/workflows/conformance.yml'), dir, { 'github.event.deployment_status.environment_url': sandboxUrl });
    assert.equal(outcome.code, 0, outcome.output);
    assert.match(outcome.output, /conformant: 47 passed/);
    const report = JSON.parse(readFileSync(join(dir, 'conformance-report/report.json'), 'utf8')) as { verdict: string; seed: number };
    assert.deepEqual([report.verdict, String(report.seed)], ['conformant', ciRunNumber]);
    for (const file of reportFiles) assert.ok(existsSync(join(dir, 'artifacts/conformance-report', file)), file);
  });

  test('observe and package from the install', async () => {
    await embeddedRun();
    const observed = await shell(`npx checkout-conformance observe --upstream ${sandboxUrl} --port 0 --duration 2 --allow-partial --out observed`, project, {});
    assert.match(observed.output, /stopping \(--duration 2\)/);
    assert.equal(JSON.parse(readFileSync(join(project, 'observed/report.json'), 'utf8')).verdict, 'incomplete', 'no traffic: nothing verified');
    const packaged = await shell('npx checkout-conformance package embedded --out embedded.tar.gz', project, {});
    assert.equal(packaged.code, 0, packaged.output);
    assert.ok(existsSync(join(project, 'embedded.tar.gz')));
  });

  test('the GitHub Actions nightly recipe: a run compared with the last one, conformant', async () => {
    const dir = workspace('nightly');
    // Last night's report: the embedded run's, above.
    await embeddedRun();
    cpSync(join(project, 'embedded'), join(dir, 'previous'), { recursive: true });
    const outcome = await runGitHubWorkflow(recipe('.github/workflows/conformance-nightly.yml'), dir, { 'vars.SANDBOX_URL': sandboxUrl });
    assert.equal(outcome.code, 0, outcome.output);
    assert.match(outcome.output, /conformant: 47 passed/);
    assert.match(readFileSync(join(dir, '.tmp/summary-nightly.md'), 'utf8'), /diff: conformant → conformant\n\nNo clause changed/);
    for (const file of reportFiles) assert.ok(existsSync(join(dir, 'artifacts/conformance-nightly', file)), file);
  });

  test('the GitLab CI recipe: two parallel shards and their merge, conformant', async () => {
    const dir = workspace('gitlab');
    const pipeline = recipe('.gitlab-ci.yml') as Record<string, GitLabJob> & { default: GitLabJob; variables: Record<string, string>; stages: string[] };
    const env = { ...secrets, CI_PROJECT_DIR: dir, CI_PIPELINE_ID: ciRunNumber, CONFORMANCE_BASE_URL: sandboxUrl };
    const variables = Object.fromEntries(
      Object.entries(pipeline.variables).map(([name, value]) => [
        name,
        value.replace(/\$(\w+)/g, (_, variable: string) => env[variable as keyof typeof env] ?? ''),
      ]),
    );
    const jobs = Object.entries(pipeline).filter(([, job]) => typeof job === 'object' && job !== null && 'stage' in job) as [string, GitLabJob][];
    let last: Outcome = { code: 1, output: 'no job ran' };
    for (const stage of pipeline.stages) {
      const outcomes = await Promise.all(
        jobs
          .filter(([, job]) => job.stage === stage)
          .flatMap(([, job]) => {
            const total = job.parallel ?? 1;
            return Array.from({ length: total }, (_, index) => {
              const script = [...(pipeline.default.before_script ?? []).filter((line) => !line.startsWith('npm ci')), ...job.script].join('\n');
              return shell(script, dir, { ...env, ...variables, ...(job.parallel && { CI_NODE_INDEX: String(index + 1), CI_NODE_TOTAL: String(total) }) });
            });
          }),
      );
      last = outcomes.find((outcome) => outcome.code !== 0) ?? outcomes[0];
      assert.equal(last.code, 0, last.output);
    }
    assert.match(last.output, /conformant: 47 passed/);
    const merged = jobs.find(([name]) => name === 'conformance-report')![1];
    assert.equal(merged.artifacts?.reports?.junit, 'conformance-report/junit.xml');
    for (const path of merged.artifacts!.paths) assert.ok(existsSync(join(dir, path)), path);
  });
});

interface GitLabJob {
  stage?: string;
  parallel?: number;
  before_script?: string[];
  script: string[];
  artifacts?: { paths: string[]; reports?: { junit?: string } };
}

interface GitHubStep {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | number>;
  'continue-on-error'?: boolean;
}

interface GitHubJob {
  needs?: string | string[];
  strategy?: { matrix: Record<string, (string | number)[]> };
  steps: GitHubStep[];
}

/**
 * Runs a workflow's jobs in the order of their needs, each matrix entry at once, in dir; artifacts
 * are copied under dir/artifacts. Steps that need GitHub itself (checkout, caches, gh) are left out,
 * and a job's own condition is taken as met; `npm ci` is the install the test made. Resolves to the
 * last job's outcome.
 */
async function runGitHubWorkflow(workflow: Record<string, unknown>, dir: string, event: Record<string, string>): Promise<Outcome> {
  const runnerTemp = join(dir, '.tmp');
  const values: Record<string, string> = {
    ...event,
    'github.run_id': ciRunNumber,
    ...Object.fromEntries(Object.entries(secrets).map(([name, value]) => [`secrets.${name}`, value])),
  };
  const expand = (text: string, matrix: Record<string, string>) =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
      const value = expression.startsWith('matrix.') ? matrix[expression.slice('matrix.'.length)] : values[expression];
      if (value === undefined) throw new Error(`the test has no value for \${{ ${expression} }}`);
      return value;
    });
  const env = Object.fromEntries(Object.entries((workflow.env ?? {}) as Record<string, string>).map(([name, value]) => [name, expand(value, {})]));
  const jobs = workflow.jobs as Record<string, GitHubJob>;
  const done = new Set<string>();
  let last: Outcome = { code: 1, output: 'no job ran' };
  while (done.size < Object.keys(jobs).length) {
    const ready = Object.entries(jobs).filter(([name, job]) => !done.has(name) && [job.needs ?? []].flat().every((need) => done.has(need)));
    for (const [name, job] of ready) {
      const matrices = Object.entries(job.strategy?.matrix ?? {}).reduce<Record<string, string>[]>(
        (all, [key, options]) => all.flatMap((entry) => options.map((option) => ({ ...entry, [key]: String(option) }))),
        [{}],
      );
      const outcomes = await Promise.all(
        matrices.map((matrix) =>
          runGitHubJob(job, matrix, (text) => expand(text, matrix), dir, {
            ...env,
            RUNNER_TEMP: runnerTemp,
            GITHUB_STEP_SUMMARY: join(runnerTemp, `summary-${name}.md`),
          }),
        ),
      );
      last = outcomes.find((outcome) => outcome.code !== 0) ?? outcomes[0];
      assert.equal(last.code, 0, `job ${name}: ${last.output}`);
      done.add(name);
    }
  }
  return last;
}

async function runGitHubJob(
  job: GitHubJob,
  matrix: Record<string, string>,
  expand: (text: string) => string,
  dir: string,
  env: Record<string, string>,
): Promise<Outcome> {
  const outcomes = new Map<string, 'success' | 'failure'>();
  let failed: Outcome | null = null;
  let output = '';
  for (const step of job.steps) {
    const condition = step.if ?? 'success()';
    const failedStep = /^steps\.(\S+)\.outcome == 'failure'$/.exec(condition)?.[1];
    const runs = condition === 'always()' || (failedStep ? outcomes.get(failedStep) === 'failure' : !failed);
    if (!runs) continue;
    if (step.uses) {
      copyArtifacts(step, expand, dir);
      continue;
    }
    if (step.run!.startsWith('npm ci') || /\bgh /.test(step.run!)) continue;
    const script = expand(step.run!);
    const outcome = await shell(script, dir, env);
    output += outcome.output;
    if (step.id) outcomes.set(step.id, outcome.code === 0 ? 'success' : 'failure');
    if (outcome.code !== 0 && !step['continue-on-error'])
      failed ??= { code: outcome.code, output: `step ${step.name ?? script}${matrix.shard ? ` (shard ${matrix.shard})` : ''}: ${output}` };
  }
  return failed ?? { code: 0, output };
}

/** upload-artifact copies its paths to dir/artifacts/NAME; download-artifact copies the matching ones back. */
function copyArtifacts(step: GitHubStep, expand: (text: string) => string, dir: string): void {
  const store = join(dir, 'artifacts');
  if (step.uses!.startsWith('actions/upload-artifact')) {
    const name = expand(String(step.with!.name));
    for (const path of expand(String(step.with!.path)).split('\n').filter(Boolean)) {
      assert.ok(existsSync(join(dir, path)), `upload-artifact ${name}: ${path} exists`);
      cpSync(join(dir, path), join(store, name, path.includes('/') ? path.slice(path.lastIndexOf('/') + 1) : ''), { recursive: true });
    }
  } else if (step.uses!.startsWith('actions/download-artifact')) {
    const pattern = new RegExp(`^${String(step.with!.pattern).replace('*', '.*')}$`);
    for (const name of readdirSync(store).filter((found) => pattern.test(found)))
      cpSync(join(store, name), join(dir, String(step.with!.path), name), { recursive: true });
  } else if (step.uses!.startsWith('mikepenz/action-junit-report')) {
    assert.ok(existsSync(join(dir, String(step.with!.report_paths))), 'the JUnit file to publish exists');
  }
}

test('--seed takes a CI run number as it is: 11 digits, up to 2^53', () => {
  assert.equal(parseRunOptions(['--seed', ciRunNumber]).seed, 12345678901);
  assert.equal(parseRunOptions(['--seed', String(Number.MAX_SAFE_INTEGER)]).seed, Number.MAX_SAFE_INTEGER);
  assert.throws(() => parseRunOptions(['--seed', '99999999999999999999']), /--seed must be an integer/);
});
