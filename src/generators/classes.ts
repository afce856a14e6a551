/**
 * The classes of input each clause allows, one list per clause, read against the reference as an
 * implementer who wants to break it would. Every run exercises every class once (a draw of its own,
 * from the run's seed), whatever the seed; the properties' random draws come on top. The report says,
 * per clause, which classes ran and why any did not.
 */
import fc from 'fast-check';
import type { CardPayRequest, CheckoutRequest, ReferenceRequest, WalletPayRequest } from '../../schemas/generated/types.ts';
import { cardBrand } from '../core/cards.ts';
import { checkoutRows, registrationAsked, type Registration, type RegistrationDetails } from '../core/checkout-rows.ts';
import { operations, titleOf, type OperationName } from '../core/operations.ts';
import { card, wallet } from './payment-means.ts';
import { brokenCheckouts, brokenReferences, type BrokenCase } from './broken.ts';
import { inputClass, type InputClass } from './input-class.ts';
import { framingClasses } from './framings.ts';
import {
  allowedLayoutCodeCombinations,
  checkoutOf,
  checkoutVariants,
  detailsAt,
  flagLevels,
  registrationGrid,
  registrationName,
  rowEdgeCases,
  variantTitles,
  withRegistration,
  withUuidInCapitals,
  withoutUndefined,
  type LayoutCodeCombination,
} from './checkouts.ts';
import { coveringArray } from './covering.ts';
import { validReference } from './references.ts';
import { amountName, everydayAmountEdges, extremeAmounts, formatWithOffset, httpsUrl, secondFractions, utcOffsets, type UtcOffset } from './values.ts';

const withAmount = (request: CheckoutRequest, amount: number): CheckoutRequest => ({ ...request, payment: { ...request.payment, amount } });

/** Amounts on one row: the everyday edges the row must be accepted with, and the extremes a target may refuse (SEC-2). */
function amountClasses<T>(base: fc.Arbitrary<T>, set: (value: T, amount: number) => T): InputClass<T>[] {
  return [
    ...everydayAmountEdges.map((amount) =>
      inputClass(
        amountName(amount),
        base.map((value) => set(value, amount)),
      ),
    ),
    ...extremeAmounts.map((amount) =>
      inputClass(
        amountName(amount),
        base.map((value) => set(value, amount)),
        'SEC-2',
      ),
    ),
  ];
}

const combinationName = ({ layout, code, registration }: LayoutCodeCombination) =>
  `layout ${layout ?? 'absent'}, code ${code}, ${registrationName(registration)}`;

/** The class of one row of 4.1: the row with exactly its contents. */
export const rowClassOf = (variant: keyof typeof checkoutVariants): InputClass<CheckoutRequest> =>
  inputClass(`row "${variantTitles[variant]}"`, checkoutVariants[variant] as fc.Arbitrary<CheckoutRequest>);
const rowClasses = (Object.keys(checkoutVariants) as (keyof typeof checkoutVariants)[]).map(rowClassOf);
/** Every kind of checkout 2.3 shapes the answer of: the rows of 4.1, and the combinations of layout, code and registration beyond them, which a target may refuse. */
const createdCheckoutClasses = [
  ...rowClasses,
  ...allowedLayoutCodeCombinations.map((combination) => inputClass(combinationName(combination), checkoutOf(combination), 'CHK-13')),
];

const { storeMethod, storeWithConsent, atmPage } = checkoutVariants;
const consentWithRecurring = storeWithConsent.map((request): CheckoutRequest => ({
  ...request,
  payment: { ...request.payment, recurring: { amountQualifier: 'ESTM' } },
}));
const storeWithoutRecurring = storeMethod.map((request) => withoutUndefined({ ...request, payment: { ...request.payment, recurring: undefined } }));
/** The request with paymentMethod.code set and no registration details. */
const withMethodCode = (request: CheckoutRequest, code: string): CheckoutRequest => ({ ...request, payment: { ...request.payment, paymentMethod: { code } } });

