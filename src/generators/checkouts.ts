/** Valid checkout requests (reference 2.2, 4.1): the five variants and the edge cases. */
import fc from 'fast-check';
import type { CheckoutRequest } from '../../schemas/generated/types.ts';
import { checkoutRows, registrationAsked, type CheckoutRow, type RegistrationDetails } from '../core/checkout-rows.ts';
import { actionUrl, amount, countryCode, deepLink, email, extremeAmount, firstName, httpsUrl, lastName, matching, phoneNumber } from './values.ts';

export const layouts = ['web', 'basic', 'default', 'embed'] as const;
export const paymentMethodCodes = ['CC', 'MB', 'MW'] as const;
export type Layout = (typeof layouts)[number];
export type PaymentMethodCode = (typeof paymentMethodCodes)[number];

/** Rule 3 of 2.2: only CC and MW are stored, and only with layout basic or default (or none, as in 4.1). */
export function registrationAllowed(code: string | undefined, layout: string | undefined): boolean {
  return (code === 'CC' || code === 'MW') && (layout === undefined || layout === 'basic' || layout === 'default');
}

/** A registration flag's levels as a covering array's dimension names them. */
export const flagLevels = ['absent', 'false', 'true'] as const;
export type FlagLevel = (typeof flagLevels)[number];
/** The registration details of a flag level each. */
export const detailsAt = (createRegistration: FlagLevel, allowRegistration: FlagLevel): RegistrationDetails => ({
  ...(createRegistration !== 'absent' && { createRegistration: createRegistration === 'true' }),
  ...(allowRegistration !== 'absent' && { allowRegistration: allowRegistration === 'true' }),
});

/** Every cell of the grid of the two registration flags, each left out, sent false or sent true: a flag sent false is not one left out. */
export const registrationGrid: RegistrationDetails[] = flagLevels.flatMap((createRegistration) =>
  flagLevels.map((allowRegistration) => detailsAt(createRegistration, allowRegistration)),
);

/** How a class names registration details: each flag sent, with its value. */
export function registrationName(details: RegistrationDetails | undefined): string {
  const sent = Object.entries(details ?? {});
  return sent.length === 0 ? 'no registration details' : sent.map(([flag, value]) => `${flag} ${value}`).join(', ');
}

/** The request with paymentMethod.details set to `details` (none sent where empty). */
export function withRegistration(request: CheckoutRequest, details: RegistrationDetails): CheckoutRequest {
  const { details: _replaced, ...method } = request.payment?.paymentMethod ?? {};
  return { ...request, payment: { ...request.payment, paymentMethod: { ...method, ...(Object.keys(details).length > 0 && { details }) } } };
}

/** The request with payment.customer.uuid written in capitals, where it has one: RFC 9562 section 4 reads a UUID without regard to letter case. */
export function withUuidInCapitals(request: CheckoutRequest): CheckoutRequest {
  const uuid = request.payment?.customer?.uuid;
  return uuid === undefined ? request : { ...request, payment: { ...request.payment, customer: { ...request.payment!.customer, uuid: uuid.toUpperCase() } } };
}

/** A UUID written in the letter case of another: in capitals where that one has capitals and no small letters, else as it is. */
export const uuidWrittenAs = (uuid: string, like: string) => (/[A-F]/.test(like) && !/[a-f]/.test(like) ? uuid.toUpperCase() : uuid);

/** Rule 1 of 2.2: an embedded checkout (layout embed) needs a redirect of type action. */
export const needsActionRedirect = (layout: string | undefined) => layout === 'embed';

export interface LayoutCodeCombination {
  /** undefined: no page.layout sent. */
  layout?: Layout;
  code: PaymentMethodCode;
  /** paymentMethod.details; undefined: none sent. */
  registration?: RegistrationDetails;
}

/** Every combination of layout (or none), method code and registration (none, or one flag true) that rules 1 and 3 allow. */
export const allowedLayoutCodeCombinations: LayoutCodeCombination[] = [undefined, ...layouts].flatMap((layout) =>
  paymentMethodCodes.flatMap((code) =>
    [undefined, { createRegistration: true }, { allowRegistration: true }]
      .filter((registration) => registrationAsked(registration) === null || registrationAllowed(code, layout))
      .map((registration) => ({ ...(layout && { layout }), code, ...(registration && { registration }) })),
  ),
);

