/** Valid reference requests (reference 2.5). */
import fc from 'fast-check';
import type { ReferenceRequest } from '../../schemas/generated/types.ts';
import { amount, formatWithOffset, httpsUrl, instant, utcOffset } from './values.ts';

const minute = 60_000;
const day = 24 * 60 * minute;

export interface ValidReferenceOptions {
  /** Whether callbackUrl is sent (default either). Callers that receive the notification replace its value. */
  callback?: 'with' | 'without' | 'either';
  /** The validity window contains this instant, by at least a minute before and an hour after. */
  around?: Date;
}

/** Instants of a validity window [start, end], end after start. */
function window(around: Date | undefined): fc.Arbitrary<{ start: Date; end: Date }> {
  if (around) {
    return fc
      .record({ before: fc.integer({ min: minute, max: 30 * day }), after: fc.integer({ min: 60 * minute, max: 60 * day }) })
      .map(({ before, after }) => ({ start: new Date(around.getTime() - before), end: new Date(around.getTime() + after) }));
  }
  // A valid reference's window has an end still to come (REF-1): a target may refuse one already over.
  return fc
    .record({ start: instant(), length: fc.integer({ min: minute, max: 90 * day }) })
    .map(({ start, length }) => ({ start, end: new Date(start.getTime() + length) }))
    .filter(({ end }) => end.getTime() > Date.now() + 60 * minute);
}

/** A valid reference request: type payment, MB, a validity window written in several UTC offsets. */
export function validReference(options: ValidReferenceOptions = {}): fc.Arbitrary<ReferenceRequest> {
  const callback = options.callback ?? 'either';
  const callbackUrl = callback === 'with' ? httpsUrl() : callback === 'without' ? fc.constant(undefined) : fc.option(httpsUrl(), { nil: undefined });
  return fc
    .record({ amount: amount(), callbackUrl, window: window(options.around), startOffset: utcOffset(), endOffset: utcOffset() })
    .map(({ amount, callbackUrl, window, startOffset, endOffset }) => ({
      type: 'payment',
      amount,
      ...(callbackUrl !== undefined && { callbackUrl }),
      availableMethods: [{ code: 'MB' }],
      validDate: { start: formatWithOffset(window.start, startOffset), end: formatWithOffset(window.end, endOffset) },
    }));
}
