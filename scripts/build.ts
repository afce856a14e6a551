/**
 * npm run build (run by npm pack and npm publish, as "prepack"): what a packed package carries
 * beyond the files of this checkout.
 * - dist/: the suite compiled to JavaScript. Playwright (and Node) load no TypeScript from
 *   node_modules, so an installed package runs this copy (bin/checkout-conformance.js chooses).
 * - docs/spec/ and docs/contracts/: the reference, the clause catalogue and the test-helper
 *   contract, copied from the shared specification beside this checkout, so that the README and
 *   the messages can name a file the user has.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageDir } from '../src/core/package-root.ts';
import { toolPath } from '../src/runner/processes.ts';

/** The nearest shared/ beside this checkout or beside one of its parent folders. */
function sharedSpecification(): string {
  for (let dir = dirname(packageDir); ; dir = dirname(dir)) {
    const shared = join(dir, 'shared');
    if (existsSync(join(shared, 'spec', 'clauses.md'))) return shared;
    if (dirname(dir) === dir) throw new Error(`no shared/spec/clauses.md beside ${packageDir} or its parent folders`);
  }
}

const shared = sharedSpecification();
for (const folder of ['dist', 'docs/spec', 'docs/contracts']) rmSync(join(packageDir, folder), { recursive: true, force: true });
execFileSync(process.execPath, [toolPath('typescript', 'tsc'), '-p', join(packageDir, 'tsconfig.build.json')], { stdio: 'inherit' });
for (const folder of ['spec', 'contracts']) cpSync(join(shared, folder), join(packageDir, 'docs', folder), { recursive: true });
console.log(`built dist/, docs/spec/ and docs/contracts/ (from ${shared})`);
