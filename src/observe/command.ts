/** "checkout-conformance observe": options, the wait for a signal or --duration, and the report. */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mask } from '../core/evidence.ts';
import { loadProfile } from '../core/profile.ts';
import type { Report } from '../report/report.ts';
import { reportDir } from '../report/folder.ts';
import { startObserver } from './observer.ts';
import { whenParentGone } from '../core/parent-watch.ts';
import { httpUrl, integer, parseCommandArgs, UsageError, say } from '../core/command-line.ts';
import { publishReport } from '../report/publish.ts';
import { parseTransportOptions, resolveTransport, tlsOptionTypes, type Transport } from '../core/transport-options.ts';

const liveReportSeconds = 5;

export const observeUsage = `Usage: checkout-conformance observe --upstream URL [options]

A loopback proxy in front of a target: it forwards every exchange unchanged and judges the traffic
by clause; on SIGINT/SIGTERM (or --duration) it writes the four report files of a run.

  --upstream URL               the target ({base_url} of the reference)
  --port P                     where the proxy listens on 127.0.0.1 (default: a free port, printed)
  --profile FILE               target profile: its name and secrets (masked in the report)
  --out DIR                    where the report goes (default reports/<timestamp>-observe)
  --duration SECONDS           stop by itself after this long
  --live-report                rewrite DIR/report.json every ${liveReportSeconds} s while observing
  --strict                     SHOULD failures also make the verdict non-conformant
  --allow-partial              traffic that did not verify every MUST clause may still be conformant
  --ssl-extra-ca-certs FILE    PEM certificate authorities trusted besides the system's, for the upstream
  --ssl-client-cert FILE       PEM client certificate for mutual TLS with the upstream (with --ssl-client-key)
  --ssl-client-key FILE        its PEM private key
  --insecure                   do not verify the upstream's certificate
The upstream is reached directly: observe sits where the traffic already goes, so no proxy applies.

Exit status as for run: 0 conformant, 1 non-conformant, 2 incomplete (without --allow-partial) or
the proxy could not start.`;

export interface ObserveOptions {
  upstream: string;
  port: number;
  profilePath: string | null;
  outDir: string | null;
  /** null: until SIGINT or SIGTERM. */
  durationSeconds: number | null;
  liveReport: boolean;
  strict: boolean;
  allowPartial: boolean;
  transport: Transport;
}

export function parseObserveOptions(args: string[]): ObserveOptions {
  const { values, positionals } = parseCommandArgs(args, {
    upstream: { type: 'string' },
    port: { type: 'string' },
    profile: { type: 'string' },
    out: { type: 'string' },
    duration: { type: 'string' },
    'live-report': { type: 'boolean' },
    strict: { type: 'boolean' },
    'allow-partial': { type: 'boolean' },
    ...tlsOptionTypes,
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (values.upstream === undefined) throw new UsageError('observe needs --upstream URL');
  return {
    upstream: httpUrl('--upstream', values.upstream),
    port: values.port === undefined ? 0 : integer('--port', values.port, 0, 65535),
    profilePath: values.profile ?? null,
    outDir: values.out ?? null,
    durationSeconds: values.duration === undefined ? null : integer('--duration', values.duration, 1, 30 * 24 * 3600),
    liveReport: values['live-report'] ?? false,
    strict: values.strict ?? false,
    allowPartial: values['allow-partial'] ?? false,
    transport: resolveTransport(parseTransportOptions(values), {}),
  };
}

/** Resolves on SIGINT, SIGTERM, the end of the process that started it (npx's shell), or after the duration, whichever comes first. */
function untilStopped(durationSeconds: number | null): Promise<string> {
  return new Promise((resolve) => {
    const stop = (why: string) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      clearTimeout(timer);
      stopWatching();
      resolve(why);
    };
    const stopWatching = whenParentGone(() => stop('its parent process ended'));
    const onSignal = (signal: NodeJS.Signals) => stop(signal);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const timer = durationSeconds === null ? undefined : setTimeout(() => stop(`--duration ${durationSeconds}`), durationSeconds * 1000);
  });
}

/** report.json alone, masked, replaced whole so that a reader never sees half a file. */
function writeLiveReport(outDir: string, report: Report, secrets: readonly string[]): void {
  const file = join(outDir, 'report.json');
  writeFileSync(`${file}.partial`, `${JSON.stringify(mask(report, secrets), null, 2)}\n`);
  renameSync(`${file}.partial`, file);
}

export async function observeCommand(args: string[]): Promise<number> {
  const options = parseObserveOptions(args);
  const profile = options.profilePath ? loadProfile(options.profilePath) : null;
  const outDir = reportDir(options.outDir, new Date(), '-observe');
  mkdirSync(outDir, { recursive: true });
  const observer = await startObserver({ ...options, profile });
  say(`observing ${options.upstream} at ${observer.url}; stop with Ctrl-C${options.durationSeconds ? ` or after ${options.durationSeconds} s` : ''}`);
  const live = options.liveReport ? setInterval(() => writeLiveReport(outDir, observer.report(), observer.secrets()), liveReportSeconds * 1000) : undefined;
  say(`stopping (${await untilStopped(options.durationSeconds)})`);
  clearInterval(live);
  const report = await observer.stop();
  return publishReport(outDir, report, observer.secrets());
}
