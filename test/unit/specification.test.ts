import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { sharedSpecification, specificationFile, specificationFolders } from '../../src/core/specification.ts';

const shared = sharedSpecification();
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();

for (const folder of specificationFolders) {
  test(
    `docs/${folder}/ is the shared specification's ${folder}/, file for file`,
    {
      skip: shared === undefined && 'no shared/ beside this clone: the copy in docs/ stands alone, and npm run spec:refresh copies it anew where there is one',
    },
    () => {
      const copy = fileURLToPath(specificationFile(folder));
      const original = join(shared!, folder);
      assert.deepEqual(filesUnder(copy), filesUnder(original), `the files of docs/${folder}/: npm run spec:refresh`);
      for (const file of filesUnder(original)) {
        assert.equal(
          readFileSync(join(copy, file), 'utf8'),
          readFileSync(join(original, file), 'utf8'),
          `docs/${folder}/${file} differs: npm run spec:refresh`,
        );
      }
    },
  );
}
