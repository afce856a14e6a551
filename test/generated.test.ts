import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generatedFiles, renderGenerated } from '../src/generate.ts';

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
