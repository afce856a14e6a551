/** report.html: one self-contained page (no external resource) a partner can open offline. */
import type { Evidence } from '../core/evidence.ts';
import { describeWaiver } from './baseline.ts';
import { describeInputCoverage, type InputCoverage } from './input-coverage.ts';
import { failuresFirst, findingsOf, skippedUnder, type Report, type ReportClause, type ReportTest } from './report.ts';
import { describeClassCount, type ClauseClasses } from './classes.ts';
import { loadClauseIndex, type ClauseIndexEntry } from './clause-index.ts';
import { clauseFamilies, gridStatuses } from './grid.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The statement's Markdown, as the catalogue writes it: `code` and **strong**. */
function inlineMarkdown(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

const json = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2) ?? 'null')}</pre>`;
const statuses = ['failed', 'warning', 'waived', 'passed', 'skipped', 'untested', 'observed'];
const levels = ['MUST', 'SHOULD', 'INFO'];

export function renderHtml(report: Report): string {
  const index = loadClauseIndex();
  const title = `Conformance of ${report.target.baseUrl}: ${report.verdict}`;
  const options = (values: string[]) => values.map((v) => `<option value="${v}">${v}</option>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<p class="coverage${report.coverage.partial ? ' partial' : ''}">${escapeHtml(report.coverage.statement)}</p>
<h1>checkout-conformance: <span class="status ${report.verdict}">${report.verdict}</span></h1>
${clauseGrid(report.clauses)}
${report.reason ? `<p class="reason">${escapeHtml(report.reason)}</p>` : ''}
<dl>
<dt>Target</dt><dd>${escapeHtml(report.target.baseUrl)} (${escapeHtml(report.target.kind)}, profile ${escapeHtml(report.target.profile)})</dd>
${findingsOf(report).length ? `<dt>Preflight</dt><dd>${findingsOf(report).map(escapeHtml).join('<br>')}</dd>` : ''}
<dt>Suite</dt><dd>${escapeHtml(report.suite.name)} ${escapeHtml(report.suite.version)}</dd>
<dt>Seed</dt><dd>${report.seed} (${report.runs} cases per property${report.strict ? ', strict' : ''}${report.grep ? `, grep ${escapeHtml(report.grep)}` : ''}${report.shard ? `, shard ${report.shard}` : ''})</dd>
<dt>Run</dt><dd>${escapeHtml(report.startedAt)} to ${escapeHtml(report.finishedAt)}</dd>
<dt>Clauses</dt><dd>${Object.entries(report.summary)
    .map(([name, count]) => `${count} ${name}`)
    .join(', ')}</dd>
${report.unusedWaivers.length ? `<dt>Unused waivers</dt><dd>${report.unusedWaivers.map((w) => escapeHtml(describeWaiver(w))).join('<br>')}</dd>` : ''}
</dl>
<p class="filters">
<label>Status <select id="status"><option value="">all</option>${options(statuses)}</select></label>
<label>Level <select id="level"><option value="">all</option>${options(levels)}</select></label>
</p>
<table>
<thead><tr><th>Clause</th><th>Level</th><th>Status</th><th>Statement and tests</th></tr></thead>
<tbody>
${failuresFirst(report.clauses)
  .map((clause) => clauseRow(clause, report.seed, index.get(clause.id)))
  .join('\n')}
</tbody>
</table>
${report.inputCoverage ? inputCoverageBlock(report.inputCoverage) : ''}
<script>${filterScript}</script>
</body>
</html>
`;
}

/** Per operation and field, the partitions of its type the run sent (how many values) and those it did not, with why where it need not. */
function inputCoverageBlock(coverage: InputCoverage): string {
  const rows = coverage.fields.map((field) => {
    const sent = Object.entries(field.sent)
      .filter(([, count]) => count > 0)
      .map(([partition, count]) => `${escapeHtml(partition)} (${count})`)
      .join(', ');
    const notSent = field.notSent.map(({ partition, why }) => escapeHtml(why ? `${partition}: ${why}` : partition)).join(', ');
    return `<tr><td>${escapeHtml(field.operation)}</td><td><code>${escapeHtml(field.field)}</code></td><td>${sent}</td><td>${notSent}</td></tr>`;
  });
  return `<details class="input-coverage"><summary>${escapeHtml(describeInputCoverage(coverage))}</summary>
