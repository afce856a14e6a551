/** What the catalogue holds: mutants (one departure from the reference, killed on one clause) and benign variants (a freedom the reference leaves). */
import type { Transform } from './proxy.ts';

export interface Mutant {
  name: string;
  /** The one clause whose failure kills the mutant. */
  clause: string;
  /** Other clauses the fault breaks as well (a missing paymentId breaks CHK-1 and CHK-2); any other failed clause is collateral blame. */
  disturbs?: string[];
  description: string;
  transform: Transform;
}

export interface BenignVariant {
  name: string;
  /** The INFO clause whose freedom ("not shown") it uses, where it is one of theirs. */
  freedom?: string;
  description: string;
  transform: Transform;
}

/**
 * The profile's time-out for an event (a notification, a redirect) in every candidate's run, and how
 * long the suite waits where one must not happen: the sandbox behind the proxy answers within
 * milliseconds.
 */
export const catalogueEventMs = 3000;
