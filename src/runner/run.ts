/**
 * "checkout-conformance run": resolve the target, check it answers, run the specs, write the
 * report. Whatever happens, the target is stopped and the four report files are written.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { clauses } from '../core/clauses.ts';
import { mask } from '../core/evidence.ts';
import { writeWhole, type Profile, type RunConfig, type RunPlan } from '../core/run-config.ts';
import { loadBaseline, type Waiver } from '../report/baseline.ts';
import { describeBrowser, findChromium } from '../core/chromium.ts';
import type { RunOptions } from './options.ts';
import { blobDirOf, runPlaywright } from './playwright.ts';
import { runHeaders, secretsOfRun, withoutPlaceholders } from '../core/profile.ts';
import { clearRawResults, readRawResults, type RawResults } from '../report/raw-results.ts';
import { say } from '../core/command-line.ts';
import { profileFor, startTarget, type Target } from './target.ts';
import { clearLedger, reportDir } from '../report/folder.ts';
import { describeAskedToWait, describeTransport, resolveTransport, transportSecrets } from '../core/transport-options.ts';

export async function runConformance(options: RunOptions): Promise<number> {
  const signingKey = options.signKeyPath === null ? null : (await import('../report/attestation.ts')).readPrivateKey('--sign', options.signKeyPath);
  const startedAt = new Date();
  const outDir = reportDir(options.outDir, startedAt);
  mkdirSync(outDir, { recursive: true });
  const seed = options.seed ?? randomInt(0, 2 ** 31 - 1);
  const interruption = watchInterruption();
  let profile: Profile | null = null;
  let headers = options.headers;
  let target: Target | null = null;
  let raw: RawResults | null = null;
  let failure: string | null = null;
  const findings: string[] = [];
  let waivers: Waiver[] = [];
  const transport = resolveTransport(options.transport, process.env);
  let specs: StartedSpecs | null = null;
  try {
    if (options.baselinePath) waivers = loadBaseline(options.baselinePath, clauses());
    profile = profileFor(options);
    headers = runHeaders(profile, options.headers);
    // Playwright and its workers load (a second or more of CPU) while a target the run starts itself
    // starts; a target given by URL may not answer at all, and Playwright starts once it did.
    if (!options.baseUrl) specs = startSpecs({ plan: true, outDir, profile, headers }, options);
    // Finding Chromium (its version asked of it) overlaps starting the target and the preflight.
    const chromium = findChromium();
    target = await startTarget(options, profile, outDir);
    say(`target ${target.baseUrl} (${target.kind}, profile ${profile.name}), seed ${seed}`);
    const transported = describeTransport(transport, target.baseUrl);
    if (transported) {
      say(transported);
      findings.push(transported);
    }
    const interrupted = interruption.reason();
    // Loaded here rather than with the command, so that Playwright starts sooner (src/cli.ts): the
    // preflight's, the probes' and, at the end, the report's modules.
    const { preflight } = await import('./preflight.ts');
    const preflighted = interrupted
      ? { failure: interrupted, verifiedServerKeys: [] }
      : await preflight(target.baseUrl, headers, profile.timeouts.requestMs, transport);
    failure = preflighted.failure;
    if (!failure) {
      const { probeTarget } = await import('./probe.ts');
      const probes = await probeTarget(target.baseUrl, headers, profile, transport);
      const askedToWait = (await import('../core/transport.ts')).askedToWaitSoFar();
      const preflightFindings = [...probes.findings, ...(askedToWait.answers > 0 ? [describeAskedToWait(askedToWait, "the preflight's")] : [])];
      findings.push(...preflightFindings);
      for (const finding of preflightFindings) say(finding);
      if (probes.stop) throw new Error(probes.stop);
      const run: RunConfig = {
        baseUrl: target.baseUrl,
        targetKind: target.kind,
        profile: {
          ...withoutPlaceholders(profile),
          capabilities: { ...profile.capabilities, testHelpers: probes.testHelpers, hostedPages: probes.hostedPages },
        },
        headers,
        seed,
        runs: options.runs,
        ...(options.modelRuns !== null && { modelRuns: options.modelRuns }),
        ...(options.replayPath !== null && { replayPath: options.replayPath }),
        strict: options.strict,
        allowWrites: options.allowWrites,
        callbackHost: options.callbackHost,
        publicCallbackUrl: options.publicCallbackUrl,
        outDir,
        transport,
        verifiedServerKeys: preflighted.verifiedServerKeys,
        chromium: await chromium,
      };
      const browser = `browser: ${describeBrowser(run.chromium)}${run.chromium.executablePath ? '' : '; the browser checks are skipped'}`;
      say(browser);
      findings.push(browser);
      specs ??= startSpecs(run, options);
      raw = await specs.finish(run, [...secretsOfRun(headers, profile), ...transportSecrets(transport)]);
      if (raw?.forcedEnd) {
        say(raw.forcedEnd);
        findings.push(raw.forcedEnd);
      }
      failure = interruption.reason() ?? (raw ? null : 'the test runner ended without results');
    }
  } catch (error) {
    failure = (error as Error).message;
  } finally {
    await specs?.stop();
    await target?.stop();
    interruption.stop();
  }
  const [{ buildReport }, { publishReport }, { inputCoverageOf, readSent }] = await Promise.all([
    import('../report/report.ts'),
    import('../report/publish.ts'),
    import('../report/input-coverage.ts'),
  ]);
  const report = buildReport(
    clauses(),
    raw,
    {
      baseUrl: target?.baseUrl ?? options.baseUrl ?? `${options.target ?? 'sandbox'} (not started)`,
      targetKind: target?.kind ?? (options.baseUrl ? 'url' : (options.target ?? 'sandbox')),
      profileName: profile?.name ?? options.profilePath ?? 'none',
      profilePath: options.profilePath,
      findings,
      seed,
      runs: options.runs,
      strict: options.strict,
      allowPartial: options.allowPartial,
      grep: options.grep,
      shard: options.shard,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      inputCoverage: inputCoverageOf(readSent(outDir)),
    },
    failure,
    waivers,
  );
  return publishReport(outDir, report, secretsOfRun(headers, profile), signingKey);
}

/** Playwright started on the run's plan (startSpecs). */
interface StartedSpecs {
  /** Writes the run config in the plan's place, the workers' start: resolves to the reporter's raw results, or null when there are none. */
  finish(run: RunConfig, secrets: string[]): Promise<RawResults | null>;
  /** Stops Playwright where the run ended before it could finish, and tidies the run's folder. */
  stop(): Promise<void>;
}

