import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generatedFiles, renderGenerated } from '../../scripts/render-generated.ts';
import { clauses } from '../../src/core/clauses.ts';
import { clauseIndex, clauseIndexFile, clauseIndexJsonFile, listedSpecs, renderClauseIndex, renderClauseIndexJson } from '../../scripts/clause-index.ts';
import { classNamesByClause, scenarioClasses } from '../../src/generators/classes.ts';

test('generated files are fresh: npm run generate would change nothing', async () => {
  const rendered = await renderGenerated();
  assert.ok(generatedFiles.types in rendered);
  for (const [path, content] of Object.entries(rendered)) {
    const onDisk = readFileSync(new URL(path, generatedFiles.root), 'utf8');
    assert.ok(onDisk === content, `${path} is stale: run npm run generate`);
  }
});

test('generation is deterministic', async () => {
  assert.deepEqual(await renderGenerated(), await renderGenerated());
});

test('the clause index is fresh (Markdown and data), and names for every MUST and SHOULD clause its tests and a mutant killed on it', () => {
  const index = clauseIndex();
  const rendered = renderClauseIndex(index);
  assert.ok(readFileSync(new URL(clauseIndexFile, generatedFiles.root), 'utf8') === rendered, `${clauseIndexFile} is stale: run npm run generate`);
  assert.ok(
    readFileSync(new URL(clauseIndexJsonFile, generatedFiles.root), 'utf8') === renderClauseIndexJson(index),
    `${clauseIndexJsonFile} is stale: run npm run generate`,
  );
  const sections = new Map(
    rendered
      .split('\n## ')
      .slice(1)
      .map((section) => [section.split('\n')[0], section]),
  );
  for (const clause of clauses().filter((clause) => clause.level !== 'INFO')) {
    const section = sections.get(clause.id) ?? '';
    assert.match(section, /- tests:\n {2}- `specs\//, `${clause.id} names no test`);
    assert.doesNotMatch(section, /- mutants killed on it: none/, `${clause.id} names no mutant`);
  }
  assert.match(
    sections.get('CHK-5')!,
    /checks: .*`checkCheckoutCreated`[\s\S]*`specs\/resources\/checkouts\.spec\.ts`: creating checkouts › for layout default[\s\S]*`default-layout-without-page_layout`/,
  );
});

test('every MUST and SHOULD clause has input classes, and every scenario class is named by a test that exercises it', () => {
  const judged = clauses().filter((clause) => clause.level !== 'INFO');
  assert.deepEqual(
    judged.filter((clause) => (classNamesByClause[clause.id] ?? []).length === 0).map((clause) => clause.id),
    [],
  );
  const { declaredClasses } = listedSpecs();
  const scenarios = Object.entries(scenarioClasses).flatMap(([clause, names]) => names.map((name) => `${clause}: ${name}`));
  assert.deepEqual(
    scenarios.filter((scenario) => !declaredClasses.has(scenario)),
    [],
  );
});
