/**
 * What the checks' unit tests share: the published examples beside this checkout, exchanges made
 * of them, and the table of one observation per check and clause that makes the check name the
 * clause (and, where given, one it passes), by which the registry is proven.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import type { RecordedRequest } from '../../src/core/evidence.ts';
import { checkCheckoutCreated, checkPayment, checkStoredMethods, checksByClause, type Exchange, type Problem } from '../../src/checks/index.ts';
import { specificationFile } from '../../src/core/specification.ts';

const realdata = specificationFile('realdata');
interface Example {
  operation: string;
  agreesWithContract: boolean;
  payload: any;
}
export const examples = Object.fromEntries(
  readdirSync(realdata)
    .filter((file) => file.endsWith('.json'))
    .map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(new URL(file, realdata), 'utf8')) as Example]),
);
export const payload = (name: string) => structuredClone(examples[name].payload);

export function exchange(method: string, path: string, responseBody: unknown, requestBody?: unknown, status = 200): Exchange {
  const request: RecordedRequest = { method, url: `http://target.test${path}`, headers: {}, body: requestBody };
  return { request, response: { status, headers: { 'content-type': 'application/json' }, body: responseBody } };
}
export const clausesOf = (problems: Problem[]): string[] => [...new Set(problems.map((problem) => problem.clause))].sort();
export const confirmed = { stage: 'confirmed' } as const;
export const checkout = (response: unknown, request: unknown = payload('checkout-request--cc--1'), status = 200) =>
  checkCheckoutCreated(exchange('POST', '/checkouts', response, request, status));
export const payment = (response: unknown) => checkPayment(exchange('GET', '/payments/50438', response), confirmed);
export const methods = (response: unknown) => checkStoredMethods(exchange('GET', '/customers/e2343605-cf46-43de-b20b-9b7d1c95a9b2/paymentMethods', response));

export interface CheckCase {
  clause: string;
  check: { name: string };
  failing: string;
  passes: Problem[] | null;
  fails: Problem[];
}
export function checkCase<A extends unknown[]>(
  clause: string,
  check: (...observation: A) => Problem[],
  failing: string,
  observations: { passes?: A; fails: A },
): CheckCase {
  return { clause, check, failing, passes: observations.passes ? check(...observations.passes) : null, fails: check(...observations.fails) };
}

export const published = {
  checkout: () => payload('checkout-response--cc--1'),
  payment: () => payload('payment-response--payment-multibanco--1'),
  methods: () => payload('payment-methods-response--tokenization--1'),
};
export const without = <T extends Record<string, unknown>>(body: T, field: string): T => {
  delete body[field];
  return body;
};
export const changed = <T>(body: T, change: (body: T) => void): T => {
  change(body);
  return body;
};
export const created = (body: unknown, status = 200, request: unknown = payload('checkout-request--cc--1')) =>
  exchange('POST', '/checkouts', body, request, status);
export const paymentAnswer = (body: unknown, status = 200) => exchange('GET', '/payments/50438', body, undefined, status);
export const methodsAnswer = (body: unknown, status = 200) => exchange('GET', '/customers/x/paymentMethods', body, undefined, status);
export const notification = (body: unknown, method = 'POST'): RecordedRequest => ({ method, url: '/hook', headers: {}, body });

/**
 * A test per case, and one that the registry's checks defined in `checksOfFile` (a module of
 * src/checks, imported whole) are exactly those of the cases, each with the clauses it names.
 */
export function testCheckCases(checksOfFile: object, cases: CheckCase[]): void {
  for (const { clause, check, failing, passes, fails } of cases) {
    test(`${check.name} names ${clause} on ${failing}`, () => {
      assert.ok(
        fails.some((problem) => problem.clause === clause),
        JSON.stringify(fails),
      );
      assert.ok(fails.every((problem) => problem.message.length > 0));
      if (passes) assert.deepEqual(passes, []);
    });
  }
  test('each check of the registry defined in this file names its clause on an observation of the table, and the table holds nothing else', () => {
    const definedHere = new Set<unknown>(Object.values(checksOfFile));
    const pair = (clause: string, check: { name: string }) => `${clause} ${check.name}`;
    const registered = Object.entries(checksByClause).flatMap(([clause, checks]) =>
      checks.filter((check) => definedHere.has(check)).map((check) => pair(clause, check)),
    );
    const tabled = new Set(cases.map(({ clause, check }) => pair(clause, check)));
    assert.deepEqual(
      registered.filter((entry) => !tabled.has(entry)),
      [],
    );
    assert.deepEqual(
      [...tabled].filter((entry) => !registered.includes(entry)),
      [],
    );
  });
}
