/**
 * The model of the whole service (src/model): its directed sequences (src/model/sequences.ts), on the
 * reference sandbox (no departure) and behind each mutant of mutants/model.ts (a departure
 * naming the mutant's clause), through the catalogue's proxy, without Playwright.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { card, checkoutVariants, wallet } from '../../src/generators/index.ts';
import { benignVariants, mutants } from '../../mutants/model.ts';
import { processedCheckoutMutants } from '../../mutants/processed-checkouts.ts';
import { startProxy, type Transform } from '../../mutants/proxy.ts';
import { startReceiver } from '../../src/harness/receiver.ts';
import type { CheckoutRequest } from '../../schemas/generated/types.ts';
import type { PaidWith, Problem } from '../../src/checks/index.ts';
import { recordedBody } from '../../src/core/http.ts';
import { requestOf } from '../../src/core/operations.ts';
import {
  awaitOwedNotifications,
  burstSequences,
  CreateCheckout,
  Departure,
  combinationSequences,
  directedCommands,
  finish,
  helperSequences,
  ListMethods,
  pageSequence,
  PayOnPage,
  startModel,
  type DirectedSequence,
  type World,
} from '../../src/model/index.ts';
import { startSandbox } from '../../src/sandbox/index.ts';

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

/** Stands in for a customer on the hosted page: posts the sandbox's form, consenting where the page offers to store the method. */
interface FakePage {
  offersConsent: boolean;
}

async function postForm(url: string, paid: PaidWith, storeConsent: boolean): Promise<void> {
  const fields: Record<string, string> =
    paid.method === 'CC'
      ? { cardNumber: paid.card.number, cardHolder: paid.card.holder, expireMonth: paid.card.expireMonth, expireYear: paid.card.expireYear }
      : { walletCountryCode: paid.wallet.countryCode, walletNumber: paid.wallet.number };
  const form = new URLSearchParams({ method: paid.method, ...fields });
  if (storeConsent) form.set('storeConsent', 'on');
  await (await fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form })).text();
}

async function worldBehind(transform?: Transform, fakePage?: FakePage): Promise<World> {
  const sandbox = await startSandbox({ port: 0, db: ':memory:', retryDelaysMs: [200, 200] });
  const proxy = await startProxy({ upstream: sandbox.url, transform });
  const receiver = await startReceiver({ host: '127.0.0.1', publicUrl: null });
  closers.push(
    () => sandbox.close(),
    () => proxy.close(),
    () => receiver.close(),
  );
  const call: World['call'] = async (name, ...options) => {
    const { method, path } = requestOf(name, options[0]);
    const sent = options[0]?.body;
    const url = `${proxy.url}${path}`;
    const answer = await fetch(url, {
      method,
      headers: sent === undefined ? {} : { 'content-type': 'application/json' },
      body: sent === undefined ? undefined : JSON.stringify(sent),
    });
    const body = recordedBody(await answer.text());
    return { request: { method, url, headers: {}, body: sent }, response: { status: answer.status, headers: {}, body, durationMs: 0 } };
  };
  const cards = fc.sample(fc.uniqueArray(card(), { minLength: 6, maxLength: 6, selector: (paid) => paid.number.slice(-4) }), { seed: 1, numRuns: 1 })[0];
  const wallets = fc.sample(fc.uniqueArray(wallet(), { minLength: 6, maxLength: 6, selector: (paid) => paid.number.slice(-3) }), { seed: 1, numRuns: 1 })[0];
  const declined = fc.sample(card({ declined: true }), { seed: 1, numRuns: 1 })[0];
  let used = 0;
  return {
    call,
    pages: fakePage
      ? {
          async pay(url, paid, storeConsent) {
            const consentOffered = fakePage.offersConsent && storeConsent !== undefined;
            await postForm(url, paid, consentOffered && storeConsent === true);
            return { consentOffered };
          },
        }
      : null,
    helpers: {
      registerCustomer: async (customerId) =>
        ((await call('registerCustomer', { body: customerId === undefined ? {} : { customerId } })).response.body as { uuid: string }).uuid,
      pay: (checkoutId, body) => call('payCheckout', { param: checkoutId, body }),
      confirm: (paymentId, paidAt) => call('confirmPayment', { param: paymentId, body: paidAt ? { paidAt } : {} }),
      setWebhook: async (url) => void (await call('setWebhook', { body: { url } })),
      removeWebhook: async () => void (await call('removeWebhook')),
    },
    receiver,
    eventMs: 1500,
    payWith: (method, isDeclined) => (method === 'MW' ? { method, wallet: wallets[used++ % 6] } : { method, card: isDeclined ? declined : cards[used++ % 6] }),
    outOfBandCustomers: [],
    note: () => undefined,
    now: () => Date.now(),
    sleep: (ms) => sleep(ms),
    lendWebhook: async (ms) => {
      await sleep(ms);
      return [];
    },
    handOverWebhook: async (ms) => {
      await sleep(ms);
      return [];
    },
    histories: { checked: () => undefined },
  };
}

