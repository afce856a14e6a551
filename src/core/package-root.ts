/**
 * Where the package's files are. In a clone the TypeScript runs as it is (through tsx, and
 * Playwright's own loader); a packed package runs its JavaScript copy under dist/ (npm run build,
 * at pack time), because Playwright does not load TypeScript from node_modules. The data files
 * (schemas, profiles, package.json) stay at the package's root either way.
 */
import { fileURLToPath } from 'node:url';

const compiled = !import.meta.url.endsWith('.ts');

export const packageRoot = new URL(compiled ? '../../../' : '../../', import.meta.url);
export const packageDir = fileURLToPath(packageRoot);

/** A module of the suite that a child process loads, by its path without extension: "src/runner/reporter". */
export const codeFile = (path: string): string => fileURLToPath(new URL(`../../${path}${compiled ? '.js' : '.ts'}`, import.meta.url));
