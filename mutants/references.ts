/** Mutants of the REF clauses: payment references and the payments they create (2.5, 2.6, 4.3, 4.4). */
import {
  answerWhen,
  editData,
  editRequest,
  withoutOffset,
  timestampParts,
  paymentOfDelivery,
  type Json,
  payments,
  first,
  memoSet,
  int32Limit,
  asInt32,
  succeeded,
} from './edits.ts';
import type { Mutant } from './kinds.ts';
import type { Transform } from './proxy.ts';

const referenceOf = (data: Json): Json => data?.referenceDetails ?? {};

/** How long a confirmation kept only in a cache lasts. */
const confirmationCachedMs = 1000;

/** A confirmation is kept in a cache only: the payment reads confirmed for a few seconds after it, then pending again. */
const confirmationForgottenLater: Transform = {
  response(response, request, proxy) {
    if (request.route === 'confirmPayment' && request.param && succeeded(response)) proxy.memo.set(`confirmed at ${request.param}`, Date.now());
    editData(['getPayment'], (data) => {
      const at = proxy.memo.get(`confirmed at ${data?.id}`);
      if (typeof at === 'number' && Date.now() - at > confirmationCachedMs && data?.stateDetails) data.stateDetails.state = 'pending';
    }).response!(response, request, proxy);
  },
};

