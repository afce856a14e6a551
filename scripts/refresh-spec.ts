/**
 * npm run spec:refresh: copies the shared specification beside this checkout (spec/, contracts/,
 * realdata/) into docs/, then writes anew everything generated from it (npm run generate).
 */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedSpecification, specificationFile, specificationFolders } from '../src/core/specification.ts';

const shared = sharedSpecification();
if (!shared) {
  console.error('spec:refresh: no shared/spec/clauses.md beside this checkout or its parent folders: nothing to copy from');
  process.exit(2);
}
for (const folder of specificationFolders) {
  const copy = fileURLToPath(specificationFile(folder));
  rmSync(copy, { recursive: true, force: true });
  cpSync(join(shared, folder), copy, { recursive: true });
  console.log(`copied ${join(shared, folder)} to docs/${folder}/`);
}
await import('./generate.ts');
