import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import type { RegistrationDetails } from '../core/checkout-rows.ts';
import type { RecordedRequest } from '../core/evidence.ts';
import { isSuccess, show, type Problem } from './problem.ts';

/**
 * What a browser found on opening a page: the status it answered (null where no response came), how
 * many ways to pay it offers (fields of a payment form, the frames of hosted card fields), and its
 * text.
 */
export interface PageProbe {
  url: string;
  status: number | null;
  formCount: number;
  text: string;
}

/**
 * PAGE-1: the checkoutUrl of a web, basic or default checkout opens a payment page: one that offers a
 * way to pay, a payment form or, for an ATM (MB) checkout, the 9-digit reference to pay at an ATM. A
 * page that opens (200) with "not found", or only a button back to the shop, is no payment page.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: MW checkouts. Whether the ATM page's reference is the payment's is PAGE-5's.
 */
export function checkPaymentPageOpens(probe: PageProbe, context: { atm?: boolean } = {}): Problem[] {
  if (probe.status === null || !isSuccess(probe.status)) {
    return [
      { clause: 'PAGE-1', message: `GET ${probe.url} in Chromium: expected a page, got ${probe.status === null ? 'no response' : `status ${probe.status}`}` },
    ];
  }
  if (context.atm) {
    if ([...numbersShown(probe.text)].some((number) => /^[0-9]{9}$/.test(number))) return [];
    return [{ clause: 'PAGE-1', message: `${probe.url}: expected an ATM payment page with its 9-digit reference, got ${show(probe.text)}` }];
  }
  if (probe.formCount > 0) return [];
  return [{ clause: 'PAGE-1', message: `${probe.url}: expected a payment form (a field to fill or a frame of card fields), got ${show(probe.text)}` }];
}

/**
 * What the merchant page of the embed check held once the script (src = scriptUrl) had run: how many
 * elements of a payment form ended up inside form.paymentWidgets, and that form's HTML.
 */
export interface WidgetProbe {
  scriptUrl: string;
  formCount: number;
  html: string;
}

/**
 * PAGE-2: the embed script of an embed checkout renders the payment form inside form.paymentWidgets.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: an embed checkout with MW.
 */
export function checkFormInsideWidgets(probe: WidgetProbe): Problem[] {
  if (probe.formCount > 0) return [];
  return [
    {
      clause: 'PAGE-2',
      message: `merchant page with the script ${probe.scriptUrl}: expected the payment form inside form.paymentWidgets, got ${show(probe.html)}`,
    },
  ];
}

/**
 * PAGE-3/PAGE-4: where the customer is sent after paying is the action URL (scheme, host, path
 * and its own query kept) with the checkout id appended as `id`.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: wallet (MW) or declined payments: every payment is a successful card (CC).
 */
export function checkRedirect(redirectUrl: string | null | undefined, context: { actionUrl: string; checkoutId: string; clause: ClauseId }): Problem[] {
  const fail = (expected: string): Problem[] => [{ clause: context.clause, message: `redirect after payment: expected ${expected}, got ${show(redirectUrl)}` }];
  if (!redirectUrl || !URL.canParse(redirectUrl)) return fail(`the action URL ${context.actionUrl} with id=${context.checkoutId}`);
  const [got, action] = [new URL(redirectUrl), new URL(context.actionUrl)];
  const base = (url: URL) => `${url.protocol}//${url.host}${url.pathname}`;
  if (base(got) !== base(action)) return fail(`the action URL ${base(action)}`);
  if (got.searchParams.get('id') !== context.checkoutId) return fail(`query parameter id=${context.checkoutId}`);
  for (const [name, value] of action.searchParams) {
    if (!got.searchParams.getAll(name).includes(value)) return fail(`the action URL's own query parameter ${name}=${value} kept`);
  }
  return [];
}

/**
 * What the ATM payment page showed: its whole text, and the text where the reference and the entity
 * are shown (the whole text again where the profile gives no selector for them).
 */
export interface AtmPageProbe {
  url: string;
  text: string;
  referenceText: string;
  entityText: string;
}

/**
 * The numbers a page shows, each as its digits: a number may be written in groups (123 456 789,
 * 123.456.789), and any run of neighbouring groups may be one number ("21598 123 456 789" holds the
 * entity 21598 and the reference 123456789).
 */
function numbersShown(text: string): Set<string> {
  const numbers = new Set<string>();
  for (const run of text.match(/\d+(?:[\s.\u00a0\u202f-]\d+)*/g) ?? []) {
    const groups = run.split(/[\s.\u00a0\u202f-]/);
    for (let first = 0; first < groups.length; first++) {
      for (let last = first; last < groups.length; last++) numbers.add(groups.slice(first, last + 1).join(''));
    }
  }
  return numbers;
}