const storeMethodRow = inputClass(`row "${variantTitles.storeMethod}", recurring ESTM`, storeMethod);
const createRegistrationWithoutRecurring = inputClass('createRegistration without recurring', storeWithoutRecurring, 'CHK-13');

/** Valid checkouts: what a target must accept (the rows of 4.1), and what it may refuse (CHK-13, SEC-2) but must answer per 2.3 where it accepts. */
export const checkoutClasses: Record<'CHK-1' | 'CHK-2' | 'CHK-3' | 'CHK-4' | 'CHK-5' | 'CHK-6' | 'CHK-7' | 'CHK-8', InputClass<CheckoutRequest>[]> = {
  'CHK-1': [
    ...createdCheckoutClasses,
    inputClass('row "embed in web page" with non-ASCII names', rowEdgeCases.nonAsciiNames),
    inputClass('row "embed in web page", action URL with a query', rowEdgeCases.actionUrlWithQuery),
    inputClass('row "embed in web page", action URL with a fragment', rowEdgeCases.actionUrlWithFragment),
    inputClass(
      'row "store with customer consent" without page.language',
      storeWithConsent.map(({ page, ...rest }): CheckoutRequest => ({ ...rest, page: { layout: page!.layout } })),
    ),
    ...amountClasses(atmPage, withAmount),
    inputClass('recurring ESTM with allowRegistration', consentWithRecurring, 'CHK-13'),
    inputClass(
      'recurring ESTM without registration flags',
      consentWithRecurring.map((request) => withMethodCode(request, 'CC')),
      'CHK-13',
    ),
    createRegistrationWithoutRecurring,
    inputClass(
      'nothing but amount and method code',
      atmPage.map(({ payment }): CheckoutRequest => ({ payment: { amount: payment!.amount, paymentMethod: { code: 'MB' } } })),
      'CHK-13',
    ),
  ],
  'CHK-2': createdCheckoutClasses,
  'CHK-3': createdCheckoutClasses,
  'CHK-4': createdCheckoutClasses,
  'CHK-6': rowClasses,
  // Two of each row, one after the other, the same body: a target may number each kind apart. The
  // rows without a customer first, so that a target without the register-customer helper still gets pairs.
  'CHK-7': [...rowClasses].reverse(),
  'CHK-5': [
    rowClassOf('embedMobile'),
    ...allowedLayoutCodeCombinations
      .filter(({ layout }) => layout === 'default')
      .map((combination) => inputClass(combinationName(combination), checkoutOf(combination), 'CHK-13')),
  ],
  // The amount of every row, each with what it lists (a variable amount, ESTM, among them), and amounts of every digit pattern.
  'CHK-8': [
    inputClass(
      'amount 123,456',
      atmPage.map((request) => withAmount(request, 123_456)),
    ),
    ...amountClasses(atmPage, withAmount),
    ...rowClasses,
  ],
};

type StoringRow = 'storeMethod' | 'storeWithConsent';
/** The registration details a storing row of 4.1 lists. */
const detailsOfRow = (row: StoringRow): RegistrationDetails =>
  Object.fromEntries(
    Object.entries(checkoutRows[row].leaves).flatMap(([path, leaf]) =>
      path.startsWith('payment.paymentMethod.details.') ? [[path.split('.').at(-1)!, leaf.value]] : [],
    ),
  );
/** A cell of the registration grid sent on a storing row in place of the row's own details: beyond the rows, a target may refuse it (CHK-13). */
const cellOnRow = (row: StoringRow, cell: RegistrationDetails): InputClass<CheckoutRequest> =>
  inputClass(
    `${registrationName(cell)}, on the row "${variantTitles[row]}"`,
    checkoutVariants[row].map((request) => withRegistration(request, cell)),
    'CHK-13',
  );
/** Every cell of the registration grid but the row's own whose payment section 3 says `asked` of, each on the row. */
const otherCellsOnRow = (row: StoringRow, asked: Registration | null) =>
  registrationGrid
    .filter((cell) => registrationAsked(cell) === asked && registrationName(cell) !== registrationName(detailsOfRow(row)))
    .map((cell) => cellOnRow(row, cell));

