/**
 * The list of candidates mutants/run.ts hands to mutants/playwright.config.ts: a JSON file named in
 * an environment variable, one entry (one Playwright project) per candidate.
 */
export const manifestEnv = 'CHECKOUT_CONFORMANCE_CATALOGUE';

export interface ManifestEntry {
  name: string;
  /** The clause whose tests alone the project runs (a mutant's); null: every test. */
  clause: string | null;
  /** The candidate's RunConfig (src/core/run-config.ts). */
  runConfigFile: string;
  /** Its outDir: where Playwright's test-results go. */
  outDir: string;
}
