/**
 * The project's copy of the shared specification: the reference and the clause catalogue
 * (docs/spec/), the contracts (docs/contracts/) and the service's published examples
 * (docs/realdata/). Code and tests read this copy, so that a clone stands alone and a packed
 * package carries what its messages name; `npm run spec:refresh` copies it anew from the shared
 * specification beside the clone.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageDir, packageRoot } from './package-root.ts';

export const specificationFolders = ['spec', 'contracts', 'realdata'] as const;
export type SpecificationFolder = (typeof specificationFolders)[number];

/** A file of the project's copy: specificationFile('spec', 'clauses.md'). */
export const specificationFile = (folder: SpecificationFolder, file = ''): URL => new URL(`docs/${folder}/${file}`, packageRoot);

/** The nearest shared/ beside this checkout or beside one of its parent folders, or undefined where there is none. */
export function sharedSpecification(): string | undefined {
  for (let dir = dirname(packageDir); ; dir = dirname(dir)) {
    const shared = join(dir, 'shared');
    if (existsSync(join(shared, 'spec', 'clauses.md'))) return shared;
    if (dirname(dir) === dir) return undefined;
  }
}
