/**
 * What the preflight finds out about a target whose profile does not say: whether it has the test
 * helpers of shared/contracts/test-helpers.md, and whether its hosted pages can be opened from here.
 * Each helper is probed with a request that changes no state the suite relies on: a customer is
 * registered, and the others are called with a bad body, or outside a reference's validity window,
 * so that a helper that is there refuses (400, 409, 422) where a missing one answers 404 or 405. A
 * live target is never probed with a write.
 */
import fc from 'fast-check';
import { checkoutVariants, validReference } from '../generators/index.ts';
import { statusHint } from '../core/needs.ts';
import type { Profile } from '../core/run-config.ts';
import { operationNamed, requestOf, uuidPattern, type OperationName } from '../core/operations.ts';
import { targetUrl } from './preflight.ts';
import { describeFetchError, recordedBody } from '../core/http.ts';
import { fetchThrough } from '../core/transport.ts';
import type { Transport } from '../core/transport-options.ts';
import { createPacer, defaultConcurrentRequests, type Pacer } from '../harness/pace.ts';

export interface Probes {
  testHelpers: boolean;
  hostedPages: boolean;
  /** What was found, one line each, for the console and the report. */
  findings: string[];
  /** Why the run stops here: the target served none of the probed requests (every one answered 404). */
  stop: string | null;
}

interface Answer {
  status: number;
  body: unknown;
}

type Send = (name: OperationName, param: string | undefined, body: unknown) => Promise<Answer | string>;

interface ProbeAnswer {
  call: string;
  status: number;
  ofReference: boolean;
}

const day = 24 * 60 * 60 * 1000;

/** The capabilities of the profile, with the ones it leaves open settled by probing the target. */
export async function probeTarget(baseUrl: string, headers: Record<string, string>, profile: Profile, transport?: Transport): Promise<Probes> {
  const { testHelpers, hostedPages } = profile.capabilities;
  const findings: string[] = [];
  if (testHelpers !== undefined) findings.push(`test helpers: ${testHelpers ? 'yes' : 'no'}, as the profile says`);
  if (hostedPages !== undefined) findings.push(`hosted pages: ${hostedPages ? 'yes' : 'no'}, as the profile says`);
  if (testHelpers !== undefined && hostedPages !== undefined) return { testHelpers, hostedPages, findings, stop: null };
  if (profile.live) {
    if (testHelpers === undefined) findings.push('test helpers: not probed on a live target (no writes); say capabilities.testHelpers in the profile');
    if (hostedPages === undefined) findings.push('hosted pages: not probed on a live target (no writes); assumed, as the reference shows them');
    return { testHelpers: testHelpers ?? false, hostedPages: hostedPages ?? true, findings, stop: null };
  }
  const answers: ProbeAnswer[] = [];
  // At the profile's pace, as the run's own requests go: the probes overlap, within its limits.
  const pacer = createPacer({ maxConcurrent: profile.requests?.concurrent ?? defaultConcurrentRequests, perSecond: profile.requests?.perSecond ?? null });
  const send = recorded(paced(pacer, sender(baseUrl, headers, profile.timeouts.requestMs, transport)), answers);
  const checkout = await send('createCheckout', undefined, fc.sample(checkoutVariants.atmPage, { seed: 1, numRuns: 1 })[0]);
  const checkoutData = dataOf(checkout);
  // The page and the helpers at once: against a distant target, each request costs its latency.
  const [page, helpers] = await Promise.all([
    hostedPages === undefined ? openPage(checkoutData?.checkoutUrl, profile.timeouts.requestMs, transport) : null,
    testHelpers === undefined ? probeHelpers(send, checkoutData?.id) : null,
  ]);
  if (page) findings.push(`hosted pages: ${page.note}`);
  if (helpers) {
    findings.push(
      `test helpers: ${helpers.missing.length === 0 ? `found (${helpers.found}/${helpers.probed})` : helpers.refused ? `not usable: ${helpers.missing.join('; ')}; ${statusHint(401)}` : `not found: ${helpers.missing.join('; ')}`}`,
    );
  }
  const foundPages = page ? page.opened : Boolean(hostedPages);
  const foundHelpers = helpers ? helpers.missing.length === 0 : Boolean(testHelpers);
  const refused = answers.filter(({ status, ofReference }) => credentialsRefused(status) && ofReference);
  if (refused.length > 0)
    findings.unshift(`credentials refused: ${refused.map(({ call, status }) => `${call} answered ${status}`).join(', ')}; ${statusHint(refused[0].status)}`);
  const everyOne404 = answers.length > 0 && answers.every(({ status }) => status === 404);
  const stop = everyOne404 ? `every request answered 404: check --base-url (${baseUrl}: ${answers.map(({ call }) => call).join(', ')})` : null;
  return { testHelpers: foundHelpers, hostedPages: foundPages, findings, stop };
}

const credentialsRefused = (status: number) => status === 401 || status === 403;