/** An entity is a number (21598) as far as the reference shows: shown in groups or whole; one of other characters, as written. */
function entityShown(text: string, entity: string): boolean {
  return /^[\d\s]+$/.test(entity) ? numbersShown(text).has(entity.replace(/\s/g, '')) : text.includes(entity);
}

/**
 * PAGE-5: the ATM payment page shows a 9-digit reference and its entity; where the API shows the
 * payment (GET /payments/{paymentId}), they are its reference and entity. An API reference that is
 * no 9-digit string, or an entity that is no string, is REF-2's and REF-3's to fail, not compared here.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkAtmPageReference(probe: AtmPageProbe, context: { paymentId: string; apiReference?: unknown; apiEntity?: unknown }): Problem[] {
  const apiReference = typeof context.apiReference === 'string' && /^[0-9]{9}$/.test(context.apiReference) ? context.apiReference : undefined;
  const apiEntity = typeof context.apiEntity === 'string' ? context.apiEntity : undefined;
  const references = [...numbersShown(probe.referenceText)].filter((number) => /^[0-9]{9}$/.test(number));
  const problems: Problem[] = [];
  if (references.length === 0)
    problems.push({ clause: 'PAGE-5', message: `${probe.url}: expected a 9-digit reference on the ATM page, got ${show(probe.text)}` });
  else if (apiReference && !references.includes(apiReference)) {
    problems.push({
      clause: 'PAGE-5',
      message: `${probe.url}: expected the reference ${apiReference} of payment ${context.paymentId}, got ${references.join(', ')}`,
    });
  }
  if (!probe.entityText.trim()) problems.push({ clause: 'PAGE-5', message: `${probe.url}: expected the entity on the ATM page, got none` });
  else if (apiEntity && !entityShown(probe.entityText, apiEntity)) {
    problems.push({
      clause: 'PAGE-5',
      message: `${probe.url}: expected the entity ${apiEntity} of payment ${context.paymentId}, got ${show(probe.entityText)}`,
    });
  }
  return problems;
}

/** Whether the hosted page of a checkout shows the option to store the method. */
export interface ConsentProbe {
  url: string;
  consentOffered: boolean;
}

/**
 * PAGE-6: the option to store the method is offered where the checkout has allowRegistration true,
 * and only there, whatever createRegistration says: a flag sent false offers no more than one left
 * out, and createRegistration stores without asking.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkConsentOffer(probe: ConsentProbe, context: { details: RegistrationDetails | undefined }): Problem[] {
  const owed = context.details?.allowRegistration === true;
  if (probe.consentOffered === owed) return [];
  return [
    {
      clause: 'PAGE-6',
      message: `${probe.url}: expected the option to store the method ${owed ? 'offered' : 'not offered'} (paymentMethod.details ${show(context.details ?? null)}), got it ${probe.consentOffered ? 'offered' : 'absent'}`,
    },
  ];
}

/**
 * PAGE-7 on the requests received at the action URL: the redirect is the browser's, so nothing but
 * the browser's GET arrives there, and nothing at all where no browser was sent (the pay helper).
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkNothingPostedToAction(received: readonly RecordedRequest[], context: { browserVisited: boolean }): Problem[] {
  const fromService = context.browserVisited ? received.filter((request) => request.method !== 'GET') : received;
  const expected = context.browserVisited ? "only the browser's GET" : 'no request from the service';
  return fromService.map((request) => ({
    clause: 'PAGE-7',
    message: `action URL: expected ${expected}, got ${request.method} ${request.url} ${show(request.body)}`,
  }));
}

/** CHK-8: how an amount in minor units reads in major units on a page: 500 → "5,00" or "5.00". */
export function majorUnits(amount: number): RegExp {
  const major = Math.floor(amount / 100)
    .toLocaleString('en-US')
    .replace(/,/g, '[ .,\u00a0]?');
  const minor = String(amount % 100).padStart(2, '0');
  return new RegExp(`(^|[^0-9])${major}[.,]${minor}([^0-9]|$)`);
}

/**
 * CHK-8 on the text of the hosted page where the amount is shown: the amount sent, read in major
 * units.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: other amounts (a minor part under 10, under one major unit), other layouts.
 */
export function checkAmountShown(text: string, context: { amount: number; where: string }): Problem[] {
  if (majorUnits(context.amount).test(text)) return [];
  return [
    {
      clause: 'CHK-8',
      message: `${context.where}: expected the amount ${context.amount} (minor units) shown as ${context.amount / 100} in major units, got ${show(text)}`,
    },
  ];
}
