// Each check's doc comment points to its inputs (src/generators/classes.ts) and says what the specs do not feed it.
/**
 * The one registry of the judgement: every check, the clauses it can fail and what it is fed. The
 * INFO clauses have no check: they are observed, never judged.
 */
import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import { checkPaymentAnswer, checkReferenceAnswer } from './answers.ts';
import { checkCheckoutAnswer, checkCheckoutCreatedForUse } from './checkout-kinds.ts';
import {
  checkCheckoutCreated,
  checkCheckoutUrlOpens,
  checkCheckoutUsable,
  checkChargedAmount,
  checkDistinctCheckouts,
  checkRefusedAndStillServing,
  checkVariantAccepted,
} from './checkouts.ts';
import { checkEnvelope, checkServedAtPath } from './envelope.ts';
import { checkNotificationIdentifies, checkNotified, checkNotNotified } from './notifications.ts';
import {
  checkAmountShown,
  checkAtmPageReference,
  checkConsentOffer,
  checkFormInsideWidgets,
  checkNothingPostedToAction,
  checkPaymentPageOpens,
  checkRedirect,
} from './pages.ts';
import {
  checkListAnswered,
  checkMethodCount,
  checkMethodStored,
  checkMethodTypeListed,
  checkNothingStored,
  checkOnlyOwnMethods,
  checkNoneOfOthers,
  checkOnlyStorableTypes,
  checkStoredMethods,
} from './payment-methods.ts';
import { checkSuccess, type Check } from './problem.ts';
import { checkConfirmed, checkDistinctReferences, checkNotConfirmed, checkPayment, checkPaymentEchoes, checkReferenceCreated } from './references.ts';
import { checkRefused } from './refusal.ts';

/** What a check is fed. */
export type Observation =
  /** One exchange with the API, made for a purpose its context states (or any answer, for the answer checks). */
  | 'exchange'
  /** Two exchanges judged together: a pair of creations, a refusal and the request after it. */
  | 'two exchanges'
  /** The payments a run read (REF-8). */
  | 'payments'
  /** A checkoutUrl fetched. */
  | 'opened url'
  /** What the browser found on a page: its form, its text, its consent box, its ATM details. */
  | 'page probe'
  /** Where a page sent the browser back to. */
  | 'redirect'
  /** One notification the receiver got. */
  | 'notification'
  /** Every request the receiver got in a window. */
  | 'received requests';

export interface RegistryEntry {
  check: Check;
  /** The clauses its problems can name. A check told its clause in its context (checkRefused, checkSuccess, checkRedirect, …) lists those the specs tell it. */
  clauses: readonly ClauseId[];
  appliesTo: Observation;
}

/**
 * Every check, the clauses it judges and what it is fed. The run, the model and observe take every
 * verdict from these; the verdict on one answer by itself comes through judgeAnswer (answers.ts).
 */
