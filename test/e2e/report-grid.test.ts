/**
 * report.html opens with its picture: the grid of every clause by family, whole above the fold of a
 * laptop's window, for a realistic partial run (failures, warnings, skips, the coverage and the
 * reason at length above it). The screenshot is kept in test-results/report-grid.png.
 */
import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { chromium as playwrightChromium } from '@playwright/test';
import { chromiumArgs, findChromium } from '../../src/core/chromium.ts';
import { clauses } from '../../src/core/clauses.ts';
import type { RawTest } from '../../src/report/raw-results.ts';
import { buildReport } from '../../src/report/report.ts';
import { renderHtml } from '../../src/report/html.ts';
import { exampleContext } from '../support/run-context.ts';
import { packageRoot, tempDir } from '../support/cli.ts';

const viewport = { width: 1400, height: 900 };

/** A run against a provider's sandbox without test helpers or a browser: some clauses fail, many are skipped. */
function realisticTests(): RawTest[] {
  return clauses().map(({ id: named }) => {
    const id = named as ClauseId;
    const base = {
      title: `${id} holds`,
      file: 'specs/checkouts.spec.ts',
      clauseIds: [id],
      problems: [],
      judged: true,
      evidence: [],
      observations: [],
      property: null,
      durationMs: 40,
    };
    if (id.startsWith('TOK-') || id === 'PML-5') return { ...base, judged: false, status: 'skipped', reason: 'target has no test helpers' };
    if (id.startsWith('PAGE-')) return { ...base, judged: false, status: 'skipped', reason: 'no Chromium found: run npm install, or set CHROMIUM_PATH' };
    if (['CHK-9', 'REF-4', 'EVT-2'].includes(id) || id === 'CHK-11') {
      return {
        ...base,
        status: 'failed',
        reason: `${id}: the answer departs from the reference`,
        problems: [{ clause: id, message: `refused nothing: ${'x'.repeat(2000)}` }],
      };
    }
    return { ...base, status: 'passed', reason: null };
  });
}

test('report.html opens with the grid of every clause, whole within a 1400×900 window, each cell a link to its clause', { timeout: 120_000 }, async (t) => {
  const chromium = await findChromium();
  if (chromium.executablePath === null) return t.skip(chromium.reason);
  const report = buildReport(
    clauses(),
    { status: 'passed', errors: [], tests: realisticTests() },
    exampleContext({
      allowPartial: false,
      findings: ['test helpers: not found: POST /test-helpers/customers answered 404', 'hosted pages: found', 'browser: none; the browser checks are skipped'],
    }),
  );
  const dir = tempDir(t, 'report-grid-');
  writeFileSync(join(dir, 'report.html'), renderHtml(report));
  const browser = await playwrightChromium.launch({ executablePath: chromium.executablePath, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport });
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    const cells = page.locator('.grid a.cell');
    assert.equal(await cells.count(), clauses().length);
    for (const cell of await cells.all()) {
      const box = (await cell.boundingBox())!;
      const label = await cell.innerText();
      assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height, `${label} at ${JSON.stringify(box)}`);
      const target = (await cell.getAttribute('href'))!;
      assert.equal(await page.locator(`tr[id="${target.slice(1)}"]`).count(), 1, `${label} links to ${target}`);
      assert.match(label, /[A-Z]+-\d+\s+(passed|failed|warning|waived|skipped|untested|observed)/, 'the status in words, not only in colour');
    }
    const resultsDir = join(packageRoot, 'test-results');
    mkdirSync(resultsDir, { recursive: true });
    const screenshot = join(resultsDir, 'report-grid.png');
    await page.screenshot({ path: screenshot });
    t.diagnostic(`screenshot ${screenshot}`);
  } finally {
    await browser.close();
  }
});
