import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clauses } from '../../src/core/clauses.ts';
import type { Evidence } from '../../src/core/evidence.ts';
import type { RawTest } from '../../src/report/raw-results.ts';
import { buildReport } from '../../src/report/report.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderSummary } from '../../src/report/summary.ts';
import { clauseFamilies, statusSymbol } from '../../src/report/grid.ts';
import { exampleContext } from '../support/run-context.ts';

const githubCommentMaxChars = 65_536;

function failedAtLength(id: string): RawTest {
  const exchange = (n: number): Evidence => ({
    request: {
      method: 'POST',
      url: `https://target.example/api/checkouts/${n}`,
      headers: { 'content-type': 'application/json' },
      body: { note: 'z'.repeat(4000) },
    },
    response: { status: 500, headers: {}, body: 'w'.repeat(8000) },
    note: `exchange ${n} of ${id}: ${'v'.repeat(1000)}`,
  });
  return {
    title: `${id} holds ${'t'.repeat(500)}`,
    file: 'specs/checkouts.spec.ts',
    clauseIds: [id],
    problems: [{ clause: id as ClauseId, message: `${id} ${'y'.repeat(5000)}` }],
    judged: true,
    status: 'failed',
    reason: `failed ${'r'.repeat(3000)}`,
    evidence: Array.from({ length: 20 }, (_, n) => exchange(n)),
    observations: [],
    property: null,
    durationMs: 5,
  };
}

test('the families come from the clause IDs, in catalogue order, every clause in one', () => {
  const families = clauseFamilies(clauses());
  assert.deepEqual(
    families.map((family) => family.name),
    [...new Set(clauses().map((clause) => clause.id.split('-')[0]))],
  );
  assert.deepEqual(
    families.flatMap((family) => family.clauses),
    clauses(),
  );
});

test('summary.md opens with the grid, one row per family, and stays within a pull-request comment when every clause failed with long evidence', () => {
  const report = buildReport(clauses(), { status: 'passed', errors: [], tests: clauses().map((clause) => failedAtLength(clause.id)) }, exampleContext());
  const summary = renderSummary(report);
  assert.ok(summary.length < githubCommentMaxChars, `${summary.length} characters`);
  assert.ok(summary.indexOf('| **ENV** |') < summary.indexOf('| passed | failed |'), 'the grid before the counts');
  assert.ok(report.clauses.every((clause) => ['failed', 'warning', 'observed'].includes(clause.status)));
  for (const family of clauseFamilies(report.clauses)) {
    const row = summary.split('\n').find((line) => line.startsWith(`| **${family.name}** |`));
    assert.ok(row, `a row for ${family.name}`);
    for (const clause of family.clauses) assert.ok(row.includes(`| ${statusSymbol[clause.status]} ${clause.id} |`), `${clause.id} in ${row}`);
  }
  assert.match(summary, /✅ passed · ❌ failed · ⚠️ warning/);
});

test('report.html opens with the grid: a cell per clause, its status in words, linking to its row', () => {
  const report = buildReport(clauses(), { status: 'passed', errors: [], tests: [failedAtLength('CHK-5')] }, exampleContext());
  const html = renderHtml(report);
  assert.ok(html.indexOf('class="grid"') < html.indexOf('<dl>'), 'the grid before the words');
  assert.match(html, /<a class="cell failed" href="#CHK-5" title="CHK-5 \(MUST\): failed">CHK-5<small>failed<\/small><\/a>/);
  assert.match(html, /<tr id="CHK-5" data-status="failed"/);
  assert.equal(html.match(/<a class="cell /g)?.length, clauses().length);
  assert.match(html, /<li><span class="swatch untested"><\/span>untested \d+<\/li>/);
});