export const registry: readonly RegistryEntry[] = [
  { check: checkEnvelope, clauses: ['ENV-1', 'ENV-2'], appliesTo: 'exchange' },
  { check: checkServedAtPath, clauses: ['ENV-4'], appliesTo: 'exchange' },
  { check: checkSuccess, clauses: ['CHK-1', 'PML-1', 'REF-3'], appliesTo: 'exchange' },
  { check: checkRefused, clauses: ['CHK-9', 'CHK-10', 'CHK-11', 'REF-9'], appliesTo: 'exchange' },

  {
    check: checkCheckoutAnswer,
    clauses: ['CHK-1', 'CHK-2', 'CHK-3', 'CHK-4', 'CHK-5', 'CHK-6', 'CHK-9', 'CHK-10', 'CHK-11', 'CHK-12'],
    appliesTo: 'exchange',
  },
  { check: checkCheckoutCreated, clauses: ['ENV-1', 'ENV-2', 'CHK-1', 'CHK-2', 'CHK-3', 'CHK-4', 'CHK-5'], appliesTo: 'exchange' },
  { check: checkCheckoutCreatedForUse, clauses: ['CHK-1', 'CHK-2', 'CHK-6'], appliesTo: 'exchange' },
  { check: checkCheckoutUsable, clauses: ['CHK-1', 'CHK-2'], appliesTo: 'exchange' },
  { check: checkVariantAccepted, clauses: ['CHK-6'], appliesTo: 'exchange' },
  { check: checkCheckoutUrlOpens, clauses: ['CHK-2'], appliesTo: 'opened url' },
  { check: checkDistinctCheckouts, clauses: ['CHK-7'], appliesTo: 'two exchanges' },
  { check: checkChargedAmount, clauses: ['CHK-8'], appliesTo: 'exchange' },
  { check: checkAmountShown, clauses: ['CHK-8'], appliesTo: 'page probe' },
  { check: checkRefusedAndStillServing, clauses: ['CHK-12'], appliesTo: 'two exchanges' },

  { check: checkPaymentPageOpens, clauses: ['PAGE-1'], appliesTo: 'page probe' },
  { check: checkFormInsideWidgets, clauses: ['PAGE-2'], appliesTo: 'page probe' },
  { check: checkRedirect, clauses: ['PAGE-3', 'PAGE-4'], appliesTo: 'redirect' },
  { check: checkAtmPageReference, clauses: ['PAGE-5'], appliesTo: 'page probe' },
  { check: checkConsentOffer, clauses: ['PAGE-6'], appliesTo: 'page probe' },
  { check: checkNothingPostedToAction, clauses: ['PAGE-7'], appliesTo: 'received requests' },

  { check: checkMethodStored, clauses: ['TOK-1', 'TOK-2', 'PML-5'], appliesTo: 'exchange' },
  { check: checkNothingStored, clauses: ['TOK-2', 'TOK-3', 'TOK-4', 'TOK-6'], appliesTo: 'exchange' },
  { check: checkOnlyStorableTypes, clauses: ['TOK-5'], appliesTo: 'exchange' },
  { check: checkOnlyOwnMethods, clauses: ['TOK-6'], appliesTo: 'exchange' },
  { check: checkNoneOfOthers, clauses: ['TOK-6'], appliesTo: 'exchange' },

  { check: checkStoredMethods, clauses: ['ENV-1', 'ENV-2', 'PML-1', 'PML-2', 'PML-3', 'PML-4', 'PML-6'], appliesTo: 'exchange' },
  { check: checkListAnswered, clauses: ['PML-1'], appliesTo: 'exchange' },
  { check: checkMethodCount, clauses: ['PML-1'], appliesTo: 'exchange' },
  { check: checkMethodTypeListed, clauses: ['PML-3', 'PML-4'], appliesTo: 'exchange' },

  { check: checkReferenceAnswer, clauses: ['REF-1', 'REF-9'], appliesTo: 'exchange' },
  { check: checkReferenceCreated, clauses: ['REF-1'], appliesTo: 'exchange' },
  { check: checkPaymentAnswer, clauses: ['ENV-1', 'REF-2', 'REF-3', 'REF-4', 'REF-5', 'REF-6'], appliesTo: 'exchange' },
  { check: checkPayment, clauses: ['ENV-1', 'REF-2', 'REF-3', 'REF-4', 'REF-5'], appliesTo: 'exchange' },
  { check: checkPaymentEchoes, clauses: ['REF-5'], appliesTo: 'exchange' },
  { check: checkConfirmed, clauses: ['REF-6'], appliesTo: 'exchange' },
  { check: checkNotConfirmed, clauses: ['REF-7'], appliesTo: 'exchange' },
  { check: checkDistinctReferences, clauses: ['REF-8'], appliesTo: 'payments' },

  { check: checkNotified, clauses: ['EVT-1', 'EVT-2', 'EVT-3'], appliesTo: 'received requests' },
  { check: checkNotificationIdentifies, clauses: ['EVT-3'], appliesTo: 'notification' },
  { check: checkNotNotified, clauses: ['EVT-4'], appliesTo: 'received requests' },
];

/** The checks that can fail each clause (the INFO clauses have none: they are observed, never judged). */
export const checksByClause: Readonly<Record<string, readonly Check[]>> = Object.fromEntries(
  [...new Set(registry.flatMap((entry) => entry.clauses))].map((clause) => [
    clause,
    registry.filter((entry) => entry.clauses.includes(clause)).map((entry) => entry.check),
  ]),
);

/** The clauses these checks can fail, from their registry entries: what a test that judges by them is tagged with. */
export function clausesJudgedBy(checks: readonly Check[]): ClauseId[] {
  const entries = checks.map((check) => {
    const entry = registry.find((registered) => registered.check === check);
    if (!entry) throw new Error(`${check.name} is not in the registry of checks (src/checks/registry.ts)`);
    return entry;
  });
  return [...new Set(entries.flatMap((entry) => entry.clauses))];
}
