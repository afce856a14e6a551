/**
 * One verdict per answer: the same exchanges fed to the run's answer judgement (judgeAnswer, told
 * what the suite knows of its own requests), to observe (judgeExchange, told what an observer knows)
 * and to the model's judge fail the same clauses.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { answerChecks, clausesJudgedBy, judgeAnswer, registry, type AnsweredOperation, type Exchange, type Problem } from '../../src/checks/index.ts';
import {
  emptyState,
  judgeCheckoutCreated,
  judgeList,
  judgePayment,
  judgeReferenceCreated,
  modelChecks,
  modelClauses,
  windowOf,
} from '../../src/model/index.ts';
import { judgeExchange } from '../../src/observe/judge.ts';
import { observedClauses } from '../../src/observe/observer.ts';
import { trafficChecks } from '../../src/observe/traffic-state.ts';
import { specificationFile } from '../../src/core/specification.ts';

const payload = (name: string) => JSON.parse(readFileSync(specificationFile('realdata', `${name}.json`), 'utf8')).payload;

const paths: Record<AnsweredOperation, string> = {
  createCheckout: 'POST /checkouts',
  createReference: 'POST /payments/references',
  getPayment: 'GET /payments/50438',
  listMethods: 'GET /customers/e2343605-cf46-43de-b20b-9b7d1c95a9b2/paymentMethods',
};
const paramOf = (operation: AnsweredOperation) =>
  operation === 'getPayment' ? '50438' : operation === 'listMethods' ? 'e2343605-cf46-43de-b20b-9b7d1c95a9b2' : null;

function exchange(operation: AnsweredOperation, status: number, body: unknown, requestBody?: unknown, headers: Record<string, string> = {}): Exchange {
  const [method, path] = paths[operation].split(' ');
  return {
    request: { method, url: `http://target.test${path}`, headers: {}, body: requestBody },
    response: { status, headers: { 'content-type': 'application/json', ...headers }, body },
  };
}

const atmRow = payload('checkout-request--mb--1');
const reference = payload('reference-request--payment-multibanco--1');
/** An instant inside the reference's window, and one after it ended. */
const [whileOpen, afterItEnded] = [Date.parse('2022-04-10T00:00:00Z'), Date.parse('2022-05-10T00:00:00Z')];
const emptyList = { ...payload('payment-methods-response--tokenization--1'), data: [] };

interface Case {
  name: string;
  operation: AnsweredOperation;
  exchange: Exchange;
  sentAt?: number;
  fails: string[];
}

const cases: Case[] = [
  {
    name: 'a row of 4.1 created',
    operation: 'createCheckout',
    exchange: exchange('createCheckout', 200, payload('checkout-response--mb--1'), atmRow),
    fails: [],
  },
  {
    name: 'a row of 4.1 refused',
    operation: 'createCheckout',
    exchange: exchange('createCheckout', 400, { success: false }, atmRow),
    fails: ['CHK-1', 'CHK-6'],
  },
  {
    name: 'a checkout beyond the rows refused',
    operation: 'createCheckout',
    exchange: exchange('createCheckout', 422, { success: false }, { ...atmRow, extra: true }),
    fails: [],
  },
  {
    name: 'amount 5.5 accepted',
    operation: 'createCheckout',
    exchange: exchange('createCheckout', 200, payload('checkout-response--mb--1'), { ...atmRow, payment: { ...atmRow.payment, amount: 5.5 } }),
    fails: ['CHK-11'],
  },
  {
    name: 'POST /checkouts redirected under /v1',
    operation: 'createCheckout',
    exchange: exchange('createCheckout', 308, undefined, atmRow, { location: 'http://target.test/v1/checkouts' }),
    fails: ['ENV-4'],
  },
  {
    name: 'a valid reference created',
    operation: 'createReference',
    exchange: exchange('createReference', 200, payload('reference-response--payment-multibanco--1'), reference),
    sentAt: whileOpen,
    fails: [],
  },
  {
    name: 'a valid reference refused',
    operation: 'createReference',
    exchange: exchange('createReference', 400, { success: false }, reference),
    sentAt: whileOpen,
    fails: ['REF-1'],
  },
  {
    name: 'a reference whose callbackUrl is not a URL, refused',
    operation: 'createReference',
    exchange: exchange('createReference', 400, { success: false }, { ...reference, callbackUrl: 'teste.pt/notify me' }),
    sentAt: whileOpen,
    fails: [],
  },
  {
    name: 'a reference whose window had ended when it was sent, refused',
    operation: 'createReference',
    exchange: exchange('createReference', 422, { success: false }, reference),
    sentAt: afterItEnded,
    fails: [],
  },
  {
    name: 'a reference of amount 0 accepted',
    operation: 'createReference',
    exchange: exchange('createReference', 200, payload('reference-response--payment-multibanco--1'), { ...reference, amount: 0 }),
    sentAt: whileOpen,
    fails: ['REF-9'],
  },
  {
    name: 'a confirmed payment read',
    operation: 'getPayment',
    exchange: exchange('getPayment', 200, payload('payment-response--payment-multibanco--1')),
    fails: [],
  },
  {
    name: 'a confirmed payment read, its reference of 8 digits',
    operation: 'getPayment',
    exchange: exchange(
      'getPayment',
      200,
      (() => {
        const body = payload('payment-response--payment-multibanco--1');
        body.data.referenceDetails.reference = '02492617';
        return body;
      })(),
    ),
    fails: ['REF-2'],
  },
  { name: 'an empty list', operation: 'listMethods', exchange: exchange('listMethods', 200, emptyList), fails: [] },
  {
    name: 'a list answered 404 for a customer with nothing stored',
    operation: 'listMethods',
    exchange: exchange('listMethods', 404, { success: false }),
    fails: [],
  },
];

