/**
 * `npm run mutants -- --changed`: the candidates a change can have moved, for a developer's loop, as
 * Stryker's incremental mode and PIT's history do. A changed file reaches clauses through the clause
 * index (the specs that test a clause, the checks that judge it, the schemas that carry it); a
 * mutant is rerun where its clause was reached or its own file changed, a benign variant (which runs
 * every test, and so guards against a check that cries wolf) where any spec, check, generator or
 * schema changed or its own file did. A file nothing maps (the sandbox, the proxy, the fixtures)
 * reruns everything.
 */
import type { ClauseIndexEntry } from '../src/report/clause-index.ts';

export interface ChangedInputs {
  /** Paths relative to the repository, as git names them. */
  changedFiles: string[];
  index: ClauseIndexEntry[];
  /** The source text of each file of src/checks/ and mutants/, by path: where a check or a candidate is defined. */
  sources: Map<string, string>;
}

export interface Selectable {
  name: string;
  clause: string | null;
}

/** The files that judge (a clause's specs, checks and schemas) and so move only the clauses they reach. */
const judging = /^(specs\/(?:[^/]+\/)?[^/]+\.spec\.ts|src\/checks\/[^/]+\.ts|schemas\/[^/]+\.json|src\/generators\/[^/]+\.ts)$/;
/** Files that change no candidate's verdict. */
const inert = /^(README\.md|docs\/|bench\/|test\/|\.ci\/|\.prettier|src\/observe\/|.*\/README\.md$)/;

/** The clauses a judging file reaches: the index names their specs and schemas, and the checks a source file defines. */
function clausesReachedBy(file: string, { index, sources }: ChangedInputs): string[] | 'all' {
  if (file.startsWith('src/generators/')) return 'all';
  const defined = (source: string | undefined) => new Set([...(source ?? '').matchAll(/export (?:async )?function (\w+)/g)].map((match) => match[1]));
  const checks = file.startsWith('src/checks/') ? defined(sources.get(file)) : new Set<string>();
  const schema = file.startsWith('schemas/') ? file.slice('schemas/'.length) : null;
  return index
    .filter(
      (entry) =>
        entry.tests.some((test) => test.startsWith(`${file}:`)) ||
        entry.checks.some((check) => checks.has(check)) ||
        (schema !== null && entry.schemaKeywords.some((keyword) => keyword.startsWith(`${schema}#`))),
    )
    .map((entry) => entry.id);
}

/** The candidates to rerun after a change, in their order. */
export function changedCandidates<C extends Selectable>(candidates: C[], inputs: ChangedInputs): C[] {
  const files = inputs.changedFiles.filter((file) => !inert.test(file));
  const mutantSources = [...inputs.sources].filter(([file]) => file.startsWith('mutants/'));
  const fileOf = new Map(candidates.map((candidate) => [candidate, mutantSources.find(([, text]) => text.includes(`'${candidate.name}'`))?.[0]]));
  const candidateFiles = new Set([...fileOf.values()].filter((file): file is string => file !== undefined));
  if (files.some((file) => !judging.test(file) && !candidateFiles.has(file))) return candidates;
  const reached = files.filter((file) => judging.test(file)).map((file) => clausesReachedBy(file, inputs));
  if (reached.includes('all')) return candidates;
  const clauses = new Set(reached.flat());
  const judgingChanged = reached.length > 0;
  return candidates.filter((candidate) => {
    const ownFileChanged = files.includes(fileOf.get(candidate) ?? '');
    return ownFileChanged || (candidate.clause === null ? judgingChanged : clauses.has(candidate.clause));
  });
}
