/**
 * "checkout-conformance merge DIR... [--out DIR] [--baseline FILE]": joins the report folders of a
 * sharded run ("run --shard i/n") into one report. Playwright's own merge-reports joins the blob
 * reports, with the conformance reporter as its reporter; the report is built as a run's is.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clauses } from '../core/clauses.ts';
import type { RunConfig } from '../core/run-config.ts';
import { loadBaseline } from '../report/baseline.ts';
import { blobDirOf, mergeBlobReports } from './playwright.ts';
import { rawResultsFile, type RawResults } from '../report/raw-results.ts';
import { readReport } from './diff.ts';
import { buildReport, contextOf, type Report } from '../report/report.ts';
import { reportDir } from '../report/folder.ts';
import { parseCommandArgs, UsageError } from '../core/command-line.ts';
import { publishReport } from '../report/publish.ts';

export const mergeUsage = `Usage: checkout-conformance merge DIR... [--out DIR] [--baseline FILE]

Joins the report folders of the parts of a sharded run (run --shard I/N, same seed) into one report.
  --out DIR          where the merged report goes (default reports/<timestamp>-merged)
  --baseline FILE    waivers of known failures, as for run`;

const mergeTimeoutMs = 10 * 60_000;

interface Part {
  dir: string;
  report: Report;
  blobs: string[];
}

export async function mergeCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { out: { type: 'string' }, baseline: { type: 'string' } });
  if (positionals.length === 0) throw new UsageError('merge needs the report folders of the parts');
  const parts = positionals.map(readPart);
  checkSameRun(parts);
  const waivers = values.baseline ? loadBaseline(values.baseline, clauses()) : [];
  const outDir = reportDir(values.out, new Date(), '-merged');
  const raw = await mergeBlobs(parts, outDir);
  const first = parts[0].report;
  const report = buildReport(
    clauses(),
    raw,
    {
      ...contextOf(first),
      shard: null,
      startedAt: parts.map((part) => part.report.startedAt).sort()[0],
      finishedAt: parts
        .map((part) => part.report.finishedAt)
        .sort()
        .at(-1)!,
      inputCoverage: null,
    },
    partsFailure(parts),
    waivers,
  );
  return publishReport(outDir, report, []);
}

function readPart(dir: string): Part {
  const report = readReport(dir);
  if (!report.shard) throw new UsageError(`${dir} is not a part of a sharded run (run --shard I/N)`);
  const blobDir = blobDirOf(dir);
  const blobs = existsSync(blobDir)
    ? readdirSync(blobDir)
        .filter((name) => name.endsWith('.zip'))
        .map((name) => join(blobDir, name))
    : [];
  return { dir, report, blobs };
}

/** Parts of one run share the seed, the cases per property, --strict, --grep and the suite version. */
function checkSameRun(parts: Part[]): void {
  const runOf = ({ report }: Part) => JSON.stringify([report.seed, report.runs, report.strict, report.grep, report.suite.version, report.shard!.split('/')[1]]);
  const other = parts.find((part) => runOf(part) !== runOf(parts[0]));
  if (other) {
    throw new UsageError(
      `${other.dir} is not a part of the same run as ${parts[0].dir}: seed, runs, --strict, --grep, suite version and shard count must match`,
    );
  }
}

/**
 * Why the merged report cannot be complete: a part missing, or a part whose checks never ran. Each
 * part verifies only its share of the clauses, so a part's own verdict is no guide: the merged
 * clauses decide, as a run's do.
 */
function partsFailure(parts: Part[]): string | null {
  const count = Number(parts[0].report.shard!.split('/')[1]);
  const present = new Set(parts.map((part) => part.report.shard));
  const missing = Array.from({ length: count }, (_, i) => `${i + 1}/${count}`).filter((shard) => !present.has(shard));
  if (missing.length > 0) return `shard ${missing.join(', ')} missing from the merge`;
  const withoutChecks = parts.find((part) => part.blobs.length === 0);
  return withoutChecks ? `shard ${withoutChecks.report.shard} ran no checks: ${withoutChecks.report.reason ?? 'no blob report'}` : null;
}

/** Copies the parts' blob reports into outDir and merges them; null when there is nothing to merge. */
async function mergeBlobs(parts: Part[], outDir: string): Promise<RawResults | null> {
  const withBlobs = parts.filter((part) => part.blobs.length > 0);
  if (withBlobs.length === 0) return null;
  const blobDir = blobDirOf(outDir);
  rmSync(blobDir, { recursive: true, force: true });
  mkdirSync(blobDir, { recursive: true });
  withBlobs.forEach((part, index) => part.blobs.forEach((blob, n) => copyFileSync(blob, join(blobDir, `part-${index + 1}-${n + 1}.zip`))));
  // The reporter reads a run config: the first part's masked copy, pointed at the merged folder.
  const run = JSON.parse(readFileSync(join(withBlobs[0].dir, 'run-config.json'), 'utf8')) as RunConfig;
  const configFile = join(outDir, 'run-config.json');
  writeFileSync(configFile, `${JSON.stringify({ ...run, outDir }, null, 2)}\n`);
  const rawFile = join(outDir, rawResultsFile);
  rmSync(rawFile, { force: true });
  await mergeBlobReports(blobDir, configFile, mergeTimeoutMs);
  return existsSync(rawFile) ? (JSON.parse(readFileSync(rawFile, 'utf8')) as RawResults) : null;
}
