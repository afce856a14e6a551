/**
 * npm run build (run by npm pack and npm publish, as "prepack"): dist/, the suite compiled to
 * JavaScript. Playwright (and Node) load no TypeScript from node_modules, so an installed package
 * runs this copy (bin/checkout-conformance.js chooses).
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { packageDir } from '../src/core/package-root.ts';
import { toolPath } from '../src/runner/processes.ts';

rmSync(join(packageDir, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [toolPath('typescript', 'tsc'), '-p', join(packageDir, 'tsconfig.build.json')], { stdio: 'inherit' });
console.log('built dist/');