/** A checkout that stores nothing: the consent row without its registration details (beyond the rows: a target may refuse it). */
export const consentRowWithoutRegistration = cellOnRow('storeWithConsent', {});
/** A storing row with the customer's UUID in capitals: a UUID is read without regard to letter case (RFC 9562 section 4), so the row must be taken and store for that customer. */
const inCapitals = (row: StoringRow) => inputClass(`row "${variantTitles[row]}", customer uuid in capitals`, checkoutVariants[row].map(withUuidInCapitals));

/** A storing row on each other layout rule 3 lets a method be stored on (basic, default, none): beyond the rows, a target may refuse it (CHK-13). */
const onOtherStoringLayouts = (row: StoringRow): InputClass<CheckoutRequest>[] =>
  (['basic', 'default', undefined] as const)
    .filter((layout) => layout !== (checkoutRows[row].leaves as Record<string, { value?: string | boolean }>)['page.layout']?.value)
    .map((layout) =>
      inputClass(
        `row "${variantTitles[row]}", ${layout ? `layout ${layout}` : 'no layout'}`,
        checkoutVariants[row].map(({ page, ...request }): CheckoutRequest => {
          const { layout: _own, ...rest } = page ?? {};
          const written = layout ? { ...rest, layout } : rest;
          return Object.keys(written).length > 0 ? { ...request, page: written } : request;
        }),
        'CHK-13',
      ),
    );

/**
 * Storing with and without recurring ESTM, and ESTM without either flag (which stores nothing), and
 * every cell of the grid of the two registration flags (left out, false, true) by what section 3
 * says of it: createRegistration true stores whatever allowRegistration says (TOK-1), else
 * allowRegistration true stores where the customer consents (TOK-2), else nothing is stored (TOK-4).
 * The test sets the method (CC or MW) and keeps the registration details.
 */
export const tokenizationClasses: Record<'TOK-1' | 'TOK-2' | 'TOK-3' | 'TOK-4', InputClass<CheckoutRequest>[]> = {
  'TOK-1': [
    storeMethodRow,
    ...otherCellsOnRow('storeMethod', 'createRegistration'),
    createRegistrationWithoutRecurring,
    inCapitals('storeMethod'),
    ...onOtherStoringLayouts('storeMethod'),
  ],
  'TOK-2': [
    inputClass(`row "${variantTitles.storeWithConsent}"`, storeWithConsent),
    ...otherCellsOnRow('storeWithConsent', 'allowRegistration'),
    inputClass('recurring ESTM with allowRegistration', consentWithRecurring, 'CHK-13'),
    inCapitals('storeWithConsent'),
    ...onOtherStoringLayouts('storeWithConsent'),
  ],
  // A declined payment in every checkout that would store: the request keeps its registration details, and the customer consents where asked.
  'TOK-3': [
    storeMethodRow,
    inputClass(`row "${variantTitles.storeWithConsent}", the customer consenting`, storeWithConsent),
    ...otherCellsOnRow('storeMethod', 'createRegistration'),
    ...otherCellsOnRow('storeWithConsent', 'allowRegistration'),
    createRegistrationWithoutRecurring,
  ],
  'TOK-4': [
    ...otherCellsOnRow('storeWithConsent', null),
    inputClass(
      'recurring ESTM without registration flags',
      consentWithRecurring.map((request) => withRegistration(request, {})),
      'CHK-13',
    ),
  ],
};

const paidByCard = (arbitrary: fc.Arbitrary<CardPayRequest['card']>) => arbitrary.map((paid): CardPayRequest => ({ method: 'CC', card: paid }));
const paidByWallet = (countryCode: string) => wallet().map((paid): WalletPayRequest => ({ method: 'MW', wallet: { ...paid, countryCode } }));
const ofBrand = (brand: string) => paidByCard(card().filter((paid) => cardBrand(paid.number) === brand));

