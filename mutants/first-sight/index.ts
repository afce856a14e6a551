/**
 * First sight: each session, before anything is built, a helper that has read only the reference,
 * the sandbox and the catalogue's framework writes departures and freedoms nobody described, one
 * file a session. The suite's score on them is docs/first-sight.md. A mutant the suite catches on its
 * clause joins the catalogue; one it still misses waits in `stillMissed` until the criterion it
 * belongs to is applied everywhere (`npm run mutants -- --first-sight` runs every one of them).
 */
import type { BenignVariant, Mutant } from '../kinds.ts';
import * as batch20261128 from './2026-11-28.ts';
import * as batch20261128b from './2026-11-28b.ts';
import * as batch20261129 from './2026-11-29.ts';

const batches = [batch20261128, batch20261128b, batch20261129];

/** The mutants of the batches that the suite does not catch on their clause yet, each with the criterion that would. */
export const stillMissed = new Map<string, string>([
  ['fsb-notification-id-is-webhook-id', 'collisions: an id of the notification checked against every other id it carries'],
  ['fsc-declined-checkout-notified-as-confirmed', 'every path to an outcome: no notification of a declined checkout payment'],
  ['fsc-checkout-and-reference-sequences-collide', 'collisions: references of MB checkouts beside references of their own'],
  ['fsc-invalid-json-takes-service-down', 'not a departure: a 503 with Retry-After asks to wait, which the suite does'],
  ['fsc-checkout-payment-notified-by-checkout-id', "every path to an outcome: a checkout payment's notification names a payment GET /payments/{id} finds"],
  ['fsc-window-compared-on-wall-clock', 'blame: found on REF-6, not on REF-7 (windows across offsets)'],
]);

export const everyFirstSightMutant: Mutant[] = batches.flatMap((batch) => batch.firstSightMutants);
export const firstSightMutants: Mutant[] = everyFirstSightMutant.filter(({ name }) => !stillMissed.has(name));
/** Outside the catalogue's gate, run by `npm run mutants -- --first-sight`. */
export const missedAtFirstSight: Mutant[] = everyFirstSightMutant.filter(({ name }) => stillMissed.has(name));
export const firstSightBenign: BenignVariant[] = batches.flatMap((batch) => batch.firstSightBenign);