<table>
<thead><tr><th>Operation</th><th>Field</th><th>Partitions sent (values)</th><th>Not sent</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</details>`;
}

function clauseRow(clause: ReportClause, seed: number, proof: ClauseIndexEntry | undefined): string {
  const open = clause.status === 'failed' || clause.status === 'warning' || clause.status === 'waived' ? ' open' : '';
  const waiver = clause.waiver ? `<p class="waiver">Waiver ${escapeHtml(describeWaiver(clause.waiver))}</p>` : '';
  const skipped = skippedUnder(clause);
  const tests = clause.tests.length
    ? `<details${open}><summary>${clause.tests.length} test${clause.tests.length === 1 ? '' : 's'}${skipped ? `, ${skipped.replace(/ of \d+ tests?/, '')}` : ''}</summary>${clause.tests.map((test) => testBlock(test, seed)).join('')}</details>`
    : '';
  return `<tr id="${escapeHtml(clause.id)}" data-status="${clause.status}" data-level="${clause.level}">
<td>${escapeHtml(clause.id)}</td><td>${clause.level}</td><td><span class="status ${clause.status}">${clause.status}</span>${skipped ? `<br><small class="skipped-under">${skipped}</small>` : ''}</td>
<td><p>${inlineMarkdown(clause.statement)}</p>${waiver}${classesBlock(clause.classes)}${tests}${proofBlock(proof)}</td></tr>`;
}

/** The clauses at a glance, before any words: one row per family, a cell per clause named and coloured by its status, linking to its row below. */
function clauseGrid(clauses: readonly ReportClause[]): string {
  const families = clauseFamilies(clauses);
  const columns = Math.max(...families.map((family) => family.clauses.length));
  const cell = (clause: ReportClause) =>
    `<a class="cell ${clause.status}" href="#${escapeHtml(clause.id)}" title="${escapeHtml(`${clause.id} (${clause.level}): ${clause.status}`)}">${escapeHtml(clause.id)}<small>${clause.status}</small></a>`;
  const rows = families.map(({ name, clauses: members }) => `<span class="family">${escapeHtml(name)}</span>${members.map(cell).join('')}`);
  const legend = gridStatuses.map(
    (status) => `<li><span class="swatch ${status}"></span>${status} ${clauses.filter((clause) => clause.status === status).length}</li>`,
  );
  return `<nav class="grid" aria-label="Clauses by family and status" style="grid-template-columns: max-content repeat(${columns}, minmax(0, 1fr))">
${rows.join('\n')}
</nav>
<ul class="legend">${legend.join('')}</ul>`;
}

/** The clause index's entry (docs/clause-index.md): the checks, tests and mutants that prove the clause. */
function proofBlock(proof: ClauseIndexEntry | undefined): string {
  if (!proof) return '';
  const names = (items: readonly string[]) => (items.length === 0 ? 'none' : items.map((item) => `<code>${escapeHtml(item)}</code>`).join(', '));
  const rows = [
    ['Checks', names(proof.checks)],
    ['Tests', proof.tests.length === 0 ? 'none' : `<ul>${proof.tests.map((test) => `<li>${escapeHtml(test)}</li>`).join('')}</ul>`],
    ['Schema keywords', names(proof.schemaKeywords)],
    ['observe', proof.observe ? 'judges it in real traffic' : 'does not judge it'],
    ['Mutants killed on it', names(proof.mutants)],
    ...(proof.benignVariants.length > 0 ? [['Benign variants of its freedom', names(proof.benignVariants)]] : []),
  ];
  return `<details class="proof"><summary>What proves it</summary><dl>${rows.map(([name, value]) => `<dt>${name}</dt><dd>${value}</dd>`).join('')}</dl></details>`;
}

/** The clause's input classes: those exercised, and those not with why. */
function classesBlock(classes: ClauseClasses): string {
  const count = describeClassCount(classes);
  if (!count) return '';
  const skipped = classes.skipped.map(({ name, why }) => `<li class="skipped-class">${escapeHtml(name)}: ${escapeHtml(why)}</li>`).join('');
  const exercised = classes.exercised.map((name) => `<li>${escapeHtml(name)}</li>`).join('');
  return `<details class="classes"><summary>${escapeHtml(count)}</summary>${skipped ? `<p>Not exercised</p><ul>${skipped}</ul>` : ''}<p>Exercised</p><ul>${exercised}</ul></details>`;
}

function testBlock(test: ReportTest, seed: number): string {
  const parts = [`<h3><span class="status ${test.status}">${test.status}</span> ${escapeHtml(test.title)} <small>${escapeHtml(test.file)}</small></h3>`];
  if (test.reason) parts.push(`<pre class="reason">${escapeHtml(test.reason)}</pre>`);
  if (test.status === 'failed') {
    parts.push(`<p>Seed ${seed}. Replay: <code>${escapeHtml(test.replay ?? '')}</code></p>`);
    if (test.property) {
      parts.push(
        `<p>Property: seed ${test.property.seed}, ${test.property.runs} runs${test.property.path ? `, path <code>${escapeHtml(test.property.path)}</code>` : ''}</p>`,
      );
      if (test.property.counterexample !== undefined) parts.push(`<p>Counterexample</p>${json(test.property.counterexample)}`);
    }
  }
  // Collapsed: the reason says what failed; the exchanges that prove it are a click away.
  const exchanges = test.evidence.filter((evidence) => evidence.request || evidence.response).length;
  if (test.evidence.length > 0) {
    parts.push(
      `<details class="evidence-list"><summary>Evidence: ${exchanges} exchange${exchanges === 1 ? '' : 's'}</summary>${test.evidence.map(evidenceBlock).join('\n')}</details>`,
    );
  }
  parts.push(...test.observations.map((o) => `<details><summary>Observed: ${escapeHtml(o.note)}</summary>${json(o.value)}</details>`));
  return `<div class="test">${parts.join('\n')}</div>`;
}

function evidenceBlock(evidence: Evidence): string {
  const curl = evidence.curl ? `<p>Send it again</p><pre>${escapeHtml(evidence.curl)}</pre>` : '';
  return `<div class="evidence"><p>${escapeHtml(evidence.note)}</p>