/**
 * Starts Playwright on the run's plan, or on its run config where it is known already, in a private
 * file (the run config holds the credentials); the run's folder keeps a masked copy of the run config.
 */
function startSpecs(firstWritten: RunPlan | RunConfig, options: RunOptions): StartedSpecs {
  const privateDir = mkdtempSync(join(tmpdir(), 'checkout-conformance-'));
  const configFile = join(privateDir, 'run-config.json');
  writeWhole(configFile, firstWritten);
  const { outDir } = firstWritten;
  clearRawResults(outDir);
  clearLedger(outDir);
  const stopping = new AbortController();
  const ended = runPlaywright({
    configFile,
    grep: options.grep,
    workers: options.workers,
    timeoutMs: options.timeoutMs,
    shard: options.shard,
    blobDir: options.shard ? blobDirOf(outDir) : null,
    stop: stopping.signal,
  });
  // Awaited by finish, or by stop; until then, a Playwright that could not start is not an unhandled rejection.
  ended.catch(() => undefined);
  let finished = false;
  return {
    async finish(run, secrets) {
      writeFileSync(join(run.outDir, 'run-config.json'), `${JSON.stringify(mask(run, secrets), null, 2)}\n`);
      writeWhole(configFile, run);
      finished = true;
      await ended;
      return readRawResults(run.outDir);
    },
    async stop() {
      if (!finished) {
        stopping.abort();
        await ended.catch(() => undefined);
        clearRawResults(outDir);
      }
      rmSync(privateDir, { recursive: true, force: true });
      setAsideArtifacts(outDir, options.keepArtifacts);
    },
  };
}

/** What the browser and Playwright leave in the run's folder, which is no part of the report. */
const artifactDirs = ['chromium', 'test-results'];

/** Takes the artifacts out of the report's folder: removed, or with --keep-artifacts moved to a temporary folder. */
function setAsideArtifacts(outDir: string, keep: boolean): void {
  const found = artifactDirs.map((name) => join(outDir, name)).filter((dir) => existsSync(dir));
  if (found.length === 0) return;
  const keptIn = keep ? mkdtempSync(join(tmpdir(), 'checkout-conformance-artifacts-')) : null;
  for (const dir of found) {
    if (keptIn) cpSync(dir, join(keptIn, dir.slice(outDir.length + 1)), { recursive: true });
    rmSync(dir, { recursive: true, force: true });
  }
  if (keptIn) say(`artifacts (browser profile, test-results) kept in ${keptIn}`);
}

/** Ctrl-C or a CI cancel: the run winds down (the target stopped, the report written), not dies. */
export function watchInterruption() {
  let signal: NodeJS.Signals | null = null;
  const record = (received: NodeJS.Signals) => {
    signal ??= received;
  };
  process.on('SIGINT', record);
  process.on('SIGTERM', record);
  return {
    reason: () => (signal ? `the run was interrupted (${signal}): the checks that had ended are judged, the clauses of the rest are untested` : null),
    stop: () => {
      process.off('SIGINT', record);
      process.off('SIGTERM', record);
    },
  };
}