const product = () =>
  fc.record({
    code: matching('^[A-Z]{3,10}_[0-9]{1,3}$'),
    summary: fc.constantFrom('Computador', 'Livro', 'Assinatura mensal', 'Café e pastéis'),
  });

/** The merchant's own number for a customer (payment.customer.customerId, and the register-customer helper's body). */
export const merchantCustomerId = () => fc.integer({ min: 1, max: 999_999 }).map(String);

const customerData = (options: { nonAscii?: boolean } = {}) =>
  fc.record({
    customerId: merchantCustomerId(),
    firstName: firstName(options),
    lastName: lastName(options),
    phoneNumber: phoneNumber(),
    email: email(),
  });

const billingAddress = () =>
  fc.record({
    country: countryCode(),
    city: fc.constantFrom('Lisboa', 'Porto', 'Évora', 'Madrid'),
    street1: fc.constantFrom('Rua Domingos Monteiro nº 7 A', 'Avenida da Liberdade 1', 'Calle Mayor 3'),
    postCode: matching('^[1-9][0-9]{3}-[0-9]{3}$'),
  });

/** page.language: the reference shows only PT; present or absent where the variant does not list it. */
const language = () => fc.constant('PT' as const);
const optionalLanguage = () => fc.option(language(), { nil: undefined });
export const withoutUndefined = <T extends object>(value: T): T => JSON.parse(JSON.stringify(value));

/** The embed variants: customer data, billing address, a method and an action redirect. */
function embedded(layout: 'embed' | 'default', url: fc.Arbitrary<string>, options: { nonAscii?: boolean } = {}): fc.Arbitrary<CheckoutRequest> {
  return fc
    .record({ amount: amount(), product: product(), customer: customerData(options), billingAddress: billingAddress(), url, language: language() })
    .map(({ amount, product, customer, billingAddress, url, language }) => ({
      payment: { amount, ...product, customer, billingAddress, paymentMethod: { code: 'CC' } },
      page: { language, layout },
      redirects: [{ type: 'action', url }],
    }));
}

/** The five variants of 4.1, each with exactly the contents its row lists. */
export const checkoutVariants = {
  storeMethod: fc.record({ amount: amount(), uuid: fc.uuid(), language: language() }).map(({ amount, uuid, language }): CheckoutRequest => ({
    payment: {
      amount,
      recurring: { amountQualifier: 'ESTM' },
      customer: { uuid },
      paymentMethod: { code: 'CC', details: { createRegistration: true } },
    },
    page: { language },
  })),
  storeWithConsent: fc
    .record({ amount: amount(), product: product(), uuid: fc.uuid(), billingAddress: billingAddress(), language: optionalLanguage() })
    .map(({ amount, product, uuid, billingAddress, language }): CheckoutRequest =>
      withoutUndefined({
        payment: { amount, ...product, customer: { uuid }, billingAddress, paymentMethod: { code: 'CC', details: { allowRegistration: true } } },
        page: { language, layout: 'basic' },
      }),
    ),
  embedWeb: embedded('embed', httpsUrl()),
  embedMobile: embedded('default', deepLink()),
  atmPage: fc.record({ amount: amount(), product: product(), language: language() }).map(({ amount, product, language }): CheckoutRequest => ({
    payment: { amount, ...product, paymentMethod: { code: 'MB' } },
    page: { language, layout: 'web' },
  })),
} satisfies Record<CheckoutRow, fc.Arbitrary<CheckoutRequest>>;
export type CheckoutVariant = CheckoutRow;

/** How the report and the test titles name each row of 4.1. */
export const variantTitles = Object.fromEntries(Object.entries(checkoutRows).map(([row, { title }]) => [row, title])) as Record<CheckoutRow, string>;