<div class="exchange"><div><p>Request</p>${json(evidence.request)}</div><div><p>Response</p>${json(evidence.response)}</div></div>${curl}</div>`;
}

const style = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2em 1em; }
dt { font-weight: bold; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: .4em; text-align: left; vertical-align: top; }
td p { margin: 0 0 .3em; }
pre { background: #f6f6f6; padding: .5em; overflow-x: auto; white-space: pre-wrap; word-break: break-word; }
.status { padding: 0 .4em; border-radius: 3px; font-weight: bold; }
.passed, .conformant { background: #d9f2d9; }
.failed, .non-conformant { background: #f8d0d0; }
.warning, .incomplete { background: #fbe7c0; }
.skipped, .untested { background: #e6e6e6; }
.waived { background: #ece0f5; }
.skipped-class { color: #6b4d00; }
.observed { background: #d6e6f8; }
.reason { color: #8a1f1f; max-height: 20em; overflow-y: auto; }
.skipped-under { color: #555; }
.coverage { font-weight: bold; }
.coverage.partial { background: #fbe7c0; padding: .4em; }
.test { border-left: 3px solid #ddd; padding-left: .8em; margin: .6em 0; }
.test h3 { font-size: 1em; margin: .2em 0; }
.exchange { display: grid; grid-template-columns: 1fr 1fr; gap: .5em; }
.grid { display: grid; gap: 3px; margin: .8em 0 .4em; }
.grid .family { grid-column: 1; align-self: center; font-weight: bold; padding-right: .6em; }
.grid .cell { display: block; padding: .25em .4em; border: 1px solid #0002; border-radius: 3px; color: #222; font-weight: bold; text-decoration: none; white-space: nowrap; }
.grid .cell small { display: block; font-weight: normal; }
.grid .cell.failed { border: 2px solid #a33; }
.grid .cell.warning { border: 2px solid #b37a00; }
.grid .cell.untested, .swatch.untested { background: #fff; border-style: dashed; }
.grid .cell:hover, .grid .cell:focus { outline: 2px solid #222; }
.legend { display: flex; flex-wrap: wrap; gap: .3em 1.2em; list-style: none; padding: 0; margin: 0 0 1em; }
.swatch { display: inline-block; width: 1em; height: 1em; border: 1px solid #0003; border-radius: 2px; margin-right: .3em; vertical-align: -.15em; }
`;

const filterScript = `
const rows = Array.from(document.querySelectorAll('tbody tr'));
const statusFilter = document.getElementById('status');
const levelFilter = document.getElementById('level');
function applyFilters() {
  for (const row of rows) {
    row.hidden = (statusFilter.value && row.dataset.status !== statusFilter.value) ||
      (levelFilter.value && row.dataset.level !== levelFilter.value);
  }
}
statusFilter.addEventListener('change', applyFilters);
levelFilter.addEventListener('change', applyFilters);
`;
