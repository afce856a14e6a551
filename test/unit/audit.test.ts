import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkAllCheckoutsDistinct,
  checkAllReferencesDistinct,
  checkListStillHolds,
  checkNothingNotifiedUnpaid,
  checkOwedNotified,
  checkPaymentStillHolds,
  owedNotifications,
  paymentsOfLedger,
  receiversNotClosed,
  type Exchange,
  type LedgerEntry,
} from '../../src/checks/index.ts';
import type { ReferenceRequest } from '../../schemas/generated/types.ts';

const answer = (method: string, url: string, status: number, data: unknown): Exchange => ({
  request: { method, url, headers: {}, body: undefined },
  response: { status, headers: { 'content-type': 'application/json' }, body: { apiVersion: '1', data } },
});
const checkout = (id: string, paymentId: string) => answer('POST', 'http://target/checkouts', 200, { id, paymentId });
const hour = 60 * 60 * 1000;
const at = (ms: number) => new Date(ms).toISOString();
const payment = (id: string, reference: string, start: number, end: number, state = 'pending') =>
  answer('GET', `http://target/payments/${id}`, 200, {
    id,
    type: 'payment',
    amount: 100,
    availableMethods: [{ code: 'MB' }],
    referenceDetails: { entity: '12345', reference },
    validDate: { start: at(start), end: at(end) },
    stateDetails: { state, createdAt: at(start) },
    createdAt: at(start),
    updatedAt: at(start),
  });

/** The request of a payment whose window is the hour either side of now, as payment() answers it. */
const requestedAround = (now: number) =>
  ({ type: 'payment', amount: 100, availableMethods: [{ code: 'MB' }], validDate: { start: at(now - hour), end: at(now + hour) } }) as ReferenceRequest;

test('CHK-7 holds over every checkout of the run: a paymentId met twice, in whichever tests, fails it', () => {
  assert.deepEqual(checkAllCheckoutsDistinct([checkout('a', '1'), checkout('b', '2'), checkout('c', '3')]), []);
  const found = checkAllCheckoutsDistinct([checkout('a', '1'), checkout('b', '2'), checkout('c', '1')]);
  assert.deepEqual(
    found.map((problem) => problem.clause),
    ['CHK-7'],
  );
});

test('REF-8 holds over every reference of the run valid at the same time while both existed', () => {
  const now = Date.now();
  // Two open windows, the same digits: a clash.
  const open = checkAllReferencesDistinct([
    { exchange: payment('p1', '123456789', now - hour, now + hour), existsFrom: now - 1000 },
    { exchange: payment('p2', '123456789', now - hour, now + hour), existsFrom: now },
  ]);
  assert.deepEqual(
    open.map((problem) => problem.clause),
    ['REF-8'],
  );
  // The digits of a window that had ended before the other reference was created are free again.
  assert.deepEqual(
    checkAllReferencesDistinct([
      { exchange: payment('p1', '123456789', now - 3 * hour, now - 2 * hour), existsFrom: now - 1000 },
      { exchange: payment('p2', '123456789', now - hour, now + hour), existsFrom: now },
    ]),
    [],
  );
});

test('a payment read again at the end still shows what its last read showed right: once confirmed, confirmed (REF-6)', () => {
  const now = Date.now();
  const requested = requestedAround(now);
  const confirmed = payment('p1', '123456789', now - hour, now + hour, 'confirmed');
  const pending = payment('p1', '123456789', now - hour, now + hour, 'pending');
  const clauses = (last: Exchange, again: Exchange) => checkPaymentStillHolds(last, again, { requested }).map((problem) => problem.clause);
  assert.ok(clauses(confirmed, pending).includes('REF-6'));
  assert.ok(!clauses(pending, pending).includes('REF-6'));
  assert.ok(!clauses(confirmed, confirmed).includes('REF-6'));
});

