/**
 * The dimensions of the reference that a payment and a reference vary in, every 3-way combination of
 * their levels met on every run (a covering array, src/generators/covering.ts), rather than the
 * combinations a spec happens to name. Each row is a checkout created and paid, or a reference created
 * and paid; the model judges them as it judges any sequence.
 */
import fc from 'fast-check';
import {
  amount,
  checkoutOf,
  coveringArray,
  describeCovering,
  detailsAt,
  flagLevels,
  layouts,
  paymentMethodCodes,
  registrationAllowed,
  withUuidInCapitals,
  type Row,
  type UtcOffset,
} from '../generators/index.ts';
import { registrationAsked } from '../core/checkout-rows.ts';
import { Confirm, CreateCheckout, CreateReference, Pay, type Command } from './commands.ts';

export const paymentDimensions = {
  layout: ['none', ...layouts],
  method: paymentMethodCodes,
  createRegistration: flagLevels,
  allowRegistration: flagLevels,
  outcome: ['success', 'failure'],
  consent: ['given', 'declined', 'absent'],
  customer: ['first', 'second'],
  customerUuid: ['as registered', 'in capitals'],
} as const;

const offsetLevels = ['Z', '+05:45', '-09:30'] as const satisfies readonly UtcOffset[];

export const referenceDimensions = {
  window: ['long', 'short', 'ended', 'future'],
  notifiedAt: ['callbackUrl', 'webhook', 'neither'],
  paid: ['now', 'beforeStart', 'afterEnd', 'never'],
  offset: offsetLevels,
} as const;

const detailsOf = (row: Row<typeof paymentDimensions>) => detailsAt(row.createRegistration, row.allowRegistration);
/** Rule 3 of 2.2: a registration flag true only where the method is stored and the layout allows it. */
const storable = (row: Row<typeof paymentDimensions>) =>
  registrationAsked(detailsOf(row)) === null || registrationAllowed(row.method, row.layout === 'none' ? undefined : row.layout);

export const paymentCombinations = coveringArray(paymentDimensions, 3, storable);
export const referenceCombinations = coveringArray(referenceDimensions, 3);

/** What the report says of the dimensions combined. */
export const combinationsCovered = [
  `payments: ${describeCovering(paymentDimensions, paymentCombinations)}`,
  `references: ${describeCovering(referenceDimensions, referenceCombinations)}`,
];

/** A value drawn from an arbitrary, from the run's seed. */
export type Draw = <T>(arbitrary: fc.Arbitrary<T>) => T;

/** A checkout of the row's combination, created for the row's customer (its UUID written as the row says) and paid through the pay helper. */
export function paymentRow(row: Row<typeof paymentDimensions>, draw: Draw): Command[] {
  const request = draw(checkoutOf({ ...(row.layout !== 'none' && { layout: row.layout }), code: row.method, registration: detailsOf(row) }));
  const written = row.customerUuid === 'in capitals' ? withUuidInCapitals(request) : request;
  return [
    new CreateCheckout('beyondRows', written, 'CC', row.customer === 'first' ? 0 : 1),
    new Pay(0, row.outcome, row.consent === 'absent' ? undefined : row.consent === 'given'),
  ];
}

/** A reference of the row's window and offset, with callbackUrl where the row says, then paid when the row says. */
export function referenceRow(row: Row<typeof referenceDimensions>, draw: Draw): Command[] {
  const created = new CreateReference(row.window, row.notifiedAt === 'callbackUrl', draw(amount()), [row.offset, row.offset]);
  return row.paid === 'never' ? [created] : [created, new Confirm(0, row.paid)];
}
