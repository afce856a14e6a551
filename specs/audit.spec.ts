/**
 * The final audit: once every other test ended (a teardown project, playwright.config.ts), what the
 * whole run created is read back (src/checks/audit.ts). Rules over a set hold over everything the
 * run created, from every test; what a payment's read showed right in the run still holds.
 */
import {
  checkAllCheckoutsDistinct,
  checkAllReferencesDistinct,
  checkoutOf,
  checkPaymentStillHolds,
  type Exchange,
  type LedgerEntry,
} from '../src/checks/index.ts';
import { readLedger } from './ledger.ts';
import { requires, tags, test } from './fixtures.ts';
import { readsBackTag } from './targets.ts';

type Of<Kind extends LedgerEntry['kind']> = Extract<LedgerEntry, { kind: Kind }>;
const ofKind = <Kind extends LedgerEntry['kind']>(ledger: LedgerEntry[], kind: Kind) => ledger.filter((entry): entry is Of<Kind> => entry.kind === kind);

test.describe('the final audit', () => {
  test(
    'everything the run created, read back at its end',
    { tag: [...tags('CHK-7', 'REF-3', 'REF-5', 'REF-6', 'REF-8'), readsBackTag] },
    async ({ run, api, observe }) => {
      requires(run, 'stateful');
      const ledger = readLedger(run.outDir);
      const checkouts = ofKind(ledger, 'checkout').map(({ exchange }) => exchange);
      const references = ofKind(ledger, 'reference');
      test.skip(checkouts.length + references.length === 0, 'the run created nothing to read back');
      const lastRead = new Map(ofKind(ledger, 'payment read').map(({ paymentId, exchange }) => [paymentId, exchange]));
      const reads = await Promise.all(references.map(({ paymentId }) => api.call('getPayment', { param: paymentId })));
      const decayed = references.map(({ paymentId, requested }, at) => {
        const last = lastRead.get(paymentId);
        return last ? checkPaymentStillHolds(last, reads[at], { requested }) : [];
      });
      const distinct = checkAllReferencesDistinct(reads.map((exchange, at) => ({ exchange, existsFrom: references[at].answeredAt })));
      const clashing = checkAllCheckoutsDistinct(checkouts);
      await observe.record(`final audit: ${checkouts.length} checkouts and ${references.length} references the run created, read back`, {
        checkouts: checkouts.length,
        references: references.length,
        problems: decayed.flat().length + distinct.length + clashing.length,
      });
      // The evidence: the reads that show a problem, and the checkouts that share an id.
      api.forget(reads.filter((_, at) => decayed[at].length > 0 || distinct.some((problem) => problem.message.includes(references[at].paymentId))));
      for (const exchange of clashingCheckouts(checkouts, clashing.length > 0)) api.note({ ...exchange, note: 'a checkout the run created' });
      api.expectNoProblems([...clashing, ...distinct, ...decayed.flat()]);
    },
  );
});

/** The checkouts that share an id or a paymentId with another, where any do. */
function clashingCheckouts(checkouts: Exchange[], any: boolean): Exchange[] {
  if (!any) return [];
  const count = new Map<string, number>();
  const keysOf = (exchange: Exchange) => [`id ${checkoutOf(exchange)?.id}`, `paymentId ${checkoutOf(exchange)?.paymentId}`];
  for (const key of checkouts.flatMap(keysOf)) count.set(key, (count.get(key) ?? 0) + 1);
  return checkouts.filter((exchange) => keysOf(exchange).some((key) => count.get(key)! > 1));
}
