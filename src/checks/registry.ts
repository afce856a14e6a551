// Each check's doc comment states its input space: what the specs feed it, and what they do not.
/**
 * Where to find the judgement of a clause: every MUST and SHOULD clause of the catalogue, and the
 * checks that can return a problem naming it. The INFO clauses are observed, never judged.
 */
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
  checkOnlyStorableTypes,
  checkStoredMethods,
} from './payment-methods.ts';
import { checkSuccess, type Problem } from './problem.ts';
import { checkConfirmed, checkDistinctReferences, checkNotConfirmed, checkPayment, checkPaymentEchoes, checkReferenceCreated } from './references.ts';
import { checkRefused } from './refusal.ts';

/** A check: an observation (and its context) in, the problems found out. */
export type Check = (...observation: never[]) => Problem[];

/** A check told its clause in its context (checkRefused, checkSuccess, checkRedirect, …) is listed under the clauses the specs tell it. */
export const checksByClause: Readonly<Record<string, readonly Check[]>> = {
  'ENV-1': [checkEnvelope, checkCheckoutCreated, checkPayment, checkStoredMethods, checkPaymentAnswer],
  'ENV-2': [checkEnvelope, checkCheckoutCreated, checkStoredMethods],
  'ENV-4': [checkServedAtPath],

  'CHK-1': [checkCheckoutCreated, checkCheckoutUsable, checkCheckoutAnswer, checkCheckoutCreatedForUse, checkSuccess],
  'CHK-2': [checkCheckoutCreated, checkCheckoutUsable, checkCheckoutAnswer, checkCheckoutCreatedForUse, checkCheckoutUrlOpens],
  'CHK-3': [checkCheckoutCreated, checkCheckoutAnswer],
  'CHK-4': [checkCheckoutCreated, checkCheckoutAnswer],
  'CHK-5': [checkCheckoutCreated, checkCheckoutAnswer],
  'CHK-6': [checkVariantAccepted, checkCheckoutAnswer, checkCheckoutCreatedForUse],
  'CHK-7': [checkDistinctCheckouts],
  'CHK-8': [checkChargedAmount, checkAmountShown],
  'CHK-9': [checkRefused, checkCheckoutAnswer],
  'CHK-10': [checkRefused, checkCheckoutAnswer],
  'CHK-11': [checkRefused, checkCheckoutAnswer],
  'CHK-12': [checkRefusedAndStillServing, checkCheckoutAnswer],

  'PAGE-1': [checkPaymentPageOpens],
  'PAGE-2': [checkFormInsideWidgets],
  'PAGE-3': [checkRedirect],
  'PAGE-4': [checkRedirect],
  'PAGE-5': [checkAtmPageReference],
  'PAGE-6': [checkConsentOffer],
  'PAGE-7': [checkNothingPostedToAction],

  'TOK-1': [checkMethodStored],
  'TOK-2': [checkMethodStored, checkNothingStored],
  'TOK-3': [checkNothingStored],
  'TOK-4': [checkNothingStored],
  'TOK-5': [checkOnlyStorableTypes],
  'TOK-6': [checkNothingStored, checkOnlyOwnMethods],

  'PML-1': [checkStoredMethods, checkMethodCount, checkSuccess, checkListAnswered],
  'PML-2': [checkStoredMethods],
  'PML-3': [checkStoredMethods, checkMethodTypeListed],
  'PML-4': [checkStoredMethods, checkMethodTypeListed],
  'PML-5': [checkMethodStored],
  'PML-6': [checkStoredMethods],

  'REF-1': [checkReferenceCreated, checkReferenceAnswer],
  'REF-2': [checkPayment, checkPaymentAnswer],
  'REF-3': [checkPayment, checkSuccess, checkPaymentAnswer],
  'REF-4': [checkPayment, checkPaymentAnswer],
  'REF-5': [checkPaymentEchoes, checkPayment, checkPaymentAnswer],
  'REF-6': [checkConfirmed, checkPaymentAnswer],
  'REF-7': [checkNotConfirmed],
  'REF-8': [checkDistinctReferences],
  'REF-9': [checkRefused, checkReferenceAnswer],

  'EVT-1': [checkNotified],
  'EVT-2': [checkNotified],
  'EVT-3': [checkNotificationIdentifies, checkNotified],
  'EVT-4': [checkNotNotified],
};