/** A holder as long as the names of several families make it: \`holder\` is a string without a documented limit. */
const longHolder = 'Maria da Conceição Vasconcelos de Albuquerque Sottomayor Andrade';

/** PML-5: every kind of card and wallet a customer pays with, whose stored values must be what was paid with. */
export const storedMeansClasses: InputClass<CardPayRequest | WalletPayRequest>[] = [
  inputClass('a VISA card (16 digits)', ofBrand('VISA')),
  inputClass('a MASTERCARD card (16 digits)', ofBrand('MASTERCARD')),
  inputClass('an AMEX card (15 digits)', ofBrand('AMEX')),
  inputClass('a card expiring in January (month 01)', paidByCard(card().map((paid) => ({ ...paid, expireMonth: '01' })))),
  inputClass('a card whose holder has accents, an apostrophe and a hyphen', paidByCard(card().map((paid) => ({ ...paid, holder: "João D'Ávila-Nóbrega" })))),
  inputClass('a card whose holder is long (64 characters, past the 26 a card embosses)', paidByCard(card().map((paid) => ({ ...paid, holder: longHolder })))),
  inputClass('a card whose holder is written in Greek and Cyrillic', paidByCard(card().map((paid) => ({ ...paid, holder: 'Ελένη Иванова' })))),
  inputClass('a wallet of country code 1 (one digit)', paidByWallet('1')),
  inputClass('a wallet of country code 34 (two digits)', paidByWallet('34')),
  inputClass('a wallet of country code 351 (three digits)', paidByWallet('351')),
];

/** How a notification address may be written: the receiver's URL given its query, or its scheme in capitals (RFC 3986 reads a scheme without regard to case). The notification must come, its query kept. */
export type AddressWriting = (receiverUrl: string) => string;

function addressClasses(address: string): InputClass<AddressWriting>[] {
  const withQuery =
    (query: string): AddressWriting =>
    (url) =>
      `${url}${query}`;
  return [
    inputClass(`${address} without a query`, fc.constant(withQuery(''))),
    inputClass(`${address} with a query of its own`, fc.constant(withQuery('?shop=7&channel=callback'))),
    inputClass(`${address} whose query has encoded characters (%26, %C3%A9, %20)`, fc.constant(withQuery('?pair=a%26b&note=caf%C3%A9&space=a%20b'))),
    inputClass(`${address} whose query repeats a name`, fc.constant(withQuery('?tag=first&tag=second'))),
    inputClass(
      `${address} with its scheme in capitals`,
      fc.constant<AddressWriting>((url) => `${url.replace(/^[a-z]+/i, (scheme) => scheme.toUpperCase())}?shop=7`),
    ),
  ];
}

/** EVT-1: a reference's callbackUrl; EVT-2: the webhook's URL. */
export const callbackAddressClasses = addressClasses('callbackUrl');
export const webhookAddressClasses = addressClasses('the webhook URL');

const minute = 60_000;
const day = 24 * 60 * minute;

/**
 * A valid reference whose window is [now + startMs, now + endMs], written at the given offsets (and
 * with these digits of a second): the instants are taken when the value is drawn.
 */
function referenceFromNow(startMs: number, endMs: number, offsets: [UtcOffset, UtcOffset] = ['Z', 'Z'], fraction = ''): fc.Arbitrary<ReferenceRequest> {
  return validReference({ callback: 'without' }).map((request) => {
    const now = Date.now();
    return {
      ...request,
      validDate: { start: formatWithOffset(now + startMs, offsets[0], fraction), end: formatWithOffset(now + endMs, offsets[1], fraction) },
    };
  });
}

/** A valid reference open now whose window ends at the instant endAt gives for now, written at that offset. */
function referenceEndingAt(endAt: (now: number) => number, offset: UtcOffset): fc.Arbitrary<ReferenceRequest> {
  return referenceFromNow(-minute, day).map((request) => ({
    ...request,
    validDate: { start: request.validDate!.start, end: formatWithOffset(endAt(Date.now()), offset) },
  }));
}