export const referenceMutants: Mutant[] = [
  {
    name: 'confirmation-forgotten-later',
    clause: 'REF-6',
    description: 'A confirmation is kept in a cache only: the payment reads confirmed for a second after it, then pending again.',
    transform: confirmationForgottenLater,
  },
  {
    name: 'reference-chunked-body-refused',
    clause: 'REF-1',
    description: 'A reference request sent in chunks (Transfer-Encoding: chunked, no Content-Length) is refused with 411.',
    transform: answerWhen((request) => request.route === 'createReference' && request.headers['transfer-encoding'] !== undefined, 411),
  },
  {
    name: 'reference-line-breaks-refused',
    clause: 'REF-1',
    description: 'A reference request whose JSON has CRLF line breaks between its members is refused with 400.',
    transform: answerWhen((request) => request.route === 'createReference' && request.text.includes('\r\n'), 400),
  },
  {
    name: 'validDate-to-utc-keeping-the-date-written',
    clause: 'REF-5',
    description:
      'validDate is moved to UTC by its time of day alone: the date stays the one written (2026-11-28T17:30:00-09:30 becomes 2026-11-28T03:00:00.000Z, a day early).',
    transform: editData(payments, (data) => {
      for (const edge of ['start', 'end']) {
        const written = data?.validDate?.[edge];
        if (typeof written === 'string' && !Number.isNaN(Date.parse(written)))
          data.validDate[edge] = `${written.slice(0, 10)}${new Date(Date.parse(written)).toISOString().slice(10)}`;
      }
    }),
  },
  {
    name: 'validDate-kept-to-the-second',
    clause: 'REF-5',
    description: 'validDate is echoed without its fraction of a second.',
    transform: editData(payments, (data) => {
      for (const edge of ['start', 'end']) {
        const parts = typeof data?.validDate?.[edge] === 'string' ? timestampParts(data.validDate[edge]) : null;
        if (parts) data.validDate[edge] = `${parts.clock}${parts.offset}`;
      }
    }),
  },
  {
    name: 'notified-before-confirmed',
    clause: 'REF-6',
    description: 'The notification of a confirmed payment goes out before its state is written: read within a second of it, the payment is still PaymentReady.',
    transform: {
      notification(delivery, proxy) {
        const id = paymentOfDelivery(delivery.json);
        if (id) proxy.memo.set(`notified ${id}`, Date.now());
        return [delivery];
      },
      response: editData(['getPayment'], (data, proxy) => {
        const notifiedAt = proxy.memo.get(`notified ${data?.id}`);
        if (typeof notifiedAt === 'number' && Date.now() - notifiedAt < 1000 && data?.stateDetails) data.stateDetails.state = 'PaymentReady';
      }).response,
    },
  },
  {
    name: 'payment-read-closing-connection-refused',
    clause: 'REF-3',
    description: 'A payment asked for with Connection: close is answered 400.',
    transform: answerWhen((request) => request.route === 'getPayment' && request.headers.connection === 'close', 400),
  },
  {
    name: 'reference-without-callback-refused',
    clause: 'REF-1',
    description: 'A reference request without `callbackUrl` is refused with 400.',
    transform: answerWhen((request) => request.route === 'createReference' && (request.json as Json)?.callbackUrl === undefined, 400),
  },
  {
    name: 'reference-as-number',
    clause: 'REF-2',
    description: 'The reference is a JSON number.',
    transform: editData(
      payments,
      (data) => typeof referenceOf(data).reference === 'string' && (data.referenceDetails.reference = Number(data.referenceDetails.reference)),
    ),
  },
  {
    name: 'reference-leading-zeros-dropped',
    clause: 'REF-2',
    description: 'A reference starting with zeros loses them.',
    transform: editData(
      payments,
      (data) => typeof referenceOf(data).reference === 'string' && (data.referenceDetails.reference = data.referenceDetails.reference.replace(/^0+/, '')),
    ),
  },
  {
    name: 'reference-ten-digits',
    clause: 'REF-2',
    description: 'The reference has 10 digits.',
    transform: editData(payments, (data) => typeof referenceOf(data).reference === 'string' && (data.referenceDetails.reference += '0')),
  },
  {
    name: 'payment-method-without-name',
    clause: 'REF-3',
    description: '`availableMethods[]` of the payment lack `name`.',
    transform: editData(['getPayment'], (data) => Array.isArray(data.availableMethods) && data.availableMethods.forEach((method: Json) => delete method.name)),
  },
  {
    name: 'payment-timestamps-without-offset',
    clause: 'REF-4',
    description: '`createdAt` and `updatedAt` of the payment carry no offset.',
    transform: editData(['getPayment'], (data) => {
      for (const field of ['createdAt', 'updatedAt']) if (typeof data[field] === 'string') data[field] = withoutOffset(data[field]);
    }),
  },
  {
    name: 'payment-amount-in-major-units',
    clause: 'REF-5',
    description: 'The payment shows its amount in major units (500 → 5).',
    transform: editData(payments, (data) => typeof data.amount === 'number' && (data.amount /= 100)),
  },
  {
    name: 'confirmed-state-renamed',
    clause: 'REF-6',
    description: 'A confirmed payment is in state `paid` instead of `confirmed`.',
    transform: editData(payments, (data) => data.stateDetails?.state === 'confirmed' && (data.stateDetails.state = 'paid')),
  },
  {
    name: 'confirmation-outside-window-accepted',
    clause: 'REF-7',
    disturbs: ['EVT-4'],
    description: 'A payment outside the validity window confirms the reference (paidAt moved inside).',
    transform: editRequest('confirmPayment', (body, proxy, request) => {
      const validDate = request.param ? proxy.payments.get(request.param)?.request?.validDate : undefined;
      const [start, end] = [Date.parse(validDate?.start), Date.parse(validDate?.end)];
      const paidAt = typeof body.paidAt === 'string' ? Date.parse(body.paidAt) : Date.now();
      if (!Number.isNaN(start) && !Number.isNaN(end) && (paidAt < start || paidAt > end)) body.paidAt = new Date((start + end) / 2).toISOString();
    }),
  },
  {
    name: 'reference-repeated',
    clause: 'REF-8',
    description: 'Every reference gets the reference number of the first one.',
    transform: editData(
      payments,
      (data, proxy) =>
        typeof referenceOf(data).reference === 'string' && (data.referenceDetails.reference = first(proxy, 'reference', data.referenceDetails.reference)),
    ),
  },
  {
    name: 'reference-end-before-start-accepted',
    clause: 'REF-9',
    description: 'A reference whose `validDate.end` is before its start is created (the dates swapped).',
    transform: editRequest('createReference', (body) => {
      const validDate = body.validDate;
      if (validDate && Date.parse(validDate.end) < Date.parse(validDate.start)) [validDate.start, validDate.end] = [validDate.end, validDate.start];
    }),
  },
  {
    name: 'reference-refusals-crash',
    clause: 'REF-9',
    description: 'A refused reference request answers 500 instead of 4xx.',
    transform: {
      response(response, request) {
        if (request.route === 'createReference' && response.status >= 400 && response.status < 500) response.status = 500;
      },
    },
  },
  {
    name: 'confirmed-reference-as-number',
    clause: 'REF-2',
    description: 'Once confirmed, the payment carries its reference as a number, leading zeros lost.',
    transform: editData(
      ['getPayment'],
      (data) =>
        data.stateDetails?.state === 'confirmed' &&
        typeof referenceOf(data).reference === 'string' &&
        (data.referenceDetails.reference = Number(data.referenceDetails.reference)),
    ),
  },
  {
    name: 'confirmed-timestamps-without-offset',
    clause: 'REF-4',
    description: 'Once confirmed, `updatedAt` and `stateDetails.createdAt` carry no offset.',
    transform: editData(['getPayment'], (data) => {
      if (data.stateDetails?.state !== 'confirmed') return;
      if (typeof data.updatedAt === 'string') data.updatedAt = withoutOffset(data.updatedAt);
      if (typeof data.stateDetails.createdAt === 'string') data.stateDetails.createdAt = withoutOffset(data.stateDetails.createdAt);
    }),
  },
  {
    name: 'window-checked-to-the-minute',
    clause: 'REF-7',
    // REF-7's closed window is paid a second after it closed: the mutant confirms it, and notifies (EVT-4).
    disturbs: ['EVT-4'],
    description: 'The validity window is checked to the minute: a payment less than a minute outside it confirms the reference.',
    transform: editRequest('confirmPayment', (body, proxy, request) => {
      const validDate = request.param ? proxy.payments.get(request.param)?.request?.validDate : undefined;
      const [start, end] = [Date.parse(validDate?.start), Date.parse(validDate?.end)];
      const paidAt = typeof body.paidAt === 'string' ? Date.parse(body.paidAt) : Date.now();
      if (paidAt < start && start - paidAt < 60_000) body.paidAt = new Date(start).toISOString();
      if (paidAt > end && paidAt - end < 60_000) body.paidAt = new Date(end).toISOString();
    }),
  },
  {
    name: 'references-recycled-after-100',
    clause: 'REF-8',
    description: 'References come from a pool of 100: the 101st reference valid at once repeats the first.',
    transform: editData(payments, (data, proxy) => {
      if (typeof referenceOf(data).reference !== 'string') return;
      const order = [...proxy.payments.keys()].indexOf(data.id);
      if (order < 0) return;
      if (order < 100) proxy.memo.set(`reference:${order}`, data.referenceDetails.reference);
      else data.referenceDetails.reference = proxy.memo.get(`reference:${order % 100}`) ?? data.referenceDetails.reference;
    }),
  },
  {
    name: 'reference-zeros-dropped-once-confirmed',
    clause: 'REF-2',
    description: 'A reference keeps its leading zeros until it is paid; the confirmed payment shows it without them.',
    transform: editData(payments, (data) => {
      const reference = data?.referenceDetails?.reference;
      if (data.stateDetails?.state === 'confirmed' && typeof reference === 'string') data.referenceDetails.reference = reference.replace(/^0+/, '');
    }),
  },
  {
    name: 'reference-amount-int32',
    clause: 'REF-5',
    description: 'A reference stores its amount in a 32-bit integer: from 2^31 on, the payment shows another amount.',
    transform: editData(payments, (data, proxy) => {
      if (proxy.payments.has(data?.id) && Number.isInteger(data.amount) && data.amount >= int32Limit) data.amount = asInt32(data.amount);
    }),
  },
  {
    name: 'validDate-compared-as-written',
    clause: 'REF-9',
    description: 'validDate.end is compared with validDate.start as strings: an end before the start, written at a later offset, is taken.',
    transform: editRequest('createReference', (body) => {
      const { start, end } = body.validDate ?? {};
      if (typeof start === 'string' && typeof end === 'string' && end > start && Date.parse(end) < Date.parse(start))
        body.validDate.end = new Date(Date.parse(start) + 86_400_000).toISOString();
    }),
  },
  {
    name: 'half-hour-offsets-dropped',
    clause: 'REF-4',
    // The instant is lost with the offset: the echo of validDate (REF-5) breaks too.
    disturbs: ['REF-5'],
    description:
      'A validity instant the request wrote at an offset of a half or three quarters of an hour (+05:30, +05:45, -09:30) is answered without its offset; whole-hour offsets are kept.',
    transform: editData(payments, (data) => {
      for (const edge of ['start', 'end']) {
        const instant = data.validDate?.[edge];
        if (typeof instant === 'string' && /[+-]\d\d:(30|45)$/.test(instant)) data.validDate[edge] = withoutOffset(instant);
      }
    }),
  },
  {
    name: 'confirmed-callback-payment-without-entity',
    clause: 'REF-3',
    description: 'Once confirmed, the payment of a reference created with `callbackUrl` has no `referenceDetails.entity`; one created without keeps it.',
    transform: editData(payments, (data, proxy, request) => {
      const withCallback = memoSet<string>(proxy, 'with-callback');
      if (request.route === 'createReference' && (request.json as Json)?.callbackUrl !== undefined) withCallback.add(data.id);
      if (request.route === 'getPayment' && data.stateDetails?.state === 'confirmed' && withCallback.has(data.id)) delete data.referenceDetails?.entity;
    }),
  },
];
