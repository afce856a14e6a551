/** summary.md: the verdict, the counts and the clauses that need a look, for a pull-request comment. */
import { describeWaiver } from './baseline.ts';
import type { Report } from './report.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

export function renderSummary(report: Report): string {
  const { summary } = report;
  const lines = [
    cell(report.coverage.statement),
    '',
    `## checkout-conformance: ${report.verdict}`,
    '',
    ...(report.reason ? [`**Incomplete:** ${cell(report.reason)}`, ''] : []),
    `Target ${report.target.baseUrl} (profile ${report.target.profile}), suite ${report.suite.version}, seed ${report.seed}${report.strict ? ', strict' : ''}${report.shard ? `, shard ${report.shard}` : ''}.`,
    '',
    ...report.target.findings.map((finding) => `- ${cell(finding)}`),
    ...(report.target.findings.length ? [''] : []),
    '| passed | failed | warnings | skipped | observed | untested | waived |',
    '|---|---|---|---|---|---|---|',
    `| ${summary.passed} | ${summary.failed} | ${summary.warnings} | ${summary.skipped} | ${summary.observed} | ${summary.untested} | ${summary.waived} |`,
  ];
  const notPassed = report.clauses.filter((clause) => clause.status !== 'passed' && clause.status !== 'observed');
  if (notPassed.length > 0) {
    lines.push('', '| clause | level | status | why |', '|---|---|---|---|');
    for (const clause of notPassed) {
      const why = clause.tests.find((test) => test.status !== 'passed' && test.reason)?.reason ?? (clause.tests.length ? '' : 'no check');
      const waiver = clause.waiver ? `waiver ${describeWaiver(clause.waiver)}; ` : '';
      lines.push(`| ${clause.id} | ${clause.level} | ${clause.status} | ${cell(waiver + why.split('\n')[0])} |`);
    }
  }
  if (report.unusedWaivers.length > 0) {
    lines.push('', 'Waivers that matched no failure (remove them from the baseline):', '', ...report.unusedWaivers.map((w) => `- ${cell(describeWaiver(w))}`));
  }
  return `${lines.join('\n')}\n`;
}