/** The problems of one sequence: none where it ran and settled without a departure. */
async function problemsOf(world: World, commands: fc.AsyncCommand<never, World>[]): Promise<Problem[]> {
  const model = await startModel(world);
  try {
    await fc.asyncModelRun(() => ({ model: model as never, real: world }), commands);
    await awaitOwedNotifications(model, world);
    await finish(model, world);
    return [];
  } catch (error) {
    if (error instanceof Departure) return error.problems;
    throw error;
  }
}

const storing = (): CheckoutRequest => fc.sample(checkoutVariants.storeMethod, { seed: 2, numRuns: 1 })[0];
const consenting = (): CheckoutRequest => fc.sample(checkoutVariants.storeWithConsent, { seed: 3, numRuns: 1 })[0];
const allSequences = [...helperSequences, pageSequence];
// The covering arrays' sequences add coverage of combinations to a run, not a departure of their own: each model mutant is met without them.
const namedSequences = allSequences.filter((sequence) => !combinationSequences.includes(sequence));
const commandsOf = (sequence: DirectedSequence) => directedCommands([sequence], 1)[0] as fc.AsyncCommand<never, World>[];

describe('the model of the whole service', { concurrency: true }, () => {
  const page = { offersConsent: true };
  for (const sequence of allSequences) {
    test(`the reference sandbox passes the directed sequence "${sequence.title}"`, async () => {
      assert.deepEqual(await problemsOf(await worldBehind(undefined, page), commandsOf(sequence)), []);
    });
  }

  for (const mutant of [...mutants, ...processedCheckoutMutants]) {
    test(`the directed sequences meet ${mutant.name}, on ${mutant.clause}`, async () => {
      const found = await Promise.all(namedSequences.map(async (sequence) => problemsOf(await worldBehind(mutant.transform, page), commandsOf(sequence))));
      const clauses = new Set<string>(found.flat().map((problem) => problem.clause));
      assert.ok(clauses.has(mutant.clause), `no departure on ${mutant.clause}: ${JSON.stringify(found, null, 2)}`);
      assert.deepEqual(
        [...clauses].filter((clause) => clause !== mutant.clause && !mutant.disturbs?.includes(clause)),
        [],
        JSON.stringify(found, null, 2),
      );
    });
  }

  for (const variant of benignVariants) {
    test(`the directed sequences pass ${variant.name}`, async () => {
      const found = await Promise.all(allSequences.map(async (sequence) => problemsOf(await worldBehind(variant.transform, page), commandsOf(sequence))));
      assert.deepEqual(found.flat(), []);
    });
  }

  test('the reference sandbox stays linearizable under random bursts of operations at once, on many seeds', async () => {
    const seeds = Array.from({ length: 12 }, (_, n) => 1000 + n);
    const found = await Promise.all(
      seeds.map(async (seed) => {
        const commands = fc.sample(burstSequences(5), { seed, numRuns: 1 })[0];
        return { seed, commands: String(commands), problems: await problemsOf(await worldBehind(undefined, page), [...commands] as never) };
      }),
    );
    assert.deepEqual(
      found.filter(({ problems }) => problems.length > 0),
      [],
    );
  });

  test('a payment on the hosted page is owed what it stores: the consent given there, or none where the page did not offer it', async () => {
    const consentOnPage = () => [new CreateCheckout('storeWithConsent', consenting(), 'CC', 0), new PayOnPage(0, true), new ListMethods(0)];
    assert.deepEqual(await problemsOf(await worldBehind(undefined, { offersConsent: true }), consentOnPage()), []);
    assert.deepEqual(await problemsOf(await worldBehind(undefined, { offersConsent: false }), consentOnPage()), []);
    const stored = [new CreateCheckout('storeMethod', storing(), 'MW', 1), new PayOnPage(0, false), new ListMethods(1)];
    assert.deepEqual(await problemsOf(await worldBehind(undefined, { offersConsent: false }), stored), []);
  });
});
