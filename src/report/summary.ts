/** summary.md: the verdict, the counts and the clauses that need a look, for a pull-request comment. */
import { describeWaiver } from './baseline.ts';
import { describeInputCoverage } from './input-coverage.ts';
import { findingsOf, skippedUnder, type Report } from './report.ts';
import { describeClassCount } from './classes.ts';
import { clauseFamilies, gridStatuses, statusSymbol } from './grid.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

export function renderSummary(report: Report): string {
  const { summary } = report;
  const lines = [
    cell(report.coverage.statement),
    '',
    `## checkout-conformance: ${report.verdict}`,
    '',
    ...gridLines(report),
    '',
    ...(report.reason ? [`**${report.verdict === 'incomplete' ? 'Incomplete' : 'Stopped early'}:** ${cell(report.reason)}`, ''] : []),
    `Target ${report.target.baseUrl} (profile ${report.target.profile}), suite ${report.suite.version}, seed ${report.seed}${report.strict ? ', strict' : ''}${report.shard ? `, shard ${report.shard}` : ''}.`,
    '',
    ...findingsOf(report).map((finding) => `- ${cell(finding)}`),
    ...(report.inputCoverage ? [`- ${cell(describeInputCoverage(report.inputCoverage))} (the table: report.html)`] : []),
    ...(findingsOf(report).length || report.inputCoverage ? [''] : []),
    '| passed | failed | warnings | skipped | observed | untested | waived |',
    '|---|---|---|---|---|---|---|',
    `| ${summary.passed} | ${summary.failed} | ${summary.warnings} | ${summary.skipped} | ${summary.observed} | ${summary.untested} | ${summary.waived} |`,
  ];
  const failures = report.failures;
  if (failures.length > 0) {
    lines.push('', '| clause | level | status | why |', '|---|---|---|---|');
    for (const failure of failures) {
      const clause = report.clauses.find((c) => c.id === failure.clause)!;
      const waiver = clause.waiver ? `waiver ${describeWaiver(clause.waiver)}; ` : '';
      lines.push(`| ${failure.clause} | ${failure.level} | ${failure.status} | ${cell(short(waiver + failure.reason))} |`);
    }
  }
  // The clauses not verified are in the coverage line above, grouped by why: no row each.
  const withSkips = report.clauses.flatMap((clause) => {
    const skipped = skippedUnder(clause);
    return skipped
      ? [
          `- ${clause.id} ${clause.status}, ${skipped}: ${cell(short(clause.tests.find((test) => test.status === 'skipped')?.reason?.split('\n')[0] ?? 'skipped'))}`,
        ]
      : [];
  });
  if (withSkips.length > 0) lines.push('', 'Verified with some tests skipped:', '', ...withSkips);
  if (report.unusedWaivers.length > 0) {
    lines.push('', 'Waivers that matched no failure (remove them from the baseline):', '', ...report.unusedWaivers.map((w) => `- ${cell(describeWaiver(w))}`));
  }
  lines.push(...classLines(report));
  return fitted(lines);
}

/** Every clause as a symbol and its ID, one row per family, the n-th clause of each family in column n; a legend under it. */
function gridLines(report: Report): string[] {
  const families = clauseFamilies(report.clauses);
  const width = Math.max(...families.map((family) => family.clauses.length));
  const columns = Array.from({ length: width }, (_, n) => n);
  return [
    `| | ${columns.map((n) => n + 1).join(' | ')} |`,
    `|---|${columns.map(() => '---|').join('')}`,
    ...families.map(
      ({ name, clauses }) => `| **${name}** | ${columns.map((n) => (clauses[n] ? `${statusSymbol[clauses[n].status]} ${clauses[n].id}` : '')).join(' | ')} |`,
    ),
    '',
    gridStatuses.map((status) => `${statusSymbol[status]} ${status}`).join(' · '),
  ];
}

/** A pull-request comment's limit (GitHub's is 65,536 characters), with room for what a CI step adds around it. */
const summaryMaxChars = 60_000;
const cellMaxChars = 300;

const short = (text: string) => (text.length > cellMaxChars ? `${text.slice(0, cellMaxChars - 1)}…` : text);

/** The lines, cut where they would pass summaryMaxChars, with a last line that says how many were left out. */
function fitted(lines: readonly string[]): string {
  let size = 0;
  for (let kept = 0; kept < lines.length; kept++) {
    size += lines[kept].length + 1;
    if (size > summaryMaxChars - 200) {
      return `${[...lines.slice(0, kept), '', `… ${lines.length - kept} more lines: see report.html`].join('\n')}\n`;
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Per clause with input classes: how many ran, and each that did not with why. */
function classLines(report: Report): string[] {
  const rows = report.clauses
    .filter((clause) => describeClassCount(clause.classes))
    .map(
      ({ id, classes }) =>
        `| ${id} | ${classes.exercised.length}/${classes.exercised.length + classes.skipped.length} | ${short(cell(classes.skipped.map(({ name, why }) => `${name}: ${why}`).join('; '))) || '-'} |`,
    );
  return rows.length ? ['', 'Input classes:', '', '| clause | exercised | not exercised, and why |', '|---|---|---|', ...rows] : [];
}