const clausesOf = (problems: Problem[]) => [...new Set(problems.map((problem) => problem.clause))].sort();

/** The run's judgement of an answer to its own request: it sent it with its credentials, created what it reads, and registered the customer (nothing stored). */
const byRun = ({ operation, exchange, sentAt }: Case) =>
  judgeAnswer(operation, exchange, { sentAt, suiteCredentials: true, paymentCreated: true, stored: 'nothing' }).problems;

const byObserve = ({ operation, exchange, sentAt }: Case) =>
  judgeExchange(operation, exchange, () => true, paramOf(operation), sentAt).flatMap((judged) => judged.problems);

/** The model's judge, in a state where the reference read is the one it created and confirmed, and the customer has nothing stored. */
function byModel({ operation, exchange, sentAt }: Case): Problem[] {
  const state = emptyState();
  switch (operation) {
    case 'createCheckout':
      return judgeCheckoutCreated(exchange, []);
    case 'createReference':
      return judgeReferenceCreated(exchange, sentAt!);
    case 'getPayment': {
      const created = {
        paymentId: '50438',
        reference: undefined,
        request: reference,
        checkout: null,
        callbackPath: null,
        ...windowOf(reference),
        paidOutside: false,
      };
      return judgePayment(exchange, { ...created, state: 'confirmed' }, state);
    }
    case 'listMethods':
      return judgeList(exchange, paramOf(operation)!, state);
  }
}

for (const one of cases) {
  test(`the run, observe and the model agree on ${one.name}: ${one.fails.join(', ') || 'no problem'}`, () => {
    const verdicts = { run: clausesOf(byRun(one)), observe: clausesOf(byObserve(one)), model: clausesOf(byModel(one)) };
    assert.deepEqual(verdicts, { run: one.fails, observe: one.fails, model: one.fails });
    const declared = new Set<string>([...clausesJudgedBy(answerChecks[one.operation]), ...modelClauses]);
    assert.deepEqual(
      one.fails.filter((clause) => !declared.has(clause)),
      [],
      'a clause the tags of the model and the index of observe do not name',
    );
  });
}

/** The registry's checks a folder's code calls by name. */
function checksCalledIn(folder: string): string[] {
  const registered = new Set(registry.map((entry) => entry.check.name));
  const sources = readdirSync(new URL(`../../${folder}/`, import.meta.url)).map((name) =>
    readFileSync(new URL(`../../${folder}/${name}`, import.meta.url), 'utf8'),
  );
  return [...new Set(sources.flatMap((source) => [...source.matchAll(/\b(check\w+)\(/g)].map(([, name]) => name)))].filter((name) => registered.has(name));
}

test('the model is tagged, and observe indexed, with the clauses of every check they call', () => {
  const names = (checks: readonly { name: string }[]) => new Set(checks.map((check) => check.name));
  const model = names(modelChecks);
  assert.deepEqual(
    checksCalledIn('src/model').filter((name) => !model.has(name)),
    [],
  );
  const observe = names([...Object.values(answerChecks).flat(), ...trafficChecks]);
  assert.deepEqual(
    checksCalledIn('src/observe').filter((name) => !observe.has(name)),
    [],
  );
  assert.ok(clausesJudgedBy(trafficChecks).every((clause) => observedClauses.includes(clause)));
});

test('what the caller knows decides the freedoms: credentials (SEC-1), a payment seen created (REF-10), what a customer has stored (PML-7)', () => {
  const verdict = (operation: AnsweredOperation, status: number, known: Parameters<typeof judgeAnswer>[2]) => {
    const { problems, taken } = judgeAnswer(
      operation,
      exchange(operation, status, { success: false }, operation === 'createCheckout' ? atmRow : undefined),
      known,
    );
    return { fails: clausesOf(problems), taken: taken?.clause ?? null };
  };
  assert.deepEqual(verdict('createCheckout', 401, {}), { fails: [], taken: 'SEC-1' });
  assert.deepEqual(verdict('createCheckout', 401, { suiteCredentials: true }), { fails: ['CHK-1', 'CHK-6'], taken: null });
  assert.deepEqual(verdict('getPayment', 404, {}), { fails: [], taken: 'REF-10' });
  assert.deepEqual(verdict('getPayment', 404, { paymentCreated: true }), { fails: ['REF-3'], taken: null });
  assert.deepEqual(verdict('listMethods', 500, {}), { fails: [], taken: 'PML-7' });
  assert.deepEqual(verdict('listMethods', 404, { stored: 'nothing' }), { fails: [], taken: 'PML-7' });
  assert.deepEqual(verdict('listMethods', 500, { stored: 'nothing' }), { fails: ['PML-1'], taken: null });
  assert.deepEqual(verdict('listMethods', 404, { stored: 'methods' }), { fails: ['PML-1'], taken: null });
  assert.deepEqual(verdict('createReference', 404, { suiteCredentials: true }), { fails: ['ENV-4'], taken: null });
});
