/**
 * "checkout-conformance diff OLD NEW [--format text|md]": what changed between two report.json,
 * clause by clause. Exit 1 on any regression, for a nightly check after an upgrade.
 */
import { readFileSync } from 'node:fs';
import type { ClauseStatus, Report, ReportClause } from '../report/report.ts';
import { parseCommandArgs, UsageError } from '../core/command-line.ts';

export const diffUsage = `Usage: checkout-conformance diff OLD NEW [--format text|md]

Compares two report.json (or the folders holding them) clause by clause.
  --format md    Markdown, for a pull-request comment (default: plain text)
Exit status: 1 when a clause regressed (or the new run is incomplete and the old was not), else 0.`;

export interface Change {
  id: string;
  level: string;
  from: ClauseStatus;
  to: ClauseStatus;
  /** Why the new status, where a test says (first line). */
  why: string;
}

export interface ReportDiff {
  from: Report['verdict'];
  to: Report['verdict'];
  /** A failure that was not one before, or a warning where it passed. */
  regressed: Change[];
  /** A failure or warning that now passes. */
  recovered: Change[];
  /** A clause checked before that is now skipped or untested. */
  unchecked: Change[];
}

const unchecked = new Set<ClauseStatus>(['skipped', 'untested']);
const passing = new Set<ClauseStatus>(['passed', 'observed']);

function isRegression(from: ClauseStatus, to: ClauseStatus): boolean {
  return (to === 'failed' && from !== 'failed') || (to === 'warning' && passing.has(from));
}

export function diffReports(old: Report, current: Report): ReportDiff {
  const before = new Map(old.clauses.map((clause) => [clause.id, clause.status]));
  const diff: ReportDiff = { from: old.verdict, to: current.verdict, regressed: [], recovered: [], unchecked: [] };
  for (const clause of current.clauses) {
    const from = before.get(clause.id) ?? 'untested';
    const change: Change = { id: clause.id, level: clause.level, from, to: clause.status, why: whyOf(clause) };
    if (isRegression(from, clause.status)) diff.regressed.push(change);
    else if ((from === 'failed' || from === 'warning') && passing.has(clause.status)) diff.recovered.push(change);
    else if (unchecked.has(clause.status) && !unchecked.has(from)) diff.unchecked.push(change);
  }
  return diff;
}

/** Exit 1 on a regression, or when the new run could not be made and the old one could. */
export function diffExitCode(diff: ReportDiff): 0 | 1 {
  return diff.regressed.length > 0 || (diff.to === 'incomplete' && diff.from !== 'incomplete') ? 1 : 0;
}

function whyOf(clause: ReportClause): string {
  const reason = clause.tests.find((test) => test.status !== 'passed' && test.reason)?.reason ?? '';
  return reason.split('\n')[0];
}

const groups = [
  ['regressed', 'Regressed'],
  ['recovered', 'Recovered'],
  ['unchecked', 'No longer checked (skipped or untested)'],
] as const;

export function renderDiff(diff: ReportDiff, format: 'text' | 'md'): string {
  const lines: string[] = [];
  if (format === 'md') {
    lines.push(`## checkout-conformance diff: ${diff.from} → ${diff.to}`);
    for (const [key, title] of groups) {
      if (diff[key].length === 0) continue;
      lines.push('', `### ${title} (${diff[key].length})`, '', '| clause | level | was | now | why |', '|---|---|---|---|---|');
      for (const c of diff[key]) lines.push(`| ${c.id} | ${c.level} | ${c.from} | ${c.to} | ${c.why.replace(/\|/g, '\\|')} |`);
    }
    if (groups.every(([key]) => diff[key].length === 0)) lines.push('', 'No clause changed.');
  } else {
    lines.push(`verdict: ${diff.from} → ${diff.to}`);
    for (const [key, title] of groups) {
      lines.push(`${title}: ${diff[key].length}`);
      for (const c of diff[key]) lines.push(`  ${c.id} (${c.level}) ${c.from} → ${c.to}${c.why ? `: ${c.why}` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function diffCommand(args: string[]): number {
  const { values, positionals } = parseCommandArgs(args, { format: { type: 'string' } });
  if (positionals.length !== 2) throw new UsageError('diff needs two reports: OLD NEW');
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'md') throw new UsageError(`--format must be text or md, not "${format}"`);
  const diff = diffReports(readReport(positionals[0]), readReport(positionals[1]));
  process.stdout.write(renderDiff(diff, format));
  return diffExitCode(diff);
}

/** A report.json, given as the file or the folder that holds it. */
export function readReport(path: string): Report {
  const file = path.endsWith('.json') ? path : `${path.replace(/\/+$/, '')}/report.json`;
  let report: Report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as Report;
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(report?.clauses) || typeof report.verdict !== 'string') throw new UsageError(`${file} is not a conformance report`);
  return report;
}
