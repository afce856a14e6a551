/**
 * The mutants (faulty targets, each departing from the reference in one way tied to one clause)
 * and the benign variants (departures the reference allows, which the suite must pass). Each is
 * a Transform of the proxy in front of the reference sandbox.
 */
import type { BenignVariant, Mutant } from './kinds.ts';
import { answer } from './edits.ts';
import { apiRoutes, type Transform } from './proxy.ts';
import { benignVariants as sandboxBenignVariants } from './benign.ts';
import { instantsAndAttributionVariants } from './freedoms-instants-and-attribution.ts';
import { checkoutMutants } from './checkouts.ts';
import { envelopeMutants } from './envelope.ts';
import { notificationMutants } from './notifications.ts';
import { pageMutants } from './pages.ts';
import { storedMethodMutants } from './payment-methods.ts';
import { referenceMutants } from './references.ts';
import { tokenizationMutants } from './tokenization.ts';
import * as model from './model.ts';
import { generatedMutants, operatorTwins } from './operators.ts';
import { rateLimitVariants } from './freedoms-rate-limits.ts';
import { processedCheckoutBenign, processedCheckoutMutants } from './processed-checkouts.ts';
import { everyFirstSightMutant, firstSightBenign, firstSightMutants } from './first-sight/index.ts';

export const mutants: Mutant[] = [
  ...envelopeMutants,
  ...checkoutMutants,
  ...pageMutants,
  ...tokenizationMutants,
  ...storedMethodMutants,
  ...referenceMutants,
  ...notificationMutants,
  ...model.mutants,
  ...generatedMutants,
  ...firstSightMutants,
  ...processedCheckoutMutants,
];

/** The mutants generated from operators × sites (mutants/operators.ts): each CI run takes a fifth of them. */
export const generatedNames = new Set(generatedMutants.map((mutant) => mutant.name));

export const benignVariants: BenignVariant[] = [
  ...sandboxBenignVariants,
  ...model.benignVariants,
  ...operatorTwins,
  ...instantsAndAttributionVariants,
  ...firstSightBenign,
  ...rateLimitVariants,
  ...processedCheckoutBenign,
];

/** The candidates a helper blind to the suite wrote, a batch each session (docs/first-sight.md). */
export const firstSightNames = new Set([...everyFirstSightMutant, ...firstSightBenign].map(({ name }) => name));

/** A target with no test helpers (a real provider's sandbox): every test helper answers 404. */
export const withoutTestHelpers: Transform = {
  request: (request) => (request.route !== 'other' && !apiRoutes.has(request.route) ? answer(404, { success: false, error: 'not found' }) : undefined),
};