/** The send, with the status of every answer kept. */
function recorded(send: Send, answers: ProbeAnswer[]): Send {
  return async (name, param, body) => {
    const answer = await send(name, param, body);
    const { method, path } = requestOf(name, { param });
    if (typeof answer !== 'string')
      answers.push({ call: `${method} ${path.replace(/[0-9a-f-]{36}/gi, '{id}')}`, status: answer.status, ofReference: operationNamed(name).ofReference });
    return answer;
  };
}

/** The send, through the pacer: no more requests in flight, nor more per second, than the profile allows. */
function paced(pacer: Pacer, send: Send): Send {
  return (name, param, body) => {
    let durationMs = 0;
    const timed = async () => {
      const started = Date.now();
      const answer = await send(name, param, body);
      durationMs = Date.now() - started;
      return answer;
    };
    return pacer.send(timed, (answer) => ({ status: typeof answer === 'string' ? 0 : answer.status, durationMs }));
  };
}

function dataOf(answer: Answer | string): Record<string, unknown> | undefined {
  if (typeof answer === 'string' || answer.status < 200 || answer.status >= 300) return undefined;
  const data = (answer.body as { data?: unknown } | null)?.data;
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : undefined;
}

function sender(baseUrl: string, headers: Record<string, string>, timeoutMs: number, transport: Transport | undefined): Send {
  return async (name, param, body) => {
    const { method, path } = requestOf(name, { param });
    const url = targetUrl(baseUrl, path);
    try {
      const response = await fetchThrough(
        transport,
        url,
        {
          method,
          headers: { accept: 'application/json', ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          redirect: 'manual',
        },
        { timeoutMs },
      );
      return { status: response.status, body: recordedBody(await response.text()) };
    } catch (error) {
      return describeFetchError(error, timeoutMs, url, transport);
    }
  };
}

/** Any HTTP answer at checkoutUrl means the pages are there to be judged; a network failure means they cannot be reached from here. */
async function openPage(checkoutUrl: unknown, timeoutMs: number, transport: Transport | undefined): Promise<{ opened: boolean; note: string }> {
  if (typeof checkoutUrl !== 'string' || !URL.canParse(checkoutUrl)) {
    return { opened: true, note: 'not probed (no checkout with a checkoutUrl was created); assumed, as the reference shows them' };
  }
  try {
    const response = await fetchThrough(transport, checkoutUrl, {}, { timeoutMs });
    await response.body?.cancel();
    return { opened: true, note: `found (GET checkoutUrl answered ${response.status})` };
  } catch (error) {
    return {
      opened: false,
      note: `checkoutUrl ${checkoutUrl} cannot be reached from this machine (${describeFetchError(error, timeoutMs, checkoutUrl, transport)})`,
    };
  }
}

/** A helper that is there takes the call, or refuses its body or its timing; a missing one answers 404 or 405. */
const helperPresent = (status: number) => (status >= 200 && status < 300) || status === 400 || status === 409 || status === 422;

async function probeHelpers(send: Send, checkoutId: unknown): Promise<{ found: number; probed: number; missing: string[]; refused: boolean }> {
  /** What is missing of a helper: null where it answered as one that is there. */
  const expect = async (name: OperationName, param: string | undefined, body: unknown, present: (answer: Answer) => boolean): Promise<Missing> => {
    const { method, path } = requestOf(name, { param });
    const answer = await send(name, param, body);
    if (typeof answer === 'string') return { missing: `${method} ${path} did not answer (${answer})`, refused: false };
    // A 401 or 403 says nothing of whether the helper is there: the credentials are what is wrong.
    return present(answer) ? null : { missing: `${method} ${path} answered ${answer.status}`, refused: credentialsRefused(answer.status) };
  };
  const opensTomorrow = {
    ...fc.sample(validReference({ callback: 'without' }), { seed: 1, numRuns: 1 })[0],
    validDate: { start: new Date(Date.now() + day).toISOString(), end: new Date(Date.now() + 2 * day).toISOString() },
  };
  const confirmation = async (): Promise<Missing | undefined> => {
    const paymentId = dataOf(await send('createReference', undefined, opensTomorrow))?.id;
    return typeof paymentId === 'string' || typeof paymentId === 'number'
      ? expect('confirmPayment', String(paymentId), {}, (answer) => helperPresent(answer.status))
      : undefined;
  };
  // Each probe changes nothing another relies on: they go at once (undefined: one that could not be probed).
  const outcomes = (
    await Promise.all([
      expect(
        'registerCustomer',
        undefined,
        {},
        (answer) => answer.status >= 200 && answer.status < 300 && uuidPattern.test(String((answer.body as { uuid?: unknown } | null)?.uuid)),
      ),
      expect('setWebhook', undefined, { url: 'not a URL' }, (answer) => helperPresent(answer.status)),
      typeof checkoutId === 'string' ? expect('payCheckout', checkoutId, { outcome: 'not an outcome' }, (answer) => helperPresent(answer.status)) : undefined,
      confirmation(),
    ])
  ).filter((outcome) => outcome !== undefined);
  const missing = outcomes.filter((outcome) => outcome !== null);
  return {
    found: outcomes.length - missing.length,
    probed: outcomes.length,
    missing: missing.map((outcome) => outcome.missing),
    refused: missing.some((outcome) => outcome.refused),
  };
}

type Missing = { missing: string; refused: boolean } | null;