const optionalFieldArbitraries = { product: product(), customer: customerData(), billingAddress: billingAddress(), language: language(), url: actionUrl() };
const someOptionalFields = fc.record(optionalFieldArbitraries, { requiredKeys: [] });
/** Which of a checkout's optional fields it carries: some (each present or absent), none, or every one. */
export type OptionalFields = 'some' | 'none' | 'every';
const optionalFieldsOf: Record<OptionalFields, typeof someOptionalFields> = {
  some: someOptionalFields,
  none: fc.constant({}),
  every: fc.record(optionalFieldArbitraries),
};

/**
 * A checkout of one allowed layout/code/registration combination, its optional fields present or
 * absent (`some`), all left out (`none`: only what the combination and rule 1 need) or all there
 * (`every`: with both identifiers of the customer, and recurring ESTM where it stores). A checkout
 * with registration details names a registered customer (uuid), as both storing variants of 4.1 do.
 */
export function checkoutOf(combination: LayoutCodeCombination, fields: OptionalFields = 'some'): fc.Arbitrary<CheckoutRequest> {
  const { layout, code } = combination;
  const registration = Object.keys(combination.registration ?? {}).length > 0 ? combination.registration : undefined;
  return fc.record({ amount: amount(), uuid: fc.uuid(), optional: optionalFieldsOf[fields] }).map(({ amount, uuid, optional }): CheckoutRequest => {
    const page = withoutUndefined({ language: optional.language, layout });
    const url = optional.url ?? (needsActionRedirect(layout) ? 'https://shop.example/done' : undefined);
    const customer = fields === 'every' ? { uuid, ...optional.customer } : registration ? { uuid } : optional.customer;
    return withoutUndefined({
      payment: {
        amount,
        ...optional.product,
        ...(fields === 'every' && registration && { recurring: { amountQualifier: 'ESTM' } }),
        customer,
        billingAddress: optional.billingAddress,
        paymentMethod: { code, ...(registration && { details: registration }) },
      },
      ...(Object.keys(page).length > 0 && { page }),
      ...(url && { redirects: [{ type: 'action', url }] }),
    });
  });
}

/**
 * Rows of 4.1 at the edges of what they allow, each still a row with exactly its contents: a target
 * must accept every one (CHK-1, CHK-6).
 */
export const rowEdgeCases = {
  nonAsciiNames: embedded('embed', httpsUrl(), { nonAscii: true }),
  actionUrlWithQuery: embedded('embed', httpsUrl({ query: true })),
  actionUrlWithFragment: embedded('embed', httpsUrl({ fragment: true })),
} satisfies Record<string, fc.Arbitrary<CheckoutRequest>>;

/** Any row of 4.1 (a failure shrinks within its row). */
export const anyCheckoutVariant: fc.Arbitrary<CheckoutRequest> = fc.oneof(...Object.values(checkoutVariants));

/**
 * Valid checkouts beyond the rows of 4.1: amounts at the edges, other layout/code/registration
 * combinations, optional fields left out. The reference shows no bounds and no required fields
 * beyond the rows (CHK-13, SEC-2), so a target may refuse most of these (classifyCheckout says
 * which); one it accepts must be answered per 2.3.
 */
export const beyondRowCases = {
  amountBounds: fc
    .tuple(anyCheckoutVariant, extremeAmount())
    .map(([checkout, bound]): CheckoutRequest => ({ ...checkout, payment: { ...checkout.payment, amount: bound } })),
  /** Every allowed layout/code/registration combination, optional fields present or absent. */
  layoutCodeCombinations: fc.oneof(...allowedLayoutCodeCombinations.map((combination) => checkoutOf(combination))),
} satisfies Record<string, fc.Arbitrary<CheckoutRequest>>;

export const rowCheckout: fc.Arbitrary<CheckoutRequest> = fc.oneof(...Object.values(checkoutVariants), ...Object.values(rowEdgeCases));
export const beyondRowCheckout: fc.Arbitrary<CheckoutRequest> = fc.oneof(...Object.values(beyondRowCases));

/** A valid checkout: a row half the time, else beyond the rows. */
export const anyValidCheckout: fc.Arbitrary<CheckoutRequest> = fc.oneof(rowCheckout, beyondRowCheckout);
