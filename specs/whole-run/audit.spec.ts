/**
 * The final audit: once every other test ended (playwright.config.ts), what the whole run created is
 * read back (src/checks/audit.ts). Rules over a set hold over everything the run created, from every
 * test; what a payment's read showed right in the run still holds. Each test claims only what it
 * judged: one with nothing of its kind to read back is skipped.
 */
import {
  checkAllCheckoutsDistinct,
  checkAllReferencesDistinct,
  checkListStillHolds,
  checkNothingNotifiedUnpaid,
  checkOwedNotified,
  checkoutOf,
  ofKind,
  owedNotifications,
  paymentsOfLedger,
  receiversNotClosed,
  checkPaymentStillHolds,
  paymentOf,
  storedMethodsOf,
  type Exchange,
  type LedgerEntry,
  type ListeningNow,
} from '../../src/checks/index.ts';
import { readLedger } from '../../src/harness/ledger.ts';
import { requires, tags, test, type Api } from '../../src/harness/fixtures.ts';
import { readsBackTag, targetsEnv } from '../../src/harness/targets.ts';
import { processGone } from '../../src/core/processes.ts';

/** Each payment's last read in the run, by its id. */
const lastPaymentReads = (ledger: readonly LedgerEntry[]) => new Map(ofKind(ledger, 'payment read').map(({ paymentId, exchange }) => [paymentId, exchange]));

const readConfirmed = (read: Exchange | undefined) => read !== undefined && paymentOf(read)?.stateDetails?.state === 'confirmed';

/** The references the run created, each with its last read in the run (if any) and a read now; `shownConfirmed` picks those whose last read showed them confirmed, or not. */
async function referencesReadBack(api: Api, ledger: readonly LedgerEntry[], shownConfirmed: boolean | 'all') {
  const lastRead = lastPaymentReads(ledger);
  const chosen = ofKind(ledger, 'reference').filter(({ paymentId }) => shownConfirmed === 'all' || readConfirmed(lastRead.get(paymentId)) === shownConfirmed);
  return Promise.all(
    chosen.map(async (reference) => ({
      ...reference,
      last: lastRead.get(reference.paymentId),
      now: await api.call('getPayment', { param: reference.paymentId }),
    })),
  );
}

/** Judges what changed since each reference's last read; keeps as evidence only the reads that show a problem. */
function judgeStillHolds(api: Api, readBack: Awaited<ReturnType<typeof referencesReadBack>>, alsoEvidence: (paymentId: string) => boolean = () => false) {
  const found = readBack.map(({ last, now, requested }) => (last ? checkPaymentStillHolds(last, now, { requested }) : []));
  api.forget(readBack.filter(({ paymentId }, at) => found[at].length > 0 || alsoEvidence(paymentId)).map(({ now }) => now));
  return found.flat();
}

/**
 * A run's audit starts once no other test runs, in a worker the run started already: its file comes
 * last in the order Playwright hands out the API tests (playwright.config.ts), and it holds
 * Playwright's exclusive lock. The mutant catalogue's audits run side by side, one per candidate, in
 * a project of their own after every other (mutants/playwright.config.ts), as a sharded run's does.
 */
const aloneInTheRun = process.env[targetsEnv] ? [] : '-exclusive-';

/**
 * A notification is written down once its receiver read it, within a second while no test runs: none
 * runs beside the audit.
 */
const writtenDownWithinMs = 1000;

/**
 * The run's receivers still listening as the audit reads the ledger (at `readAt`): workers of the run
 * that did not stop yet, beside the audit's own. What they took until a second before is in the ledger.
 */
function stillListening(ledger: readonly LedgerEntry[], readAt: number): ListeningNow {
  const urls = receiversNotClosed(ledger)
    .filter(({ pid }) => !processGone(pid))
    .map(({ url }) => url);
  return { urls: new Set(urls), at: readAt - writtenDownWithinMs };
}