test("a customer's list read again: a method listed earlier and gone fails TOK-1, a value paid with changed PML-5; methods stored since, extra fields and another order are free", () => {
  const card = {
    type: 'CC',
    uuid: '2f1f3c1e-8a8e-4c43-9d55-7a9b0b0e7a10',
    brand: 'VISA',
    last4Digitis: '0809',
    holder: 'Ana Silva',
    expireMonth: '05',
    expireYear: '2030',
  };
  const wallet = { type: 'MW', uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7', countryCode: '351', last3Digitis: '123' };
  const list = (...methods: unknown[]) => answer('GET', 'http://target/customers/c1/paymentMethods', 200, methods);
  const clauses = (last: Exchange, again: Exchange) => checkListStillHolds(last, again).map((problem) => problem.clause);
  assert.deepEqual(clauses(list(card, wallet), list({ ...wallet, seenAt: 'now' }, card, { ...card, uuid: '0f6c1a52-4bd0-4c3e-a0d4-3b0b8f1a2c77' })), []);
  assert.deepEqual(clauses(list(card, wallet), list(wallet)), ['TOK-1']);
  assert.deepEqual(clauses(list(card, wallet), list({ ...card, holder: 'ANA SILVA' }, wallet)), ['PML-5']);
  assert.deepEqual(clauses(list(card), list({ ...card, brand: 'Visa' })), ['PML-3']);
});

test('a payment read again shows what its last read showed, but for what a confirmation changes: an entity changed fails REF-3, the reference REF-2; another offset for the same instant is the same value', () => {
  const now = Date.now();
  const requested = requestedAround(now);
  const last = payment('p1', '123456789', now - hour, now + hour);
  const again = (edit: (data: any) => void) => {
    const read = structuredClone(last);
    edit((read.response.body as { data: unknown }).data);
    return checkPaymentStillHolds(last, read, { requested }).map((problem) => problem.clause);
  };
  assert.deepEqual(
    again(() => undefined),
    [],
  );
  assert.deepEqual(
    again((data) => {
      data.stateDetails = { state: 'confirmed', createdAt: at(now) };
      data.updatedAt = at(now);
    }),
    [],
  );
  assert.deepEqual(
    again((data) => (data.validDate.end = new Date(now + hour).toISOString().replace('Z', '+00:00'))),
    [],
  );
  assert.deepEqual(
    again((data) => (data.referenceDetails.entity = '54321')),
    ['REF-3'],
  );
  const sparse = structuredClone(last);
  (sparse.response.body as { data: { availableMethods: unknown } }).data.availableMethods = [{ code: 'MB' }];
  const full = structuredClone(sparse);
  (full.response.body as { data: { availableMethods: unknown } }).data.availableMethods = [{ code: 'MB', type: 'REALTIME', name: 'Multibanco' }];
  assert.deepEqual(checkPaymentStillHolds(sparse, full, { requested }), []);
  assert.deepEqual(
    checkPaymentStillHolds(full, sparse, { requested }).map((problem) => problem.clause),
    ['REF-3', 'REF-3'],
  );
  assert.deepEqual(
    again((data) => (data.referenceDetails.reference = '987654321')),
    ['REF-2'],
  );
});

test('EVT-4 holds over every notification of the run: one about a reference nobody paid fails it, wherever it came', () => {
  const now = Date.now();
  const notification = (path: string, body: unknown) => ({ method: 'POST', url: path, headers: {}, body });
  const created = (paymentId: string): LedgerEntry => ({ kind: 'reference', paymentId, requested: requestedAround(now), answeredAt: now });
  const read = (paymentId: string, digits: string): LedgerEntry => ({
    kind: 'payment read',
    paymentId,
    exchange: payment(paymentId, digits, now - hour, now + hour),
  });
  const ledger: LedgerEntry[] = [
    created('p1'),
    read('p1', '012345678'),
    { kind: 'confirmation', paymentId: 'p1', at: now },
    created('p2'),
    read('p2', '987654321'),
    created('p3'),
  ];
  const payments = paymentsOfLedger(ledger);
  const aboutFirst = notification('/webhook/a', { payments: [{ id: 'p1', referenceDetails: { reference: '012345678' } }] });
  assert.deepEqual(checkNothingNotifiedUnpaid([aboutFirst], payments), []);
  // Its amount is the id of p2 only by chance: a read's digits name a reference, its id only where it was never read.
  assert.deepEqual(checkNothingNotifiedUnpaid([notification('/callback/b', { amount: 'p2' })], payments), []);
  const aboutSecond = notification('/callback/other-test', { payments: [{ referenceDetails: { reference: '987654321' } }] });
  const aboutThird = notification('/callback/c?payment=p3', {});
  const found = checkNothingNotifiedUnpaid([aboutFirst, aboutSecond, aboutThird], payments);
  assert.deepEqual(
    found.map((problem) => [problem.clause, problem.message.includes('payment p2,') || problem.message.includes('payment p3,')]),
    [
      ['EVT-4', true],
      ['EVT-4', true],
    ],
  );
});

test('EVT-4 over the run, a reference handed out again once its window ended: the paid payment that holds it now is notified, not the one that had it unpaid', () => {
  const now = Date.now();
  const notification = (body: unknown) => ({ method: 'POST', url: '/webhook/a', headers: {}, body, receivedAt: now });
  const reused = '012345678';
  const ended = { ...requestedAround(now), validDate: { start: at(now - 3 * hour), end: at(now - 2 * hour) } };
  const ledger: LedgerEntry[] = [
    { kind: 'reference', paymentId: 'old', requested: ended, answeredAt: now - 3 * hour },
    { kind: 'payment read', paymentId: 'old', exchange: payment('old', reused, now - 3 * hour, now - 2 * hour) },
    { kind: 'reference', paymentId: 'new', requested: requestedAround(now), answeredAt: now - 1000 },
    { kind: 'payment read', paymentId: 'new', exchange: payment('new', reused, now - hour, now + hour) },
    { kind: 'confirmation', paymentId: 'new', at: now - 500 },
  ];
  const payments = paymentsOfLedger(ledger);
  assert.deepEqual(checkNothingNotifiedUnpaid([notification({ payments: [{ id: 'new', referenceDetails: { reference: reused } }] })], payments), []);
  assert.deepEqual(checkNothingNotifiedUnpaid([notification({ reference: reused })], payments), []);
  const aboutOld = checkNothingNotifiedUnpaid([notification({ payments: [{ id: 'old', referenceDetails: { reference: reused } }] })], payments);
  assert.deepEqual(
    aboutOld.map((problem) => [problem.clause, problem.message.includes('payment old,')]),
    [['EVT-4', true]],
  );
});

test('EVT-1 holds over every payment the run saw confirmed: each is notified at exactly its callbackUrl, where its receiver listened eventMs past the confirmation', () => {
  const now = Date.now();
  const eventMs = 2000;
  const receiver = 'http://127.0.0.1:4000';
  const reference = (paymentId: string, callbackUrl?: string): LedgerEntry => ({
    kind: 'reference',
    paymentId,
    requested: { ...requestedAround(now), ...(callbackUrl && { callbackUrl }) },
    answeredAt: now,
  });
  const read = (paymentId: string, digits: string, state: string): LedgerEntry => ({
    kind: 'payment read',
    paymentId,
    exchange: payment(paymentId, digits, now - hour, now + hour, state),
  });
  const ledger: LedgerEntry[] = [
    reference('p1', `${receiver}/callback/a?order=1&x=a%26b`),
    read('p1', '012345678', 'confirmed'),
    { kind: 'confirmation', paymentId: 'p1', at: now },
    // Confirmed too late for its receiver to have heard it: not owed.
    reference('p2', `${receiver}/callback/b`),
    read('p2', '111111111', 'confirmed'),
    { kind: 'confirmation', paymentId: 'p2', at: now + 9000 },
    // Shown pending (paid outside its window), at another address than the run's, without callbackUrl: not owed.
    reference('p3', `${receiver}/callback/c`),
    read('p3', '222222222', 'pending'),
    { kind: 'confirmation', paymentId: 'p3', at: now },
    reference('p4', 'https://merchant.example/callback'),
    read('p4', '333333333', 'confirmed'),
    { kind: 'confirmation', paymentId: 'p4', at: now },
    reference('p5'),
    read('p5', '444444444', 'confirmed'),
    { kind: 'confirmation', paymentId: 'p5', at: now },
    { kind: 'receiver closed', url: receiver, at: now + 10_000 },
  ];
  const owed = owedNotifications(ledger, eventMs);
  assert.deepEqual(
    owed.map(({ paymentId }) => paymentId),
    ['p1'],
  );
  const notification = (url: string, body: unknown) => ({ method: 'POST', url, headers: {}, body });
  const exact = notification('/callback/a?order=1&x=a%26b', { payments: [{ referenceDetails: { reference: '012345678' } }] });
  assert.deepEqual(checkOwedNotified([exact], owed, eventMs), []);
  const clausesOf = (received: ReturnType<typeof notification>[]) => checkOwedNotified(received, owed, eventMs).map((problem) => problem.clause);
  assert.deepEqual(clausesOf([]), ['EVT-1']);
  assert.deepEqual(clausesOf([notification('/callback/a', exact.body)]), ['EVT-1']);
  assert.deepEqual(clausesOf([notification('/callback/other?order=1&x=a%26b', exact.body)]), ['EVT-1']);
  assert.deepEqual(clausesOf([notification(exact.url, { payments: [{ id: 'p9' }] })]), ['EVT-3']);
  const stillOpen = ledger.filter(({ kind }) => kind !== 'receiver closed');
  assert.deepEqual(owedNotifications(stillOpen, eventMs), []);
  // A receiver that did not stop yet (its worker runs beside the audit) listened until the audit read the ledger.
  const owedListening = (at: number) => owedNotifications(stillOpen, eventMs, { urls: new Set([receiver]), at }).map(({ paymentId }) => paymentId);
  assert.deepEqual(owedListening(now + 9000 + eventMs), ['p1', 'p2']);
  assert.deepEqual(owedListening(now + eventMs), ['p1']);
  assert.deepEqual(owedListening(now + eventMs - 1), []);
  assert.deepEqual(owedNotifications(stillOpen, eventMs, { urls: new Set(['http://127.0.0.1:2']), at: now + 10_000 }), []);
});

test('the receivers still open are those opened and not closed, by their address', () => {
  const opened = (url: string, pid: number): LedgerEntry => ({ kind: 'receiver opened', url, pid, at: 1 });
  const ledger: LedgerEntry[] = [
    opened('http://127.0.0.1:1', 10),
    opened('http://127.0.0.1:2', 11),
    { kind: 'receiver closed', url: 'http://127.0.0.1:1', at: 2 },
    opened('http://127.0.0.1:3', 12),
  ];
  assert.deepEqual(receiversNotClosed(ledger), [
    { kind: 'receiver opened', url: 'http://127.0.0.1:2', pid: 11, at: 1 },
    { kind: 'receiver opened', url: 'http://127.0.0.1:3', pid: 12, at: 1 },
  ]);
});
