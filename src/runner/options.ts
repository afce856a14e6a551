/** The options of "checkout-conformance run", parsed and checked; a bad one is a UsageError. */
import type { ParseArgsConfig } from 'node:util';
import { httpUrl, integer, parseCommandArgs, UsageError } from '../core/command-line.ts';
import { defaultRuns } from '../core/run-config.ts';
import { parseTransportOptions, transportOptionTypes, type TransportOptions } from '../core/transport-options.ts';

export interface RunOptions {
  /** null: start the reference sandbox in-process. */
  baseUrl: string | null;
  target: 'prism' | null;
  profilePath: string | null;
  /** --header values, in the order given. */
  headers: Record<string, string>;
  /** null: reports/<timestamp>. */
  outDir: string | null;
  strict: boolean;
  /** A run that could not verify every MUST clause may still be conformant (implied by --target prism). */
  allowPartial: boolean;
  /** null: a random seed, recorded in the report. */
  seed: number | null;
  grep: string | null;
  callbackHost: string;
  publicCallbackUrl: string | null;
  runs: number;
  /** --model-runs: sequences of the model of the whole service; null: the spec's default. */
  modelRuns: number | null;
  /** --replay-path: the one case of a failing property to run; null: every case. */
  replayPath: string | null;
  allowWrites: boolean;
  /** The whole run's time-out. */
  timeoutMs: number;
  /** One request's time-out; null: the profile's. */
  requestTimeoutMs: number | null;
  /** null: the Playwright config's default. */
  workers: number | null;
  /** --baseline: a file of waivers (src/report/baseline.ts). */
  baselinePath: string | null;
  /** --shard i/n: this run is part i of n, for "checkout-conformance merge". */
  shard: string | null;
  /** --keep-artifacts: keep the browser profile and Playwright's test-results, in a temporary folder. */
  keepArtifacts: boolean;
  /** --sign: a file with the Ed25519 private key (PEM) that signs report.json. */
  signKeyPath: string | null;
  /** --ssl-extra-ca-certs, --ssl-client-cert, --ssl-client-key, --insecure, --proxy. */
  transport: TransportOptions;
}

const defaultTimeoutMs = 20 * 60_000;

export const runUsage = `Usage: checkout-conformance run [options]

Target (default: the reference sandbox, started in-process on a free loopback port)
  --base-url URL               run against the target at URL
  --target prism               run against a Prism mock of schemas/generated/openapi.json
  --profile FILE               target profile (JSON): headers, capabilities, selectors, time-outs
  --header "Name: value"       extra request header, repeatable; never written to a report

Run
  --out DIR                    where the report goes (default reports/<timestamp>)
  --strict                     SHOULD failures also make the run non-conformant
  --allow-partial              a run that could not verify every MUST clause may still be conformant
                               (its coverage is stated in every report file); implied by --target prism
  --seed N                     seed of every generator, any integer of up to 15 digits, e.g. a CI run
                               number (default: random; recorded in the report)
  --grep TEXT                  only the checks whose title or clause ID matches (CHK-1 is exactly CHK-1)
  --runs N                     fast-check cases per property (default ${defaultRuns})
  --model-runs N               command sequences of the model of the whole service (default 8)
  --replay-path PATH           run only the failing case PATH of a property, unshrunk: the replay a report
                               gives a failed test (with its --seed and --grep)
  --allow-writes               allow state-changing requests to a live target
  --timeout-ms N               time-out of the whole run (default ${defaultTimeoutMs})
  --request-timeout-ms N       time-out of one request (default: the profile's, 10000 for the sandbox)
  --workers N                  parallel Playwright workers
  --baseline FILE              waivers of known failures (JSON: [{ "clause", "reason", "expires" }])
  --keep-artifacts             keep the browser profile and Playwright's test-results (in a temporary folder)
  --shard I/N                  run part I of N only; join the parts with "checkout-conformance merge"
  --sign KEY                   sign report.json (which attests every other file) with the Ed25519
                               private key in the PEM file KEY; checkout-conformance verify checks it
  --ssl-extra-ca-certs FILE    PEM certificate authorities trusted besides the system's (a private CA)
  --ssl-client-cert FILE       PEM client certificate for mutual TLS (with --ssl-client-key)
  --ssl-client-key FILE        its PEM private key
  --insecure                   do not verify the target's certificate (said in the report)
  --proxy URL                  HTTP proxy for every request to the target (default: HTTPS_PROXY,
                               HTTP_PROXY, NO_PROXY)
  --callback-host HOST         where the suite's notification receiver listens (default 127.0.0.1)
  --public-callback-url URL    the address the target must call to reach that receiver

Exit status: 0 conformant, 1 non-conformant, 2 the run could not be made or could not verify
every MUST clause (without --allow-partial).`;