const utcMidnightAfter = (now: number, days: number) => (Math.floor(now / day) + days) * day;
const nextLeapDay = (now: number) => {
  for (let year = new Date(now).getUTCFullYear(); ; year++) {
    const leapDay = Date.UTC(year, 1, 29, 12);
    if (new Date(leapDay).getUTCMonth() === 1 && leapDay > now + day) return leapDay;
  }
};

/**
 * Calendar and clock corners of a window's end: a date at its offset that is not its UTC date,
 * midnight at its offset, and 29 February (past the everyday window: a bound is not shown, SEC-2).
 */
const calendarClasses = [
  inputClass(
    'validDate.end at 03:00 UTC written at -09:30, the day before at its offset',
    referenceEndingAt((now) => utcMidnightAfter(now, 2) + 3 * 3600_000, '-09:30'),
  ),
  inputClass(
    'validDate.end at midnight at +01:00 (T00:00:00+01:00)',
    referenceEndingAt((now) => utcMidnightAfter(now, 2) - 3600_000, '+01:00'),
  ),
  inputClass('validDate.end on 29 February', referenceEndingAt(nextLeapDay, '+00:00'), 'SEC-2'),
];

/** A window written to a fraction of a second: past milliseconds, a precision the reference sets no bound for (SEC-2). */
const fractionClass = ([unit, fraction]: [string, string]) =>
  inputClass(`validDate to ${unit}`, referenceFromNow(-minute, day, ['+05:30', '-03:00'], fraction), fraction.length > 3 ? 'SEC-2' : undefined);

const openNow = referenceFromNow(-minute, day);
const withReferenceAmount = (request: ReferenceRequest, amount: number): ReferenceRequest => ({ ...request, amount });

/** Reference classes several clauses exercise. */
const withCallbackUrl = inputClass(
  'with callbackUrl',
  fc.tuple(openNow, httpsUrl()).map(([request, callbackUrl]) => ({ ...request, callbackUrl })),
);
const withoutCallbackUrl = inputClass('without callbackUrl', openNow);
const openingTomorrow = inputClass('window opening tomorrow', referenceFromNow(day, 2 * day));
const endingInTenMinutes = inputClass('window ending in ten minutes', referenceFromNow(-minute, 10 * minute));
const ninetyDays = inputClass('window of 90 days', referenceFromNow(-minute, 90 * day));
const widestOffsets = inputClass('start at -12:00, end at +14:00', referenceFromNow(-minute, day, ['-12:00', '+14:00']));

/** Valid references, each with a window that ends in the future (REF-1: a closed window may be refused). */
export const referenceClasses: Record<'REF-1' | 'REF-3' | 'REF-5', InputClass<ReferenceRequest>[]> = {
  'REF-1': [
    withCallbackUrl,
    inputClass(
      'with callbackUrl that has a query',
      fc.tuple(openNow, httpsUrl({ query: true })).map(([request, callbackUrl]) => ({ ...request, callbackUrl })),
    ),
    withoutCallbackUrl,
    openingTomorrow,
    endingInTenMinutes,
    ninetyDays,
    widestOffsets,
    inputClass('start at +05:45, end at -09:30', referenceFromNow(-minute, day, ['+05:45', '-09:30'])),
    // REF-1 judges by the answer alone (judgeAnswer), which owes every window: the leap day's is past the everyday.
    ...calendarClasses.filter((inputClass) => !inputClass.mayBeRefused),
  ],
  // Confirmed payments (the whole shape is owed once confirmed): windows open now, since only those can be paid.
  'REF-3': [withCallbackUrl, withoutCallbackUrl, endingInTenMinutes, ninetyDays, widestOffsets, ...amountClasses(openNow, withReferenceAmount)],
  'REF-5': [
    ...amountClasses(openNow, withReferenceAmount),
    ...utcOffsets.map((offset) => inputClass(`validDate at ${offset}`, referenceFromNow(-minute, day, [offset, offset]))),
    ...Object.entries(secondFractions).map(fractionClass),
    ...calendarClasses,
    openingTomorrow,
    ninetyDays,
    withCallbackUrl,
    // Arrays of several values: codes beside MB are not shown (2.5), so they may be refused; taken, every code is echoed.
    ...[
      ['MB', 'MW'],
      ['CC', 'MB'],
    ].map((codes) =>
      inputClass(
        `availableMethods ${codes.join(' and ')}`,
        openNow.map((request): ReferenceRequest => ({ ...request, availableMethods: [{ code: codes[0] }, ...codes.slice(1).map((code) => ({ code }))] })),
        'REF-10',
      ),
    ),
  ],
};

