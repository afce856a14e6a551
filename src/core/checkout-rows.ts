/**
 * The rows of 4.1, a fact of the reference: what each variant of POST /checkouts sends, leaf by
 * leaf, and the everyday amounts a row is sent with. What a request is, and what its answer owes,
 * is judged from them in src/checks/checkout-kinds.ts.
 */
/**
 * The amounts every row must be accepted with, 1.00 to 9,999.99 in minor units: the reference shows
 * no bounds (section 8), so past them a target may refuse (SEC-2); Multibanco's limit is 99,999.99.
 */
export const everydayAmounts = { min: 100, max: 999_999 } as const;

/** A leaf of a row's request: any value, or the one its row lists; `optional` where the row may leave it out. */
export interface Leaf {
  value?: string | boolean;
  optional?: true;
}
const any: Leaf = {};
const is = (value: string | boolean, optional?: true): Leaf => ({ value, ...(optional && { optional }) });

const product = { 'payment.code': any, 'payment.summary': any };
const billingAddress = {
  'payment.billingAddress.country': any,
  'payment.billingAddress.city': any,
  'payment.billingAddress.street1': any,
  'payment.billingAddress.postCode': any,
};
const customerData = {
  'payment.customer.customerId': any,
  'payment.customer.firstName': any,
  'payment.customer.lastName': any,
  'payment.customer.phoneNumber': any,
  'payment.customer.email': any,
};
const embedded = (layout: string) => ({
  'payment.amount': any,
  ...product,
  ...customerData,
  ...billingAddress,
  'payment.paymentMethod.code': is('CC'),
  'page.language': is('PT'),
  'page.layout': is(layout),
  'redirects.0.type': is('action'),
  'redirects.0.url': any,
});

/**
 * The rows of 4.1 as the leaves of a request (arrays by index), read conservatively: what the row
 * lists with the values the reference shows, and for the embed rows the amount, product and
 * language a checkout carries. A request with any other leaf, or another value, is beyond the rows.
 */
export const checkoutRows = {
  storeMethod: {
    title: 'store a payment method (no page.layout)',
    storing: true,
    leaves: {
      'payment.amount': any,
      'payment.recurring.amountQualifier': is('ESTM'),
      'payment.customer.uuid': any,
      'payment.paymentMethod.code': is('CC'),
      'payment.paymentMethod.details.createRegistration': is(true),
      'page.language': is('PT'),
    },
  },
  storeWithConsent: {
    title: 'store with customer consent',
    storing: true,
    leaves: {
      'payment.amount': any,
      ...product,
      'payment.customer.uuid': any,
      ...billingAddress,
      'payment.paymentMethod.code': is('CC'),
      'payment.paymentMethod.details.allowRegistration': is(true),
      'page.layout': is('basic'),
      'page.language': is('PT', true),
    },
  },
  embedWeb: { title: 'embed in web page', storing: false, leaves: embedded('embed') },
  embedMobile: { title: 'embed in mobile application', storing: false, leaves: embedded('default') },
  atmPage: {
    title: 'ATM payment page',
    storing: false,
    leaves: { 'payment.amount': any, ...product, 'payment.paymentMethod.code': is('MB'), 'page.language': is('PT'), 'page.layout': is('web') },
  },
} satisfies Record<string, { title: string; storing: boolean; leaves: Record<string, Leaf> }>;
export type CheckoutRow = keyof typeof checkoutRows;

/** The registration flags of a checkout's paymentMethod.details, each left out, false or true. */
export interface RegistrationDetails {
  createRegistration?: boolean;
  allowRegistration?: boolean;
}
export type Registration = keyof RegistrationDetails;

/**
 * What the registration flags ask of a successful payment (section 3): createRegistration true
 * stores the method, whatever allowRegistration says; else allowRegistration true stores it where
 * the customer consents; else nothing. A flag sent false asks no more than one left out.
 */
export function registrationAsked(details: RegistrationDetails | undefined): Registration | null {
  if (details?.createRegistration === true) return 'createRegistration';
  return details?.allowRegistration === true ? 'allowRegistration' : null;
}
