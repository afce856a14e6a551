/**
 * npm run generate: writes everything derived from schemas/ and the clause catalogue, and the clause
 * index (docs/clause-index.md: what proves each clause).
 * Generated files are committed; test/generated.test.ts fails when they are stale.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { generatedFiles, renderGenerated } from '../src/generate.ts';
import { clauseIndexFile, renderClauseIndex } from './clause-index.ts';

for (const [path, content] of Object.entries({ ...(await renderGenerated()), [clauseIndexFile]: renderClauseIndex() })) {
  mkdirSync(new URL('.', new URL(path, generatedFiles.root)), { recursive: true });
  writeFileSync(new URL(path, generatedFiles.root), content);
  console.log(`wrote ${path}`);
}