/** REF-4: every offset a request may write its window in, the payment read before confirmation or after it. */
export const timestampClasses: InputClass<{ request: ReferenceRequest; stage: 'not yet paid' | 'confirmed' }>[] = [
  ...utcOffsets.map((offset): [UtcOffset, UtcOffset] => [offset, offset]),
  ['-12:00', '+14:00'] as [UtcOffset, UtcOffset],
].flatMap((offsets) =>
  (['not yet paid', 'confirmed'] as const).map((stage) =>
    inputClass(
      `validDate at ${offsets[0] === offsets[1] ? offsets[0] : offsets.join(' and ')}, ${stage}`,
      referenceFromNow(-minute, day, offsets).map((request) => ({ request, stage })),
    ),
  ),
);

/**
 * REF-2: the target draws the reference, so its classes are outcomes, not inputs: references with no,
 * one and several leading zeros, each read at every stage a payment goes through. The suite creates
 * references until it has one of each shape, within referenceSearchBound.
 */
export const referenceShapes = [
  { name: 'no leading zero', pattern: /^[1-9]/ },
  { name: 'one leading zero', pattern: /^0[1-9]/ },
  { name: 'several leading zeros', pattern: /^00/ },
] as const;
export const referenceStages = ['not yet paid', 'after a payment outside its window was refused', 'confirmed'] as const;
export type ReferenceStage = (typeof referenceStages)[number];
export const referenceClassName = (shape: string, stage: ReferenceStage) => `reference with ${shape}, ${stage}`;
/**
 * How many references the suite creates at most to find each shape: a target that draws uniformly
 * starts one in 100 with 00, so 500 miss it with probability 0.66 % (one in ten starts with 0: 1e-23).
 */
export const referenceSearchBound = 500;

function brokenClassesByClause(cases: readonly BrokenCase[]): Record<string, string[]> {
  const byClause: Record<string, string[]> = {};
  for (const { clause, classes } of cases) (byClause[clause] ??= []).push(...classes.map((c) => c.name));
  return byClause;
}

/**
 * Every form an action URL may take: a target that glues "?id=" or "&id=" to the end gets one of
 * them wrong, and one that decodes or rebuilds the query loses an encoded "&" or a repeated name.
 */
export const actionUrlForms = ['', '?order=7', '#receipt', '?order=7&lang=pt#receipt', '?', '/caf%C3%A9?pair=a%26b&note=caf%C3%A9&tag=1&tag=2#receipt'];
/** The deep links a mobile checkout returns to, opened in a webview; the pay helper is asked of these and two more. */
export const deepLinks = ['myshop://paid?order=7', 'com.shop.app://paid?order=7#done'];
export const helperDeepLinks = [...deepLinks, 'myshop://paid', 'com.shop.app://paid#done'];
/** The pages that may offer to store the method: rule 3 allows storing for CC and MW in layouts basic and default. */
export const storingPages = [
  ['basic', 'CC'],
  ['default', 'CC'],
  ['basic', 'MW'],
  ['default', 'MW'],
] as const;
export const storingPageName = ([layout, code]: (typeof storingPages)[number]) => `${code}, layout ${layout}`;
/**
 * The registration details each storing page is judged with (PAGE-6): every pair of a page and a
 * value of either registration flag, so every cell of the grid of the two flags (left out, false,
 * true) on some page and each flag's every value on every page (a covering array of strength 2).
 */
