/**
 * Benign variants of two freedoms the clauses state: an instant is the same when it agrees to the
 * millisecond, in any offset (REF-5), and a reference may be handed out again once every window
 * that had it has ended (REF-8), its notifications then naming the payment by its id (EVT-3).
 */
import { answerWhen, isIsoWithOffset, mapStrings, payments, succeeded, timestampParts, type Json } from './edits.ts';
import type { ProxyContext, Transform } from './proxy.ts';
import type { BenignVariant } from './kinds.ts';

const nanosecondsPerMillisecond = 1_000_000;

/** The timestamp's instant to the millisecond, its digits past it cut or rounded (half up); null where it is written otherwise. */
function toMillisecond(timestamp: string, rounding: 'cut' | 'rounded'): number | null {
  const parts = timestampParts(timestamp);
  const second = parts && Date.parse(`${parts.clock}${parts.offset}`);
  if (!parts || second === null || Number.isNaN(second)) return null;
  const nanoseconds = Number(parts.fraction.slice(0, 9).padEnd(9, '0'));
  const carried = rounding === 'rounded' ? nanoseconds + nanosecondsPerMillisecond / 2 : nanoseconds;
  return second + Math.floor(carried / nanosecondsPerMillisecond);
}

/** The instant written as local time at a fixed offset of `offset` (such as -03:30), to the millisecond. */
function writtenAt(instant: number, offset: string): string {
  const [hours, minutes] = offset.slice(1).split(':').map(Number);
  const offsetMs = (offset.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  return `${new Date(instant + offsetMs).toISOString().slice(0, 23)}${offset}`;
}

/** Every instant of the payments' answers and notifications kept to the millisecond and written at the target's own offset. */
function instantsToTheMillisecond(rounding: 'cut' | 'rounded', offset: string): Transform {
  const rewrite = (value: Json) =>
    mapStrings(value, (text) => {
      const instant = isIsoWithOffset(text) ? toMillisecond(text, rounding) : null;
      return instant === null ? text : writtenAt(instant, offset);
    });
  return {
    response(response, request) {
      if (payments.includes(request.route) && response.json !== undefined) rewrite(response.json);
    },
    notification: (delivery) => [{ ...delivery, json: rewrite(delivery.json) }],
  };
}

/** Whether a reference request writes an instant of its window past the millisecond. */
const pastTheMillisecond = (body: Json) =>
  ['start', 'end'].some((edge) => {
    const written = body?.validDate?.[edge];
    return typeof written === 'string' && (timestampParts(written)?.fraction.length ?? 0) > 3;
  });

/**
 * A new reference gets the digits of an earlier one once every window that had them has ended,
 * before now and before the new window opens (so that no two windows that show them overlap), and
 * shows them in every answer and notification about its payment.
 */
function referencesReusedAfterTheirWindows(): Transform {
  /** The digits the sandbox drew for each payment, and those its answers show instead; each reference shown, with the ends of the windows that had it. */
  const stateOf = (proxy: ProxyContext) => {
    if (!proxy.memo.has('references reused'))
      proxy.memo.set('references reused', { shownFor: new Map<string, string>(), windowEnds: new Map<string, number[]>() });
    return proxy.memo.get('references reused') as { shownFor: Map<string, string>; windowEnds: Map<string, number[]> };
  };
  const showing = (proxy: ProxyContext) => (text: string) => stateOf(proxy).shownFor.get(text) ?? text;
  const handOut = (proxy: ProxyContext, drawn: string, validDate: Json) => {
    const { shownFor, windowEnds } = stateOf(proxy);
    const [start, end] = [Date.parse(validDate?.start), Date.parse(validDate?.end)];
    const freeBefore = Math.min(Date.now(), start);
    const free = [...windowEnds].find(([, ends]) => ends.every((ended) => ended < freeBefore))?.[0];
    const reference = free ?? drawn;
    shownFor.set(drawn, reference);
    windowEnds.set(reference, [...(windowEnds.get(reference) ?? []), end]);
  };
  return {
    response(response, request, proxy) {
      if (!payments.includes(request.route) || response.json === undefined) return;
      const drawn = (response.json as Json)?.data?.referenceDetails?.reference;
      if (request.route === 'createReference' && succeeded(response) && typeof drawn === 'string' && !stateOf(proxy).shownFor.has(drawn))
        handOut(proxy, drawn, (request.json as Json)?.validDate);
      mapStrings(response.json, showing(proxy));
    },
    notification: (delivery, proxy) => [{ ...delivery, json: mapStrings(delivery.json, showing(proxy)) }],
  };
}

export const instantsAndAttributionVariants: BenignVariant[] = [
  {
    name: 'instants-cut-to-the-millisecond-at-plus-two',
    description:
      'Instants are kept to the millisecond, the digits past it cut, and written at +02:00 (…10:00:00.123456789+05:30 is answered …06:30:00.123+02:00), in answers about payments and in notifications.',
    transform: instantsToTheMillisecond('cut', '+02:00'),
  },
  {
    name: 'instants-rounded-to-the-millisecond-at-minus-three-thirty',
    description:
      'Instants are kept to the millisecond, rounded half up (…59.9995 becomes the next second), and written at -03:30, in answers about payments and in notifications.',
    transform: instantsToTheMillisecond('rounded', '-03:30'),
  },
  {
    name: 'validDate-past-the-millisecond-refused',
    freedom: 'SEC-2',
    description: 'A reference whose validDate writes digits past the millisecond is refused with 422: the target keeps instants to the millisecond.',
    transform: answerWhen((request) => request.route === 'createReference' && pastTheMillisecond(request.json), 422),
  },
  {
    name: 'references-reused-after-their-windows',
    description:
      'A new reference gets the digits of an earlier one whose windows have all ended before now and before its own opens, in every answer and notification about it; notifications name the payment by its id.',
    transform: referencesReusedAfterTheirWindows(),
  },
];
