/**
 * "checkout-conformance package DIR [--out FILE]": one .tar.gz of a run's report.html, report.json,
 * junit.xml and metadata.json (suite, seed, target, profile without secrets, times), to send to a
 * partner or attach to a certification request. A signed report goes with its signature and every
 * file report.json attests, so that "checkout-conformance verify" checks the unpacked archive.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { mask } from '../core/evidence.ts';
import type { Profile, RunConfig } from '../core/run-config.ts';
import { readReport } from './diff.ts';
import type { Report } from '../report/report.ts';
import { signatureFile, type AttestedReport } from '../report/attestation.ts';
import { parseCommandArgs, UsageError, say } from '../core/command-line.ts';

export const packageUsage = `Usage: checkout-conformance package DIR [--out FILE]

Writes one archive (.tar.gz) of the report in DIR: report.html, report.json, junit.xml, metadata.json;
for a report signed by run --sign, also report.json.sig and every file report.json attests.
  --out FILE    the archive (default DIR.tar.gz)`;

export const packagedReportFiles = ['report.html', 'report.json', 'junit.xml'] as const;

export function packageCommand(args: string[]): number {
  const { values, positionals } = parseCommandArgs(args, { out: { type: 'string' } });
  if (positionals.length !== 1) throw new UsageError('package needs one report folder: DIR');
  const dir = positionals[0];
  const missing = packagedReportFiles.filter((file) => !existsSync(join(dir, file)));
  if (missing.length > 0) throw new UsageError(`${dir} has no ${missing.join(', ')}: is it a report folder?`);
  const report = readReport(dir);
  const files = [
    ...filesToPackage(dir, report).map((name) => ({ name, content: readFileSync(join(dir, name)) })),
    { name: 'metadata.json', content: Buffer.from(`${JSON.stringify(metadataOf(report, dir), null, 2)}\n`) },
  ];
  const out = resolve(values.out ?? `${dir.replace(/\/+$/, '')}.tar.gz`);
  writeFileSync(out, gzipSync(tar(files, new Date(report.finishedAt))));
  say(`package ${out}`);
  return 0;
}

/** The report files, and for a signed report its signature and the files it attests. */
function filesToPackage(dir: string, report: Partial<AttestedReport>): string[] {
  if (!existsSync(join(dir, signatureFile))) return [...packagedReportFiles];
  const attested = Object.keys(report.attestation?.files ?? {}).filter((name) => existsSync(join(dir, name)));
  return [...new Set([...packagedReportFiles, signatureFile, ...attested])];
}

/** What a partner needs to know about the run besides the report; no credential, no secret. */
function metadataOf(report: Report, dir: string) {
  const runConfigFile = join(dir, 'run-config.json');
  const run = existsSync(runConfigFile) ? (JSON.parse(readFileSync(runConfigFile, 'utf8')) as RunConfig) : null;
  return {
    suite: report.suite,
    verdict: report.verdict,
    seed: report.seed,
    runs: report.runs,
    strict: report.strict,
    grep: report.grep,
    target: report.target,
    profile: run ? publicProfile(run.profile) : null,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
  };
}

/** The profile with its header names but not their values, and without the notification secret. */
function publicProfile({ notificationSecret, headers, ...rest }: Profile) {
  return mask({ ...rest, headerNames: Object.keys(headers), signsNotifications: notificationSecret !== undefined });
}

/** A ustar archive of plain files (names under 100 bytes), ending in the two empty blocks. */
export function tar(files: { name: string; content: Buffer }[], modified: Date): Buffer {
  const blocks = files.flatMap(({ name, content }) => {
    const header = Buffer.alloc(512);
    const field = (offset: number, length: number, value: string) => header.write(value, offset, length, 'utf8');
    const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, '0');
    field(0, 100, name);
    field(100, 8, octal(0o644, 8));
    field(108, 8, octal(0, 8));
    field(116, 8, octal(0, 8));
    field(124, 12, octal(content.length, 12));
    field(136, 12, octal(Math.floor(modified.getTime() / 1000), 12));
    field(148, 8, ' '.repeat(8)); // the checksum counts its own field as spaces
    field(156, 1, '0');
    field(257, 8, 'ustar\u000000');
    const checksum = header.reduce((sum, byte) => sum + byte, 0);
    field(148, 8, `${octal(checksum, 7)}\u0000`);
    return [header, content, Buffer.alloc((512 - (content.length % 512)) % 512)];
  });
  return Buffer.concat([...blocks, Buffer.alloc(1024)]);
}