export function parseRunOptions(args: string[]): RunOptions {
  const { values, positionals } = parseCommandArgs(args, runOptionTypes);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (values['base-url'] !== undefined && values.target !== undefined) {
    throw new UsageError('--base-url and --target cannot be used together');
  }
  if (values.target !== undefined && values.target !== 'prism') {
    throw new UsageError(`--target must be "prism", not "${values.target}"`);
  }
  return {
    baseUrl: values['base-url'] === undefined ? null : httpUrl('--base-url', values['base-url']),
    target: values.target === undefined ? null : 'prism',
    profilePath: values.profile ?? null,
    headers: parseHeaders(values.header ?? []),
    outDir: values.out ?? null,
    strict: values.strict ?? false,
    allowPartial: (values['allow-partial'] ?? false) || values.target === 'prism',
    seed: values.seed === undefined ? null : integer('--seed', values.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    grep: values.grep ?? null,
    callbackHost: values['callback-host'] ?? '127.0.0.1',
    publicCallbackUrl: values['public-callback-url'] === undefined ? null : httpUrl('--public-callback-url', values['public-callback-url']),
    runs: values.runs === undefined ? defaultRuns : integer('--runs', values.runs, 1, 1_000_000),
    modelRuns: values['model-runs'] === undefined ? null : integer('--model-runs', values['model-runs'], 1, 100_000),
    replayPath: values['replay-path'] === undefined ? null : replayPathOf(values['replay-path']),
    allowWrites: values['allow-writes'] ?? false,
    timeoutMs: values['timeout-ms'] === undefined ? defaultTimeoutMs : integer('--timeout-ms', values['timeout-ms'], 1000, 24 * 3_600_000),
    requestTimeoutMs: values['request-timeout-ms'] === undefined ? null : integer('--request-timeout-ms', values['request-timeout-ms'], 100, 600_000),
    workers: values.workers === undefined ? null : integer('--workers', values.workers, 1, 64),
    baselinePath: values.baseline ?? null,
    shard: values.shard === undefined ? null : shardOf(values.shard),
    keepArtifacts: values['keep-artifacts'] ?? false,
    signKeyPath: values.sign ?? null,
    transport: parseTransportOptions(values),
  };
}

const runOptionTypes = {
  'base-url': { type: 'string' },
  target: { type: 'string' },
  profile: { type: 'string' },
  header: { type: 'string', multiple: true },
  out: { type: 'string' },
  strict: { type: 'boolean' },
  'allow-partial': { type: 'boolean' },
  seed: { type: 'string' },
  grep: { type: 'string' },
  'callback-host': { type: 'string' },
  'public-callback-url': { type: 'string' },
  runs: { type: 'string' },
  'model-runs': { type: 'string' },
  'replay-path': { type: 'string' },
  'allow-writes': { type: 'boolean' },
  'timeout-ms': { type: 'string' },
  'request-timeout-ms': { type: 'string' },
  workers: { type: 'string' },
  baseline: { type: 'string' },
  shard: { type: 'string' },
  'keep-artifacts': { type: 'boolean' },
  sign: { type: 'string' },
  ...transportOptionTypes,
} as const satisfies ParseArgsConfig['options'];

/** fast-check's counterexample path ("3:0:1"), and a model's commands after "@" (fc.commands' replayPath). */
function replayPathOf(text: string): string {
  if (!/^\d+(?::\d+)*(?:@[A-Za-z0-9+/:=]*)?$/.test(text))
    throw new UsageError(`--replay-path takes the path a report's replay gives, such as "3:0:1", not "${text}"`);
  return text;
}

function shardOf(text: string): string {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match || Number(match[1]) < 1 || Number(match[1]) > Number(match[2])) {
    throw new UsageError(`--shard must look like I/N with 1 ≤ I ≤ N, not "${text}"`);
  }
  return text;
}

function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(line);
    if (!match) throw new UsageError('--header must look like "Name: value"');
    headers[match[1]] = match[2].trim();
  }
  return headers;
}