export const consentOfferCases = coveringArray(
  { page: storingPages.map(storingPageName), createRegistration: flagLevels, allowRegistration: flagLevels },
  2,
).rows.map((row) => ({
  page: storingPages.find((page) => storingPageName(page) === row.page)!,
  details: detailsAt(row.createRegistration, row.allowRegistration),
}));
/** Bodies that are no JSON object, each of which POST /checkouts must refuse and live on (CHK-12). */
export const notObjects: ReadonlyArray<readonly [name: string, rawBody: string]> = [
  ['a body that is not JSON', '{"payment": {"amount": 500'],
  ['a JSON array', '[{"payment": {"amount": 500}}]'],
  ['a JSON string', '"checkout"'],
];

const answersOf = (...names: OperationName[]) => names.map(titleOf);
/** The customers whose lists the PML clauses are judged on: their means paired so that each pair agrees on what the list shows (alikeInPairs). */
export const listClasses = {
  twoCardsAndAWallet: 'a customer with 2 cards ending in the same four digits and a wallet',
  inCapitals: 'the list path with the customer UUID in capitals',
  manyMethods: 'a customer with 12 methods, pairs of them alike in what the list shows',
  twoOfEach: 'a customer with 2 cards ending in the same four digits and 2 wallets alike in every shown field',
} as const;
const { twoOfEach } = listClasses;
const notSetUp = 'a customer the suite did not set up';
export const actionFormName = (form: string) => `pay helper, action URL ${form === '' ? 'without query or fragment' : `ending ${form}`}`;
/** The languages a hosted page is opened in: the one listed in other letters, others, none (PAGE-1 owes a page for every checkout it creates). */
export const pageLanguages = ['pt', 'pt-PT', 'EN', 'FR', null] as const;
export const pageLanguageName = (language: string | null) =>
  language === null ? 'layout default, no page.language' : `layout default, page.language ${language}`;
/** Redirects of other types put before the action one (each row at its fullest): beyond those listed, so a target may refuse them (CHK-13); taken, the customer still goes to the action URL. */
export const redirectsBesideAction = [['success'], ['cancel', 'back']] as const;
export const besideActionName = (types: readonly string[]) => `pay helper, redirects of type ${types.join(' and ')} before the action one`;

/** The classes of the model's covering arrays (src/model/combinations.ts): one for what a payment stores, one for what a reference does. */
export const paymentCombinationsClass =
  'every 3-way combination of layout, method, createRegistration, allowRegistration, outcome, consent, customer and the letter case of its UUID';
export const referenceCombinationsClass = 'every 3-way combination of window, notification address, payment time and offset';

/**
 * The classes of the clauses whose inputs are scenarios a test sets up, not values it draws: each
 * test names the classes it exercises (src/harness/fixtures.ts, exercises), and the report counts a class
 * once its test reached its judgement.
 */