test.describe('the final audit', { tag: readsBackTag, lock: aloneInTheRun }, () => {
  test('every checkout the run created has an id and a paymentId of its own', { tag: tags('CHK-7') }, async ({ run, api, observe }) => {
    requires(run, 'stateful');
    const checkouts = ofKind(readLedger(run.outDir), 'checkout').map(({ exchange }) => exchange);
    test.skip(checkouts.length < 2, 'the run created fewer than two checkouts');
    const problems = checkAllCheckoutsDistinct(checkouts);
    await observe.record(`final audit: ${checkouts.length} checkouts the run created`, { checkouts: checkouts.length, problems: problems.length });
    for (const exchange of sharingIds(checkouts)) api.note({ ...exchange, note: 'a checkout the run created' });
    api.expectNoProblems(problems);
  });

  test(
    'every reference the run created, read back: distinct from those valid beside it, and as its last read showed it',
    // REF-3 is owed whole by a confirmed payment (the next test's); a field that changed fails it here too.
    { tag: tags('REF-2', 'REF-4', 'REF-5', 'REF-8') },
    async ({ run, api, observe }) => {
      requires(run, 'stateful');
      const ledger = readLedger(run.outDir);
      test.skip(ofKind(ledger, 'reference').length === 0, 'the run created no reference');
      const all = await referencesReadBack(api, ledger, 'all');
      const distinct = checkAllReferencesDistinct(all.map(({ now, answeredAt }) => ({ exchange: now, existsFrom: answeredAt })));
      // Those last shown confirmed are the next test's.
      const decayed = judgeStillHolds(
        api,
        all.filter(({ last }) => !readConfirmed(last)),
        (paymentId) => distinct.some((problem) => problem.message.includes(paymentId)),
      );
      await observe.record(`final audit: ${all.length} references the run created, read back`, {
        references: all.length,
        problems: distinct.length + decayed.length,
      });
      api.expectNoProblems([...distinct, ...decayed]);
    },
  );

  test(
    'every payment the run saw confirmed still reads confirmed, as its last read showed it',
    { tag: tags('REF-2', 'REF-3', 'REF-4', 'REF-5', 'REF-6') },
    async ({ run, api, interbank }) => {
      // Only the interbank network (the confirm helper standing in for it) confirms a payment.
      void interbank;
      requires(run, 'stateful');
      const readBack = await referencesReadBack(api, readLedger(run.outDir), true);
      test.skip(readBack.length === 0, 'the run saw no payment confirmed');
      api.expectNoProblems(judgeStillHolds(api, readBack));
    },
  );

  test('nothing the run received, at any of its addresses, notifies a reference the run never paid', { tag: tags('EVT-4') }, async ({ run, api, observe }) => {
    requires(run, 'stateful');
    const ledger = readLedger(run.outDir);
    const references = ofKind(ledger, 'reference');
    test.skip(references.length === 0, 'the run created no reference');
    const received = ofKind(ledger, 'notification').map(({ request }) => request);
    const lastRead = lastPaymentReads(ledger);
    // One the run never read is read now, to be named by its 9 digits: its id alone, a small number, may be another's event id or amount.
    const unread = references.filter(({ paymentId }) => !lastRead.has(paymentId));
    const readNow = new Map(await Promise.all(unread.map(async ({ paymentId }) => [paymentId, await api.call('getPayment', { param: paymentId })] as const)));
    const problems = checkNothingNotifiedUnpaid(received, paymentsOfLedger(ledger, readNow));
    api.forget([...readNow].filter(([paymentId]) => problems.some((problem) => problem.message.includes(`payment ${paymentId},`))).map(([, read]) => read));
    await observe.record(`final audit: ${received.length} requests the run's receivers took, judged against ${references.length} references`, {
      received: received.length,
      references: references.length,
      problems: problems.length,
    });
    for (const request of received.filter(({ url }) => problems.some((problem) => problem.message.includes(url))))
      api.note({ request, response: null, note: 'received during the run' });
    api.expectNoProblems(problems);
  });

  test(
    'every payment the run saw confirmed, created with a callbackUrl at one of its receivers, was notified at exactly that address',
    { tag: tags('EVT-1', 'EVT-3') },
    async ({ run, api, observe, interbank }) => {
      // Only the interbank network (the confirm helper standing in for it) confirms a payment.
      void interbank;
      requires(run, 'stateful');
      const readAt = Date.now();
      const ledger = readLedger(run.outDir);
      const { eventMs } = run.profile.timeouts;
      const owed = owedNotifications(ledger, eventMs, stillListening(ledger, readAt));
      test.skip(
        owed.length === 0,
        `the run saw no payment confirmed with a callbackUrl at a receiver that listened ${eventMs} ms (eventMs) past its confirmation`,
      );
      const received = ofKind(ledger, 'notification').map(({ request }) => request);
      const problems = checkOwedNotified(received, owed, eventMs);
      await observe.record(`final audit: ${owed.length} payments confirmed in the run, each owed a notification at its callbackUrl`, {
        owed: owed.length,
        problems: problems.length,
      });
      for (const { read } of owed.filter(({ paymentId }) => problems.some((problem) => problem.message.includes(paymentId))))
        api.note({ ...read, note: 'its last read in the run' });
      api.expectNoProblems(problems);
    },
  );

  test(
    "every stored method the run listed is in its customer's list still, as its last read showed it",
    { tag: tags('TOK-1', 'PML-2', 'PML-3', 'PML-4', 'PML-5') },
    async ({ run, api, observe }) => {
      requires(run, 'stateful');
      const lastRead = new Map(ofKind(readLedger(run.outDir), 'list read').map(({ customer, exchange }) => [customer, exchange]));
      const listed = [...lastRead].filter(([, exchange]) => storedMethodsOf(exchange).length > 0);
      test.skip(listed.length === 0, 'the run listed no stored method');
      const readBack = await Promise.all(
        listed.map(async ([customer, last]) => {
          const now = await api.call('listMethods', { param: customer });
          return { now, problems: checkListStillHolds(last, now) };
        }),
      );
      api.forget(readBack.filter(({ problems }) => problems.length > 0).map(({ now }) => now));
      const problems = readBack.flatMap(({ problems }) => problems);
      await observe.record(`final audit: ${listed.length} lists of stored methods the run read, read back`, {
        lists: listed.length,
        problems: problems.length,
      });
      api.expectNoProblems(problems);
    },
  );
});

/** The checkouts that share an id or a paymentId with another. */
function sharingIds(checkouts: Exchange[]): Exchange[] {
  const count = new Map<string, number>();
  const keysOf = (exchange: Exchange) => [`id ${checkoutOf(exchange)?.id}`, `paymentId ${checkoutOf(exchange)?.paymentId}`];
  for (const key of checkouts.flatMap(keysOf)) count.set(key, (count.get(key) ?? 0) + 1);
  return checkouts.filter((exchange) => keysOf(exchange).some((key) => count.get(key)! > 1));
}
