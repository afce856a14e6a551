import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { card, wallet } from '../../src/generators/index.ts';
import { testHelperSchema, validateResource, validateResponse } from '../../src/core/schemas.ts';
import { cardBrand, issuerDeclines, luhnValid } from '../../src/core/cards.ts';
import { call } from '../../src/sandbox/client.ts';
import { openDatabase } from '../../src/sandbox/db.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { redirectWithId } from '../../src/sandbox/payments.ts';
import { createStore } from '../../src/sandbox/store.ts';
import { isoWithOffset } from '../../src/sandbox/time.ts';

let sandbox: Sandbox;
const api = (method: string, path: string, body?: unknown) => call(sandbox.url, method, path, body);

const visa = { number: '4111111111111111', holder: 'Ana Silva', expireMonth: '07', expireYear: '2031' };
const declinedVisa = { ...visa, number: '4000000000000002' };
const mbWay = { countryCode: '351', number: '912345678' };

async function checkout(paymentMethod: object, extra: { layout?: string; uuid?: string; redirect?: string } = {}) {
  const answer = await api('POST', '/checkouts', {
    payment: { amount: 1250, paymentMethod, ...(extra.uuid && { customer: { uuid: extra.uuid } }) },
    ...(extra.layout && { page: { layout: extra.layout } }),
    ...(extra.redirect && { redirects: [{ type: 'action', url: extra.redirect }] }),
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data as { id: string; paymentId: string };
}

const pay = (checkoutId: string, body: object) => api('POST', `/test-helpers/checkouts/${checkoutId}/pay`, body);
const storedMethods = async (uuid: string) => {
  const answer = await api('GET', `/customers/${uuid}/paymentMethods`);
  assert.deepEqual(validateResponse('listMethods', answer.body), []);
  return answer.body.data as any[];
};

const reference = (window: { start: string; end: string }, callbackUrl?: string) =>
  api('POST', '/payments/references', {
    type: 'payment',
    amount: 500,
    availableMethods: [{ code: 'MB' }],
    validDate: window,
    ...(callbackUrl && { callbackUrl }),
  });
const hour = 3_600_000;
const openWindow = () => ({ start: isoWithOffset(Date.now() - hour), end: isoWithOffset(Date.now() + hour) });

before(async () => {
  sandbox = await startSandbox({ db: ':memory:' });
});
after(() => sandbox.close());

describe('test cards', () => {
  test('Luhn, brands and the decline rule', () => {
    assert.ok(luhnValid('4111111111111111'));
    assert.ok(!luhnValid('4111111111111112'));
    assert.ok(!luhnValid('41111'));
    assert.equal(cardBrand('4111111111111111'), 'VISA');
    assert.equal(cardBrand('5555555555554444'), 'MASTERCARD');
    assert.equal(cardBrand('2223003122003222'), 'MASTERCARD');
    assert.equal(cardBrand('378282246310005'), 'AMEX');
    assert.ok(issuerDeclines('4000000000000002'));
  });
});

describe('tokenization (TOK-1..6)', () => {
  test('createRegistration stores the card after a successful payment, spelled as 2.4 (property)', async () => {
    await fc.assert(
      fc.asyncProperty(card(), async (paidWith) => {
        const uuid = randomUUID();
        const { id } = await checkout({ code: 'CC', details: { createRegistration: true } }, { uuid });
        assert.equal((await pay(id, { outcome: 'success', method: 'CC', card: paidWith })).status, 200);
        const [stored, ...others] = await storedMethods(uuid);
        assert.equal(others.length, 0);
        assert.deepEqual(
          { ...stored, uuid: undefined },
          {
            type: 'CC',
            uuid: undefined,
            brand: cardBrand(paidWith.number),
            last4Digitis: paidWith.number.slice(-4),
            holder: paidWith.holder,
            expireMonth: paidWith.expireMonth,
            expireYear: paidWith.expireYear,
          },
        );
      }),
      { seed: 41, numRuns: 25 },
    );
  });

  test('allowRegistration stores a wallet only with consent', async () => {
    const uuid = randomUUID();
    const declined = await checkout({ code: 'MW', details: { allowRegistration: true } }, { uuid, layout: 'basic' });
    assert.equal((await pay(declined.id, { outcome: 'success', method: 'MW', wallet: mbWay, storeConsent: false })).status, 200);
    assert.deepEqual(await storedMethods(uuid), []);
    const consented = await checkout({ code: 'MW', details: { allowRegistration: true } }, { uuid, layout: 'basic' });
    assert.equal((await pay(consented.id, { outcome: 'success', method: 'MW', wallet: mbWay, storeConsent: true })).status, 200);
    const [stored] = await storedMethods(uuid);
    assert.deepEqual(
      { type: stored.type, countryCode: stored.countryCode, last3Digitis: stored.last3Digitis },
      { type: 'MW', countryCode: '351', last3Digitis: '678' },
    );
  });

  test('a failed payment, a declined card or a checkout without registration stores nothing', async () => {
    const uuid = randomUUID();
    const failed = await checkout({ code: 'CC', details: { createRegistration: true } }, { uuid });
    assert.equal((await pay(failed.id, { outcome: 'failure', method: 'CC', card: visa })).body.state, 'PaymentDeclined');
    const declined = await checkout({ code: 'CC', details: { createRegistration: true } }, { uuid });
    assert.equal((await pay(declined.id, { outcome: 'success', method: 'CC', card: declinedVisa })).body.state, 'PaymentDeclined');
    const plain = await checkout({ code: 'CC' }, { uuid, layout: 'default' });
    assert.equal((await pay(plain.id, { outcome: 'success', method: 'CC', card: visa, storeConsent: true })).body.state, 'PaymentConfirmed');
    const atm = await checkout({ code: 'MB' }, { uuid, layout: 'web' });
    assert.equal((await pay(atm.id, { method: 'MB' })).status, 200);
    assert.deepEqual(await storedMethods(uuid), []);
  });

  test('methods are per customer, with distinct uuids', async () => {
    const [ana, rui] = [randomUUID(), randomUUID()];
    for (const paidWith of [visa, { ...visa, number: '5555555555554444' }]) {
      const { id } = await checkout({ code: 'CC', details: { createRegistration: true } }, { uuid: ana });
      await pay(id, { method: 'CC', card: paidWith });
    }
    const stored = await storedMethods(ana);
    assert.deepEqual(
      stored.map((method) => method.brand),
      ['VISA', 'MASTERCARD'],
    );
    assert.notEqual(stored[0].uuid, stored[1].uuid);
    assert.deepEqual(await storedMethods(rui), []);
  });

  test('wallet property: last three digits and country code as paid', async () => {
    await fc.assert(
      fc.asyncProperty(wallet(), async (paidWith) => {
        const uuid = randomUUID();
        const { id } = await checkout({ code: 'MW', details: { createRegistration: true } }, { uuid, layout: 'default' });
        await pay(id, { method: 'MW', wallet: paidWith });
        const [stored] = await storedMethods(uuid);
        assert.equal(stored.last3Digitis, paidWith.number.slice(-3));
        assert.equal(stored.countryCode, paidWith.countryCode);
      }),
      { seed: 42, numRuns: 10 },
    );
  });
});

describe('the pay helper', () => {
  test('status codes: 200, 404 unknown, 409 twice, 400/422 bad body', async () => {
    const { id } = await checkout({ code: 'CC' }, { layout: 'web' });
    assert.equal((await pay('no-such-checkout', { method: 'CC', card: visa })).status, 404);
    for (const bad of [
      { method: 'XX' },
      { method: 'CC', card: { ...visa, number: '4111111111111112' } },
      { method: 'CC', card: { ...visa, expireMonth: '13' } },
      { method: 'CC', card: { ...visa, expireMonth: '7' } },
      { method: 'CC' },
      { method: 'MW', wallet: mbWay },
      { outcome: 'maybe', method: 'CC', card: visa },
    ]) {
      assert.equal((await pay(id, bad)).status, 422, JSON.stringify(bad));
    }
    assert.equal((await api('POST', `/test-helpers/checkouts/${id}/pay`, [])).status, 400);
    const paid = await pay(id, { outcome: 'success', method: 'CC', card: visa });
    assert.deepEqual(paid.body, { checkoutId: id, state: 'PaymentConfirmed', redirectUrl: null });
    assert.deepEqual(validateResource(testHelperSchema('payAnswer'), paid.body), []);
    assert.equal((await pay(id, { method: 'CC', card: visa })).status, 409);
  });

  test('a one-digit expireMonth is refused (422) naming card.expireMonth, and nothing is paid', async () => {
    const { id } = await checkout({ code: 'CC' }, { layout: 'web' });
    const refused = await pay(id, { method: 'CC', card: { ...visa, expireMonth: '7' } });
    assert.equal(refused.status, 422);
    assert.deepEqual(
      refused.body.errors.map((reason: { field: string }) => reason.field),
      ['card.expireMonth'],
    );
    assert.equal((await pay(id, { method: 'CC', card: visa })).status, 200);
  });

  test('numbers typed with spaces, dashes or "+" and a holder with spaces around are read plainly', async () => {
    const uuid = randomUUID();
    const card = await checkout({ code: 'CC', details: { createRegistration: true } }, { uuid });
    const typed = { number: '4111 1111-1111 1111', holder: '  Ana Silva ', expireMonth: '07', expireYear: '2031' };
    assert.equal((await pay(card.id, { method: 'CC', card: typed, wallet: { countryCode: '351', number: '' } })).status, 200);
    const wallet = await checkout({ code: 'MW', details: { createRegistration: true } }, { uuid, layout: 'default' });
    assert.equal((await pay(wallet.id, { method: 'MW', wallet: { countryCode: '+351', number: '912 345-678' }, card: {} })).status, 200);
    const [storedCard, storedWallet] = await storedMethods(uuid);
    assert.deepEqual([storedCard.last4Digitis, storedCard.holder], ['1111', 'Ana Silva']);
    assert.deepEqual([storedWallet.countryCode, storedWallet.last3Digitis], ['351', '678']);
  });

  test('the redirect URL keeps its own query and takes id, deep links included', async () => {
    const { id } = await checkout({ code: 'CC' }, { layout: 'default', redirect: 'myshop://paid?order=1' });
    assert.equal((await pay(id, { method: 'CC', card: visa })).body.redirectUrl, `myshop://paid?order=1&id=${id}`);
    assert.equal(redirectWithId('https://shop.example/done', 'A'), 'https://shop.example/done?id=A');
    assert.equal(redirectWithId('https://shop.example/done?x=a%20b#top', 'A'), 'https://shop.example/done?x=a%20b&id=A#top');
  });

  test('a checkout payment is confirmed, with the checkout amount', async () => {
    const { id, paymentId } = await checkout({ code: 'CC' }, { layout: 'web' });
    await pay(id, { method: 'CC', card: visa });
    const payment = (await api('GET', `/payments/${paymentId}`)).body.data;
    assert.equal(payment.stateDetails.state, 'confirmed');
    assert.equal(payment.amount, 1250);
  });
});

describe('references (REF-6..8)', () => {
  test('confirm: 200 inside the window, then confirmed; 409 twice, outside the window, 404 unknown', async () => {
    const created = (await reference(openWindow())).body.data;
    const confirm = (body: object, id = created.id) => api('POST', `/test-helpers/payments/${id}/confirm`, body);
    assert.equal((await confirm({ paidAt: isoWithOffset(Date.now() - 2 * hour) })).status, 409, 'before start');
    assert.equal((await confirm({ paidAt: isoWithOffset(Date.now() + 2 * hour) })).status, 409, 'after end');
    assert.equal((await api('GET', `/payments/${created.id}`)).body.data.stateDetails.state, 'pending');
    assert.equal((await confirm({ paidAt: 'yesterday' })).status, 422);
    assert.equal((await confirm({}, '99999999')).status, 404);
    const confirmation = await confirm({});
    assert.equal(confirmation.status, 200);
    assert.deepEqual(validateResource(testHelperSchema('confirmAnswer'), confirmation.body), []);
    const confirmed = (await api('GET', `/payments/${created.id}`)).body.data;
    assert.equal(confirmed.stateDetails.state, 'confirmed');
    assert.ok(Date.parse(confirmed.updatedAt) >= Date.parse(confirmed.createdAt));
    assert.equal((await confirm({})).status, 409);
  });

  test('500 concurrent creations get 500 distinct 9-digit references', async () => {
    const window = openWindow();
    const answers = await Promise.all(Array.from({ length: 500 }, () => reference(window)));
    const references = answers.map((answer) => answer.body.data.referenceDetails.reference as string);
    assert.ok(references.every((value) => /^[0-9]{9}$/.test(value)));
    assert.equal(new Set(references).size, 500);
  });

  test('the database refuses a reference that is already valid at the same time, and allows it once expired', async () => {
    const db = openDatabase(':memory:');
    const draws = ['000000042', '000000042', '000000042', '000000007'];
    const store = createStore(db, '12345', () => draws.shift()!);
    const payment = (start: string, end: string) => ({ amount: 1, validStart: start, validEnd: end, availableMethods: [], callbackUrl: null });
    const now = isoWithOffset();
    const first = await store.createReference(payment('2030-01-01T00:00:00+00:00', '2030-01-31T00:00:00+00:00'), now);
    const overlapping = await store.createReference(payment('2030-01-15T00:00:00+00:00', '2030-02-15T00:00:00+00:00'), now);
    assert.equal(store.payment(first)!.reference, '000000042');
    assert.equal(store.payment(overlapping)!.reference, '000000007', 'redrawn after the database refused 000000042 twice');
    const insert =
      db.prepare(`INSERT INTO payments (amount, entity, reference, state, state_created_at, created_at, updated_at, valid_start, valid_end, valid_start_ms, valid_end_ms, available_methods)
      VALUES (1, 'e', ?, 'pending', 'x', 'x', 'x', 'x', 'x', ?, ?, '[]')`);
    assert.throws(() => insert.run('000000042', Date.parse('2030-01-30T00:00:00Z'), Date.parse('2030-03-01T00:00:00Z')), /reference_in_use/);
    assert.doesNotThrow(() => insert.run('000000042', Date.parse('2030-02-01T00:00:00Z'), Date.parse('2030-03-01T00:00:00Z')));
    db.close();
  });
});