export const scenarioClasses = {
  'ENV-1': answersOf('createCheckout', 'getPayment', 'listMethods'),
  'ENV-2': answersOf('createCheckout', 'listMethods'),
  'ENV-4': operations.filter((operation) => operation.ofReference).map((operation) => titleOf(operation.name)),
  'CHK-12': notObjects.map(([name]) => name),
  'PAGE-1': ['layout web', 'layout basic', 'layout default', 'an ATM checkout (MB, layout web)', ...pageLanguages.map(pageLanguageName)],
  'PAGE-2': ['form.paymentWidgets among other forms of the merchant page'],
  'PAGE-3': ['paid in the browser', ...actionUrlForms.map(actionFormName), ...redirectsBesideAction.map(besideActionName)],
  'PAGE-4': [...deepLinks.map((link) => `webview, ${link}`), ...helperDeepLinks.map((link) => `pay helper, ${link}`)],
  'PAGE-5': ['the ATM page of an MB checkout', 'two MB checkouts of the same body'],
  'PAGE-6': [...storingPages.map(storingPageName), ...registrationGrid.map(registrationName)],
  'PAGE-7': ['paid in the browser', 'paid through the pay helper, no browser', 'declined through the pay helper, no browser'],
  'CHK-7': ['checkouts created at once'],
  'TOK-1': [
    paymentCombinationsClass,
    'a stored method, then a declined payment of its customer',
    'two cards and two wallets of one customer paid at once',
    'payments of one customer at once, the list read meanwhile',
  ],
  'TOK-2': [paymentCombinationsClass, 'consent given by one customer, then declined by the same'],
  'TOK-3': [paymentCombinationsClass, 'a declined payment of a customer who stored a method before'],
  'TOK-4': [paymentCombinationsClass, 'a payment without registration of a customer who stored a method before'],
  'TOK-5': [paymentCombinationsClass, 'an ATM payment asked to be stored, beside a stored card'],
  'TOK-6': ['card', 'mobile wallet', 'two customers storing in turn'],
  'PML-1': [listClasses.twoCardsAndAWallet, listClasses.inCapitals, listClasses.manyMethods, notSetUp],
  'PML-2': [twoOfEach, notSetUp],
  'PML-3': [twoOfEach, notSetUp],
  'PML-4': [twoOfEach, notSetUp],
  'PML-6': [twoOfEach, listClasses.manyMethods, notSetUp],
  'REF-6': [
    referenceCombinationsClass,
    'confirmed through the interbank helper',
    'confirmed and notified at its callbackUrl',
    'an older reference confirmed after later ones were created',
    'confirmed twice',
    'confirmed several times at once, read meanwhile',
  ],
  'REF-7': [
    referenceCombinationsClass,
    'paid after the window closed',
    'paid before the window opens',
    'paid one second before validDate.start',
    'paid one second after validDate.end',
    'paid after the window closed, with callbackUrl',
    'a window not yet open, beside open ones',
    'paid after its end, beside open ones',
  ],
  'REF-8': ['the references of the property', 'many references created at once', 'references created at once beside checkouts'],
  'EVT-1': [
    referenceCombinationsClass,
    'created before a webhook was set, confirmed after',
    'created while a webhook was set',
    'confirmed after the webhook was removed',
  ],
  'EVT-2': [
    referenceCombinationsClass,
    'without callbackUrl, a webhook configured',
    'created before the webhook was set, confirmed after',
    'created while the webhook was set',
    'created while one webhook was set, confirmed after it moved',
  ],
  'EVT-3': ['at its callbackUrl', 'at the webhook'],
  'EVT-4': [
    referenceCombinationsClass,
    'not paid, with callbackUrl',
    'paid outside its window, with callbackUrl',
    'not paid, a webhook configured',
    'left unpaid while other references were confirmed',
  ],
} as const satisfies Record<string, readonly string[]>;
export type ScenarioClause = keyof typeof scenarioClasses;

/** Every clause's classes by name: what the report lists as not run where no test exercised them. */
export const classNamesByClause: Record<string, string[]> = {};
for (const [clause, names] of [
  ...Object.entries({
    ...checkoutClasses,
    ...tokenizationClasses,
    ...referenceClasses,
    'REF-4': timestampClasses,
    'PML-5': storedMeansClasses,
    'EVT-1': callbackAddressClasses,
    'EVT-2': webhookAddressClasses,
  }).map(([clause, classes]): [string, readonly string[]] => [clause, classes.map((c) => c.name)]),
  ...Object.entries(framingClasses).map(([clause, classes]): [string, readonly string[]] => [clause, classes.map((c) => c.name)]),
  ...Object.entries(scenarioClasses),
  ['REF-2', referenceShapes.flatMap((shape) => referenceStages.map((stage) => referenceClassName(shape.name, stage)))] as const,
  ...Object.entries(brokenClassesByClause([...brokenCheckouts, ...brokenReferences])),
])
  (classNamesByClause[clause] ??= []).push(...names);
