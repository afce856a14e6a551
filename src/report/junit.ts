/**
 * junit.xml for CI systems: a testsuite per section of the clause catalogue, a testcase per test of
 * each clause. Only what makes the run non-conformant is a <failure>: a SHOULD warning outside
 * --strict and an INFO observation are not; an incomplete run is an <error>.
 */
import { failuresFirst, type Report, type ReportClause } from './report.ts';
import { describeClassCount } from './classes.ts';

export function escapeXml(text: string): string {
  return (
    text
      // Characters XML 1.0 cannot hold at all.
      .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
      .replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
  );
}

interface Case {
  xml: string;
  failed: boolean;
  skipped: boolean;
}

export function renderJunit(report: Report): string {
  const sections = new Map<string, ReportClause[]>();
  // Failures first: the sections that hold one, and in each the clauses that failed.
  for (const clause of failuresFirst(report.clauses)) sections.set(clause.section, [...(sections.get(clause.section) ?? []), clause]);
  const properties = coverageProperties(report);
  const suites = [...sections].map(([section, clauses]) => suite(section, clauses.flatMap(casesOf), withClasses(properties, clauses)));
  if (report.verdict === 'incomplete') {
    const error = `<error message="${escapeXml(report.reason ?? 'incomplete')}"/>`;
    suites.unshift(
      `  <testsuite name="run" tests="1" failures="0" errors="1" skipped="0">\n${properties}\n    <testcase classname="run" name="the conformance run">${error}</testcase>\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="${escapeXml(`${report.suite.name} ${report.suite.version}`)}">
${suites.join('\n')}
</testsuites>
`;
}

/** The run's coverage, first in every testsuite: CI systems show a suite's properties, not the root's. */
function coverageProperties(report: Report): string {
  const property = (name: string, value: string) => `      <property name="${name}" value="${escapeXml(value)}"/>`;
  const { coverage } = report;
  return [
    '    <properties>',
    property('coverage', coverage.statement),
    property('partial', String(coverage.partial)),
    property('verified', coverage.verified.join(' ')),
    property('skipped', coverage.skipped.join(' ')),
    property('untested', coverage.untested.join(' ')),
    '    </properties>',
  ].join('\n');
}

/** The section's input classes, one property per clause that has any, after the run's coverage. */
function withClasses(properties: string, clauses: readonly ReportClause[]): string {
  const lines = clauses.flatMap(({ id, classes }) => {
    const count = describeClassCount(classes);
    if (!count) return [];
    const skipped = classes.skipped.map(({ name, why }) => `${name}: ${why}`);
    return [`      <property name="classes ${escapeXml(id)}" value="${escapeXml([count, ...skipped].join('; '))}"/>`];
  });
  return properties.replace(/\n    <\/properties>$/, `${lines.map((line) => `\n${line}`).join('')}\n    </properties>`);
}

function suite(name: string, cases: Case[], properties: string): string {
  const failures = cases.filter((c) => c.failed).length;
  const skipped = cases.filter((c) => c.skipped).length;
  return `  <testsuite name="${escapeXml(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}">
${properties}
${cases.map((c) => c.xml).join('\n')}
  </testsuite>`;
}

function casesOf(clause: ReportClause): Case[] {
  const open = (name: string) => `    <testcase classname="${escapeXml(clause.id)}" name="${escapeXml(name)}">`;
  if (clause.tests.length === 0) {
    return [
      { xml: `${open(`${clause.id} (${clause.level})`)}<skipped message="untested: no check for this clause"/></testcase>`, failed: false, skipped: true },
    ];
  }
  return clause.tests.map((test) => {
    const name = `${clause.id} (${clause.level}) ${test.title}`;
    // Attribute values lose their line breaks: the message is the first line, the body has it all.
    const reason = escapeXml((test.reason ?? '').split('\n')[0]);
    if (test.status === 'skipped') return { xml: `${open(name)}<skipped message="${reason}"/></testcase>`, failed: false, skipped: true };
    if (test.status === 'failed' && clause.status === 'failed') {
      const details = escapeXml(`${test.reason ?? ''}\nreplay: ${test.replay ?? ''}`);
      return { xml: `${open(name)}<failure message="${reason}">${details}</failure></testcase>`, failed: true, skipped: false };
    }
    const status = clause.status === 'waived' ? `waived (${escapeXml(clause.waiver!.reason)}, expires ${clause.waiver!.expires})` : clause.status;
    const note = test.status === 'failed' ? `<system-out>${status}: ${reason}</system-out>` : '';
    return { xml: `${open(name)}${note}</testcase>`, failed: false, skipped: false };
  });
}
