/**
 * npm run generate: writes everything derived from schemas/ and the clause catalogue, and the clause
 * index (docs/clause-index.md, and as data for the HTML report: what proves each clause).
 * Generated files are committed; test/unit/generated.test.ts fails when they are stale.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { generatedFiles, renderGenerated } from './render-generated.ts';
import { clauseIndex, clauseIndexFile, clauseIndexJsonFile, renderClauseIndex, renderClauseIndexJson } from './clause-index.ts';

const index = clauseIndex();
const written = { ...(await renderGenerated()), [clauseIndexFile]: renderClauseIndex(index), [clauseIndexJsonFile]: renderClauseIndexJson(index) };
for (const [path, content] of Object.entries(written)) {
  mkdirSync(new URL('.', new URL(path, generatedFiles.root)), { recursive: true });
  writeFileSync(new URL(path, generatedFiles.root), content);
  console.log(`wrote ${path}`);
}
