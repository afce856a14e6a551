/**
 * "observe": the forwarding proxy, the judging of what passes through it, and the report of a run
 * built from it. Start it in-process with startObserver; the command line is command.ts.
 */
import { randomInt } from 'node:crypto';
import { clauses } from '../core/clauses.ts';
import { credentialHeaders, secretsOf } from '../core/evidence.ts';
import type { Profile } from '../core/run-config.ts';
import { secretsOfRun } from '../core/profile.ts';
import { buildReport, type Report } from '../report/report.ts';
import { judgeExchange, operationOf } from './judge.ts';
import { startForwardingProxy, type ForwardedExchange } from './proxy.ts';
import { directTransport, type Transport } from '../core/transport-options.ts';
import { askedWaitMs } from '../core/transport.ts';
import { createTally } from './tally.ts';
import { createTrafficState, trafficChecks } from './traffic-state.ts';
import { answerChecks, noteClauses } from '../checks/answers.ts';
import { clausesJudgedBy } from '../checks/registry.ts';
import { defaultRuns } from '../core/run-config.ts';

/** Every clause observe judges or records in real traffic: those of the checks it judges by, and those of judgeAnswer's notes. */
export const observedClauses: readonly string[] = [...clausesJudgedBy([...Object.values(answerChecks).flat(), ...trafficChecks]), ...noteClauses];

export interface ObserverOptions {
  upstream: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** For the report's name of the target and the secrets to mask (its headers are not added to the traffic). */
  profile?: Profile | null;
  profilePath?: string | null;
  strict?: boolean;
  allowPartial?: boolean;
  /** The most of one body kept for judging (default 1 MB). */
  bodyCapBytes?: number;
  /** Default 30 s. */
  upstreamTimeoutMs?: number;
  /** How the upstream is reached over TLS; absent: verified by the system's CAs. */
  transport?: Transport;
}

export interface Observer {
  /** Where clients send their requests: http://127.0.0.1:<port> */
  url: string;
  /** The report of the traffic so far. */
  report(): Report;
  /** Everything that must not reach a report: the profile's secrets and every credential header seen. */
  secrets(): string[];
  /** Stops forwarding and judging; resolves to the final report. */
  stop(): Promise<Report>;
}

/** A 429, or a 503 with Retry-After, asks the client to wait and send again: no answer of the operation's. */
const askedToWait = 'the target asked the client to wait (429, or 503 with Retry-After), which answers nothing';

export async function startObserver(options: ObserverOptions): Promise<Observer> {
  const startedAt = new Date().toISOString();
  const seed = randomInt(0, 2 ** 31 - 1);
  const tally = createTally();
  const state = createTrafficState({ eventMs: options.profile?.timeouts?.eventMs });
  const seenCredentials = new Set<string>();
  const counts = { exchanges: 0, judged: 0, other: 0 };
  const unjudged = new Map<string, number>();

  function judge({ path, exchange, unjudged: why }: ForwardedExchange): void {
    counts.exchanges++;
    for (const [name, value] of Object.entries(exchange.request.headers)) {
      if (credentialHeaders.test(name)) for (const secret of secretsOf({ [name]: value })) seenCredentials.add(secret);
    }
    if (why) return void unjudged.set(why, (unjudged.get(why) ?? 0) + 1);
    if (askedWaitMs(exchange.response.status, exchange.response.headers['retry-after'], 0) !== null)
      return void unjudged.set(askedToWait, (unjudged.get(askedToWait) ?? 0) + 1);
    const called = operationOf(exchange.request.method, path);
    if (!called) return void counts.other++;
    counts.judged++;
    const { operation, param } = called;
    for (const judged of [...judgeExchange(operation, exchange, state.createdHere, param), ...state.follow(operation, param, exchange)]) tally.add(judged);
  }

  const proxy = await startForwardingProxy({
    upstream: options.upstream,
    port: options.port ?? 0,
    bodyCapBytes: options.bodyCapBytes ?? 1024 * 1024,
    upstreamTimeoutMs: options.upstreamTimeoutMs ?? 30_000,
    transport: options.transport ?? directTransport,
    onExchange(forwarded) {
      try {
        judge(forwarded);
      } catch (error) {
        const why = `judging failed: ${(error as Error).message}`;
        unjudged.set(why, (unjudged.get(why) ?? 0) + 1);
      }
    },
  });

  function findings(): string[] {
    return [
      `observed ${counts.exchanges} exchanges through ${proxy.url}: ${counts.judged} of the reference's operations judged, ${counts.other} other requests (pages, helpers) forwarded only`,
      ...[...unjudged].map(([why, count]) => `${count} exchange${count === 1 ? '' : 's'} not judged: ${why}`),
      ...state.findings(),
    ];
  }

  const report = () =>
    buildReport(clauses(), tally.rawResults(), {
      baseUrl: options.upstream,
      targetKind: 'url',
      profileName: options.profile?.name ?? options.profilePath ?? 'none',
      profilePath: options.profilePath ?? null,
      findings: findings(),
      seed,
      runs: defaultRuns,
      strict: options.strict ?? false,
      allowPartial: options.allowPartial ?? false,
      grep: null,
      shard: null,
      startedAt,
      finishedAt: new Date().toISOString(),
    });

  return {
    url: proxy.url,
    report,
    secrets: () => [...secretsOfRun(options.profile?.headers ?? {}, options.profile ?? null), ...seenCredentials],
    async stop() {
      await proxy.close();
      return report();
    },
  };
}
