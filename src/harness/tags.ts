/** How a spec names what it proves: Playwright tags for its clauses, annotations for the scenario classes it exercises. */
import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import { clause } from '../core/clauses.ts';
import { classAnnotation } from '../core/evidence.ts';
import { scenarioClasses, type ScenarioClause } from '../generators/classes.ts';

/** Playwright tags for clause IDs, with their levels: tags('CHK-5') → ['@CHK-5', '@MUST']. */
export function tags(...ids: ClauseId[]): string[] {
  const levels = new Set(ids.map((id) => `@${clause(id).level}`));
  return [...ids.map((id) => `@${id}`), ...levels];
}

/**
 * The annotations of a test that exercises these scenario classes of a clause (src/generators/classes.ts):
 * the report counts each once the test reached its judgement. A name the list lacks fails at load.
 */
export function exercises<C extends ScenarioClause>(clause: C, ...names: (typeof scenarioClasses)[C][number][]): { type: string; description: string }[] {
  for (const name of names)
    if (!(scenarioClasses[clause] as readonly string[]).includes(name))
      throw new Error(`${clause} has no scenario class "${name}" (src/generators/classes.ts)`);
  return names.map((name) => ({ type: classAnnotation, description: `${clause}: ${name}` }));
}
