import { test } from 'node:test';
import { bodyFramings, frameRequest } from '../../src/generators/framings.ts';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { RequestBodies } from '../../src/core/operations.ts';
import { validateRequest } from '../../src/core/schemas.ts';
import { classifyCheckout } from '../../src/checks/checkout-kinds.ts';
import {
  alikeInPairs,
  actionUrlClasses,
  allowedLayoutCodeCombinations,
  anotherNumberLike,
  anyValidCheckout,
  brokenCheckouts,
  brokenReferences,
  callbackAddressClasses,
  card,
  cardBrand,
  beyondRowCases,
  checkoutClasses,
  checkoutOf,
  checkoutVariants,
  classNamesByClause,
  consentOfferCases,
  confirmationClasses,
  declinedSuffix,
  digitPatternAmounts,
  digitPatternName,
  lostThroughFloatMajorUnits,
  merchantPage,
  merchantPageForms,
  pageClasses,
  shownAmountClasses,
  formatCornerClasses,
  rowOfLeaf,
  formatCorners,
  formattedPaths,
  formatWithOffset,
  luhnValid,
  rowCheckout,
  referenceClasses,
  registrationGrid,
  registrationName,
  referenceShapeOf,
  rowEdgeCases,
  storingPages,
  textCornerClasses,
  tokenizationClasses,
  uuidNearMisses,
  uuidWrittenAs,
  withUuidInCapitals,
  validReference,
  wallet,
  webhookAddressClasses,
  type BrokenCase,
  type Card,
} from '../../src/generators/index.ts';
import { registrationAsked } from '../../src/core/checkout-rows.ts';
import type { CheckoutRequest } from '../../schemas/generated/types.ts';

const seed = 20_240_601;
const numRuns = 200;
const check = <T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => void) => fc.assert(fc.property(arbitrary, predicate), { seed, numRuns });

const schemaValid = (body: keyof RequestBodies) => (value: unknown) => assert.deepEqual(validateRequest(body, value), []);

const validCheckouts: [string, fc.Arbitrary<unknown>][] = [
  ...Object.entries(checkoutVariants),
  ...Object.entries(rowEdgeCases),
  ...Object.entries(beyondRowCases),
  ['anyValidCheckout', anyValidCheckout],
  ...allowedLayoutCodeCombinations.map((combination): [string, fc.Arbitrary<unknown>] => [
    `combination ${JSON.stringify(combination)}`,
    checkoutOf(combination),
  ]),
];
for (const [name, arbitrary] of validCheckouts) {
  test(`valid checkout ${name} is schema-valid`, () => check(arbitrary, schemaValid('createCheckout')));
}

for (const callback of ['with', 'without', 'either'] as const) {
  test(`valid reference (callback ${callback}) is schema-valid`, () => check(validReference({ callback }), schemaValid('createReference')));
}

function assertBrokenFor(body: keyof RequestBodies, { clause }: BrokenCase) {
  return (value: unknown) => {
    const problems = validateRequest(body, value);
    assert.ok(problems.length > 0, `accepted: ${JSON.stringify(value)}`);
    for (const problem of problems) assert.ok(problem.clauses.includes(clause), `${JSON.stringify(problem)} does not name ${clause}`);
  };
}
for (const broken of brokenCheckouts) {
  test(`broken checkout "${broken.name}" is refused for ${broken.clause} only`, () => check(broken.arbitrary, assertBrokenFor('createCheckout', broken)));
}
for (const broken of brokenReferences) {
  test(`broken reference "${broken.name}" is refused for ${broken.clause} only`, () => check(broken.arbitrary, assertBrokenFor('createReference', broken)));
}

test('the broken cases name the clauses of rules 1 and 3, of the documented types and of REF-9', () => {
  assert.deepEqual([...new Set(brokenCheckouts.map((c) => c.clause))].sort(), ['CHK-10', 'CHK-11', 'CHK-9']);
  assert.deepEqual([...new Set(brokenReferences.map((c) => c.clause))], ['REF-9']);
});

test('each variant of 4.1 carries what its row lists', () => {
  check(checkoutVariants.storeMethod, ({ payment, page }) => {
    assert.equal(page?.layout, undefined);
    assert.equal(payment?.recurring?.amountQualifier, 'ESTM');
    assert.ok(payment?.customer?.uuid);
    assert.equal(payment?.paymentMethod?.code, 'CC');
    assert.equal(payment?.paymentMethod?.details?.createRegistration, true);
    assert.equal(page?.language, 'PT');
  });
  check(checkoutVariants.storeWithConsent, ({ payment, page }) => {
    assert.equal(page?.layout, 'basic');
    assert.equal(payment?.paymentMethod?.details?.allowRegistration, true);
    assert.equal(payment?.paymentMethod?.code, 'CC');
    assert.ok(payment?.customer?.uuid && payment.billingAddress && payment.code && payment.summary);
  });
  check(checkoutVariants.embedWeb, ({ page, redirects }) => {
    assert.equal(page?.layout, 'embed');
    assert.ok(redirects?.some((r) => r.type === 'action' && r.url.startsWith('https://')));
  });
  check(checkoutVariants.embedMobile, ({ page, redirects }) => {
    assert.equal(page?.layout, 'default');
    assert.ok(redirects?.some((r) => r.type === 'action' && !/^https?:/.test(r.url) && /^[a-z][a-z0-9.+-]*:\/\//.test(r.url)));
  });
  check(checkoutVariants.atmPage, ({ payment, page }) => {
    assert.equal(payment?.paymentMethod?.code, 'MB');
    assert.equal(page?.layout, 'web');
  });
});

test('rows stay inside everyday amounts; the cases beyond the rows reach the amount bounds', () => {
  check(rowCheckout, ({ payment }) => assert.ok(payment!.amount! >= 100 && payment!.amount! <= 999_999));
  const amounts = fc.sample(beyondRowCases.amountBounds, { seed, numRuns }).map((c) => c.payment?.amount);
  assert.ok(amounts.includes(1) && amounts.includes(2 ** 31 - 1) && amounts.includes(2 ** 31) && amounts.includes(10_000_000));
  const optionalPresent = fc.sample(beyondRowCases.layoutCodeCombinations, { seed, numRuns }).map((c) => Boolean(c.payment?.billingAddress));
  assert.ok(optionalPresent.includes(true) && optionalPresent.includes(false));
});

test('amounts whose digits formatting gets wrong: everyday, every minor part 01 to 09, trailing zeros, all but one lost through a float of major units', () => {
  assert.deepEqual([820, 1999, 29, 115, 1010, 100, 999_999].map(lostThroughFloatMajorUnits), [true, true, true, true, false, false, false]);
  assert.ok(digitPatternAmounts.every((amount) => amount >= 100 && amount <= 999_999));
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((minor) => !digitPatternAmounts.some((amount) => amount % 100 === minor)),
    [],
  );
  assert.ok(digitPatternAmounts.some((amount) => amount % 100 === 0) && digitPatternAmounts.some((amount) => amount % 10 === 0 && amount % 100 !== 0));
  assert.deepEqual(
    digitPatternAmounts.filter((amount) => !lostThroughFloatMajorUnits(amount)),
    [100_000],
  );
  assert.equal(digitPatternName(820), 'amount 820 (8.20, 819 through a float)');
  assert.equal(digitPatternName(100_000), 'amount 100,000 (1,000.00)');
});

test('checkoutOf with no optional field sends only what its combination and rule 1 need; with every one, both identifiers of the customer and recurring where it stores', () => {
  check(checkoutOf({ layout: 'basic', code: 'CC' }, 'none'), (request) => assert.deepEqual(Object.keys(request.payment!).sort(), ['amount', 'paymentMethod']));
  check(checkoutOf({ layout: 'embed', code: 'CC' }, 'none'), (request) => assert.deepEqual(request.redirects?.[0]?.type, 'action'));
  check(checkoutOf({ layout: 'basic', code: 'CC', registration: { allowRegistration: true } }, 'every'), ({ payment, page, redirects }) => {
    assert.ok(payment?.code && payment.summary && payment.billingAddress?.country && page?.language && redirects?.length === 1);
    assert.ok(payment?.customer?.uuid && payment.customer.customerId && payment.customer.email);
    assert.equal(payment?.recurring?.amountQualifier, 'ESTM');
  });
  check(checkoutOf({ layout: 'web', code: 'MB' }, 'every'), ({ payment }) => assert.equal(payment?.recurring, undefined));
});

test('every merchant page holds a form of class paymentWidgets, however written, and the script whose src is checkoutUrl, before or after it', () => {
  const url = 'https://pay.example/embed/c1/widget.js?a=1&b="2"';
  for (const form of merchantPageForms) {
    const page = merchantPage(url, form);
    const classes = /<form[^>]*\sclass="([^"]*)"[^>]*data-testid="merchant-form"|<form[^>]*data-testid="merchant-form"[^>]*\sclass="([^"]*)"/.exec(page);
    assert.ok(classes && (classes[1] ?? classes[2]).split(/\s+/).includes('paymentWidgets'), form.name);
    const script = page.indexOf('<script src="https://pay.example/embed/c1/widget.js?a=1&amp;b=&quot;2&quot;"></script>');
    assert.ok(script > 0, form.name);
    assert.equal(script < page.indexOf('data-testid="merchant-form"'), form.scriptFirst, form.name);
  }
  assert.ok(merchantPageForms.some((form) => form.scriptFirst) && merchantPageForms.some((form) => !form.scriptFirst));
});

test('row edge cases: non-ASCII names, action URLs with a query or a fragment, deep links of every form', () => {
  check(rowEdgeCases.nonAsciiNames, ({ payment }) => assert.match(`${payment?.customer?.firstName}${payment?.customer?.lastName}`, /[^\x00-\x7F]/));
  check(rowEdgeCases.actionUrlWithQuery, ({ redirects }) => assert.ok(new URL(redirects![0].url).search.length > 1));
  check(rowEdgeCases.actionUrlWithFragment, ({ redirects }) => assert.ok(new URL(redirects![0].url).hash.length > 1));
  const links = fc.sample(checkoutVariants.embedMobile, { seed, numRuns }).map((c) => c.redirects![0].url);
  assert.ok(
    links.some((url) => /^[a-z0-9]+\.[a-z0-9.]+:\/\//.test(url)),
    'a scheme with dots',
  );
  assert.ok(links.some((url) => url.includes('#')) && links.some((url) => url.includes('?')) && links.some((url) => !/[?#]/.test(url)));
});

test('rule 1 and 3 combinations: embed always has its action redirect, storing only CC/MW with basic, default or no layout', () => {
  assert.ok(allowedLayoutCodeCombinations.some((c) => c.layout === undefined && c.registration));
  for (const { layout, code, registration } of allowedLayoutCodeCombinations) {
    if (registration) assert.ok(['CC', 'MW'].includes(code) && [undefined, 'basic', 'default'].includes(layout), JSON.stringify({ layout, code }));
  }
  // 5 layouts (none included) x 3 codes, plus 2 registrations for each of 2 codes x 3 layouts.
  assert.equal(allowedLayoutCodeCombinations.length, 5 * 3 + 2 * 2 * 3);
});

test('validReference: several UTC offsets, and around an instant the window contains it', () => {
  const offsets = new Set(
    fc.sample(validReference(), { seed, numRuns }).flatMap(({ validDate }) => [validDate.start, validDate.end].map((t) => /(Z|[+-]\d\d:\d\d)$/.exec(t)![1])),
  );
  assert.ok(offsets.size >= 4, [...offsets].join(' '));
  const now = new Date();
  check(validReference({ around: now }), (reference) => {
    const { validDate } = reference;
    assert.deepEqual(validateRequest('createReference', reference), []);
    assert.ok(Date.parse(validDate.start) < now.getTime() && now.getTime() < Date.parse(validDate.end));
  });
  check(validReference({ callback: 'with' }), (reference) => assert.ok(reference.callbackUrl));
  check(validReference({ callback: 'without' }), (reference) => assert.equal('callbackUrl' in reference, false));
});

test('formatWithOffset writes the same instant at the given offset', () => {
  const instant = Date.UTC(2030, 0, 1, 0, 0, 0);
  assert.equal(formatWithOffset(instant, 'Z'), '2030-01-01T00:00:00Z');
  assert.equal(formatWithOffset(instant, '+05:30'), '2030-01-01T05:30:00+05:30');
  assert.equal(formatWithOffset(instant, '-03:00'), '2029-12-31T21:00:00-03:00');
  assert.equal(Date.parse(formatWithOffset(instant, '-09:30')), instant);
});

test('luhnValid and cardBrand', () => {
  assert.equal(luhnValid('4111111111111111'), true);
  assert.equal(luhnValid('4111111111111112'), false);
  assert.equal(luhnValid('4111 1111 1111 1111'), false);
  assert.equal(cardBrand('4111111111111111'), 'VISA');
  assert.equal(cardBrand('5500000000000004'), 'MASTERCARD');
  assert.equal(cardBrand('378282246310005'), 'AMEX');
  assert.equal(cardBrand('6011111111111117'), 'DISCOVER');
});

test('cards: Luhn-valid, of a known brand, with a holder and a future expiry; declined ones end in 0002, others never', () => {
  const thisYear = new Date().getUTCFullYear();
  const wellFormed = ({ number, holder, expireMonth, expireYear }: { number: string; holder: string; expireMonth: string; expireYear: string }) => {
    assert.ok(luhnValid(number), number);
    assert.notEqual(cardBrand(number), 'UNKNOWN');
    assert.ok(holder.trim().length > 0);
    assert.match(expireMonth, /^(0[1-9]|1[0-2])$/);
    assert.match(expireYear, /^[0-9]{4}$/);
    assert.ok(Number(expireYear) > thisYear);
  };
  check(card(), (c) => {
    wellFormed(c);
    assert.equal(c.number.endsWith(declinedSuffix), false);
  });
  check(card({ declined: true }), (c) => {
    wellFormed(c);
    assert.ok(c.number.endsWith(declinedSuffix));
  });
  const brands = new Set(fc.sample(card(), { seed, numRuns }).map((c) => cardBrand(c.number)));
  assert.deepEqual([...brands].sort(), ['AMEX', 'MASTERCARD', 'VISA']);
});

test('wallets: country codes of digits, 351 and others, and a 9-digit number', () => {
  check(wallet(), ({ countryCode, number }) => {
    assert.match(countryCode, /^[0-9]{1,4}$/);
    assert.match(number, /^[0-9]{9}$/);
  });
  const codes = new Set(fc.sample(wallet(), { seed, numRuns }).map((paid) => paid.countryCode));
  assert.ok(codes.has('351') && codes.size > 2);
});

test('alikeInPairs: pairs that agree on what a list shows of a method, each another card or wallet', () => {
  const [[drawnCards, drawnWallets]] = fc.sample(
    fc.tuple(fc.array(card(), { minLength: 4, maxLength: 4 }), fc.array(wallet(), { minLength: 3, maxLength: 3 })),
    {
      seed,
      numRuns: 1,
    },
  );
  const { cards, wallets } = alikeInPairs(drawnCards, drawnWallets);
  const shown = (paid: Card) => [cardBrand(paid.number), paid.number.slice(-4), paid.holder, paid.expireMonth, paid.expireYear].join(' ');
  for (const paid of cards) assert.ok(luhnValid(paid.number) && !paid.number.endsWith(declinedSuffix), paid.number);
  assert.equal(new Set(cards.map(({ number }) => number)).size, 4, 'four cards');
  assert.equal(cards[1].number.slice(-4), cards[0].number.slice(-4));
  assert.notEqual(shown(cards[1]), shown(cards[0]), 'the same last four digits, another holder or expiry');
  assert.equal(shown(cards[2]), shown(cards[0]), 'alike in every shown field');
  assert.deepEqual([cardBrand(cards[3].number), cards[3].holder, cards[3].expireMonth], [cardBrand(cards[0].number), cards[0].holder, cards[0].expireMonth]);
  assert.equal(new Set(wallets.map(({ number }) => number)).size, 3, 'three wallets');
  assert.deepEqual([wallets[1].countryCode, wallets[1].number.slice(-3)], [wallets[0].countryCode, wallets[0].number.slice(-3)]);
  assert.equal(wallets[2].countryCode, wallets[0].countryCode);
  assert.deepEqual(alikeInPairs([], []), { cards: [], wallets: [] });
});

test('anotherNumberLike: another Luhn-valid number of the brand and length, ending as asked', () => {
  check(fc.tuple(card(), fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 4, maxLength: 4 })), ([paid, ending]) => {
    assert.notEqual(anotherNumberLike(paid.number), anotherNumberLike(paid.number, paid.number.slice(-4), 2));
    for (const [other, end] of [
      [anotherNumberLike(paid.number), paid.number.slice(-4)],
      [anotherNumberLike(paid.number, ending), ending],
    ]) {
      assert.ok(luhnValid(other) && other !== paid.number && other.endsWith(end), `${paid.number} → ${other}`);
      assert.deepEqual([cardBrand(other), other.length], [cardBrand(paid.number), paid.number.length]);
    }
  });
});

test('the registration grid: the two flags each left out, false or true; section 3 says what each cell stores', () => {
  assert.deepEqual(registrationGrid.map(registrationName), [
    'no registration details',
    'allowRegistration false',
    'allowRegistration true',
    'createRegistration false',
    'createRegistration false, allowRegistration false',
    'createRegistration false, allowRegistration true',
    'createRegistration true',
    'createRegistration true, allowRegistration false',
    'createRegistration true, allowRegistration true',
  ]);
  assert.deepEqual(registrationGrid.map(registrationAsked), [
    null,
    null,
    'allowRegistration',
    null,
    null,
    'allowRegistration',
    'createRegistration',
    'createRegistration',
    'createRegistration',
  ]);
  const detailsOf = (classes: { arbitrary: fc.Arbitrary<CheckoutRequest> }[]) =>
    new Set(classes.map(({ arbitrary }) => registrationName(fc.sample(arbitrary, { seed, numRuns: 1 })[0].payment?.paymentMethod?.details)));
  for (const [clause, asked] of [
    ['TOK-1', 'createRegistration'],
    ['TOK-2', 'allowRegistration'],
    ['TOK-4', null],
  ] as const) {
    const cells = registrationGrid.filter((cell) => registrationAsked(cell) === asked).map(registrationName);
    assert.deepEqual([...detailsOf(tokenizationClasses[clause])].sort(), cells.sort(), clause);
  }
  for (const row of ['store a payment method (no page.layout)', 'store with customer consent'])
    assert.ok(
      Object.values(tokenizationClasses)
        .flat()
        .some(({ name, mayBeRefused }) => name === `row "${row}", customer uuid in capitals` && !mayBeRefused),
    );
});

test('consentOfferCases: every cell of the registration grid on some storing page, every value of each flag on every page', () => {
  assert.deepEqual(new Set(consentOfferCases.map(({ details }) => registrationName(details))), new Set(registrationGrid.map(registrationName)));
  for (const page of storingPages)
    for (const flag of ['createRegistration', 'allowRegistration'] as const)
      assert.deepEqual(
        new Set(consentOfferCases.filter((offer) => offer.page === page).map(({ details }) => details[flag])),
        new Set([undefined, false, true]),
        `${page.join(' ')} ${flag}`,
      );
});

test('uuidWrittenAs and withUuidInCapitals: the registered UUID in the letter case the request writes', () => {
  const uuid = 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6';
  assert.equal(uuidWrittenAs(uuid, 'E2343605-CF46-43DE-B20B-0A1B2C3D4E5F'), uuid.toUpperCase());
  assert.equal(uuidWrittenAs(uuid, 'e2343605-cf46-43de-b20b-0a1b2c3d4e5f'), uuid);
  assert.equal(uuidWrittenAs(uuid.toUpperCase(), 'e2343605-cf46-43de-b20b-0a1b2c3d4e5f'), uuid.toUpperCase(), 'as registered');
  assert.equal(withUuidInCapitals({ payment: { customer: { uuid } } }).payment?.customer?.uuid, uuid.toUpperCase());
  assert.equal(validateRequest('createCheckout', { payment: { amount: 100, customer: { uuid: uuid.toUpperCase() } } }).length, 0, 'a UUID in capitals');
});

test('uuidNearMisses: not a UUID (RFC 9562 section 4), each but the cut ones the 32 digits of one written otherwise', () => {
  const uuid = 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6';
  for (const [name, nearMiss] of uuidNearMisses) {
    const written = nearMiss(uuid);
    assert.ok(validateRequest('createCheckout', { payment: { amount: 100, customer: { uuid: written } } }).length > 0, `${name}: ${written}`);
  }
  const hexOf = (text: string) => text.replace(/^urn:uuid:|[{}-]/g, '');
  assert.deepEqual(
    uuidNearMisses.filter(([, nearMiss]) => hexOf(nearMiss(uuid)) === hexOf(uuid)).map(([name]) => name),
    ['in braces', 'as a URN (urn:uuid:)', 'of 32 hex digits without dashes', 'with its first dash a digit late'],
  );
});

test('every input class of a valid request is schema-valid; each class of a broken case breaks its clause only', () => {
  for (const classes of [...Object.values(checkoutClasses), ...Object.values(pageClasses), shownAmountClasses])
    for (const { name, arbitrary } of classes) check(arbitrary, (value) => assert.deepEqual(validateRequest('createCheckout', value), [], name));
  for (const classes of Object.values(referenceClasses))
    for (const { name, arbitrary } of classes) check(arbitrary, (value) => assert.deepEqual(validateRequest('createReference', value), [], name));
  for (const broken of brokenCheckouts) for (const { arbitrary } of broken.classes) check(arbitrary, assertBrokenFor('createCheckout', broken));
  for (const broken of brokenReferences) for (const { arbitrary } of broken.classes) check(arbitrary, assertBrokenFor('createReference', broken));
});

test('input classes have names of their own per clause, and the valid references end in the future (REF-1)', () => {
  for (const [clause, names] of Object.entries(classNamesByClause)) assert.equal(new Set(names).size, names.length, `${clause}: ${names.join(', ')}`);
  for (const classes of Object.values(referenceClasses))
    for (const { arbitrary } of classes) check(arbitrary, ({ validDate }) => assert.ok(Date.parse(validDate.end) > Date.now()));
  const amounts = checkoutClasses['CHK-1'].map(({ name }) => name).filter((name) => name.startsWith('amount '));
  assert.deepEqual(amounts, [
    'amount 100',
    'amount 999,999',
    'amount 1',
    'amount 99',
    'amount 9,999,999',
    'amount 10,000,000',
    'amount 2^31-1',
    'amount 2^31',
    'amount 2^53-1',
  ]);
  assert.ok(
    checkoutClasses['CHK-1'].filter(({ mayBeRefused }) => !mayBeRefused).every(({ name }) => name.startsWith('row ') || /^amount (100|999,999)$/.test(name)),
  );
});

test('every address the suite gives takes each form: its scheme in capitals, capitals and encoded characters in its path, past 255 and 2,000 characters (free to refuse, SEC-2) by a long path and a long query', () => {
  for (const classes of [callbackAddressClasses, webhookAddressClasses]) {
    const receiverPath = 'http://127.0.0.1:8080/hook';
    const tails = classes.map((inputClass) => {
      const { path, write } = fc.sample(inputClass.arbitrary, { seed, numRuns: 1 })[0];
      const written = write(`${receiverPath}${path}`);
      return { ...inputClass, written, tail: { path, query: written.slice(receiverPath.length + path.length) } };
    });
    const length = ({ tail }: (typeof tails)[number]) => tail.path.length + tail.query.length;
    assert.ok(tails.some(({ tail }) => /[A-Z]/.test(tail.path)) && tails.some(({ tail }) => /%[0-9A-F]{2}/.test(tail.path)));
    assert.ok(tails.some((one) => one.tail.path.length > 255) && tails.some((one) => one.tail.query.length > 255));
    assert.ok(tails.some((one) => length(one) > 2000 && one.tail.path.length > 1000 && one.tail.query.length > 1000));
    for (const one of tails) assert.equal(one.mayBeRefused, length(one) > 255 ? 'SEC-2' : undefined, one.name);
    for (const { written } of tails) assert.ok(URL.canParse(written), written);
    assert.ok(
      tails.some(({ written }) => written.startsWith('HTTP://')),
      'a scheme in capitals',
    );
  }
  assert.ok(actionUrlClasses.filter(({ mayBeRefused }) => mayBeRefused === 'SEC-2').length === 3);
});

test('the confirm helper is sent every class of paidAt, each inside the window it was drawn for, one before the reference was created', () => {
  const window = { start: Date.parse('2030-01-01T10:00:00Z'), end: Date.parse('2030-01-02T10:00:00Z') };
  const paidAts = confirmationClasses.map(({ name, arbitrary }) => ({ name, paidAt: fc.sample(arbitrary, { seed, numRuns: 1 })[0].paidAt(window) }));
  assert.ok(paidAts.some(({ paidAt }) => paidAt === undefined));
  for (const { name, paidAt } of paidAts) {
    if (paidAt === undefined) continue;
    assert.deepEqual(validateRequest('confirmPayment', { paidAt }), [], name);
    if (!name.includes('now')) assert.ok(Date.parse(paidAt) > window.start && Date.parse(paidAt) < window.end, name);
  }
  assert.ok(paidAts.some(({ paidAt }) => paidAt?.endsWith('+05:30')));
});

test('referenceShapeOf: the shape of 9 digits by their leading zeros, none for anything else', () => {
  assert.equal(referenceShapeOf('123456789'), 'no leading zero');
  assert.equal(referenceShapeOf('012345678'), 'one leading zero');
  assert.equal(referenceShapeOf('001234567'), 'several leading zeros');
  for (const other of ['12345678', '0123456789', 123456789, undefined]) assert.equal(referenceShapeOf(other), undefined);
});

test('the classes that show only one fault each: a # with no digits, an unknown or lower-case code, end before start only by instant', () => {
  const names = (clause: string) => classNamesByClause[clause];
  for (const name of ['phone "#"', 'phone "351#"', 'phone "#912345678"', 'phone "351#9123abc78"']) assert.ok(names('CHK-11').includes(name), name);
  for (const name of ['createRegistration with code "MB"', 'allowRegistration with code "DD"', 'createRegistration with code "cc"'])
    assert.ok(names('CHK-10').includes(name), name);
  const [asWritten] = brokenReferences[0].classes.filter(({ name }) => name === 'end before start by instant, after it as written');
  check(asWritten.arbitrary as fc.Arbitrary<{ validDate: { start: string; end: string } }>, ({ validDate: { start, end } }) =>
    assert.ok(Date.parse(end) < Date.parse(start) && end > start),
  );
});

test('classifyCheckout: every row of 4.1 and its edge cases is that row; with MW in place of CC a storing row is owed; a class labelled free is free, or owed where a draw has a row’s contents', () => {
  for (const [row, arbitrary] of Object.entries(checkoutVariants))
    check(arbitrary, (request) => assert.deepEqual(classifyCheckout(request), { kind: 'row', row }, JSON.stringify(request)));
  for (const arbitrary of Object.values(rowEdgeCases))
    check(arbitrary, (request) => assert.deepEqual(classifyCheckout(request), { kind: 'row', row: 'embedWeb' }));
  for (const row of ['storeMethod', 'storeWithConsent'] as const) {
    check(checkoutVariants[row], (request) =>
      assert.equal(
        classifyCheckout({ ...request, payment: { ...request.payment, paymentMethod: { ...request.payment!.paymentMethod, code: 'MW' } } }).kind,
        'owed',
      ),
    );
  }
  for (const classes of [...Object.values(checkoutClasses), ...Object.values(tokenizationClasses), ...Object.values(pageClasses), shownAmountClasses]) {
    for (const { name, arbitrary, mayBeRefused } of classes) {
      check(arbitrary, (request) => {
        const kind = classifyCheckout(request);
        if (!mayBeRefused) assert.equal(kind.kind, 'row', name);
        else
          assert.ok(
            (kind.kind === 'free' && kind.freedom === mayBeRefused) || (mayBeRefused === 'CHK-13' && (kind.kind === 'row' || kind.kind === 'owed')),
            `${name}: ${JSON.stringify(kind)}`,
          );
      });
    }
  }
  const atmPage = fc.sample(checkoutVariants.atmPage, { seed, numRuns: 1 })[0];
  assert.deepEqual(classifyCheckout({ ...atmPage, extra: 1 }), { kind: 'free', freedom: 'CHK-13', why: 'a valid checkout beyond the rows of 4.1' });
  assert.equal(classifyCheckout({ ...atmPage, page: { ...atmPage.page, language: 'EN' } }).kind, 'free');
  assert.deepEqual(classifyCheckout('"checkout"').kind, 'broken');
});

test('type corners: a row where the reference settles the form, free (as the class says) where it leaves it open or the text is past the everyday; every formatted leaf of a row has corners', () => {
  const rowOfClass = (name: string) =>
    rowOfLeaf(Object.keys(formatCorners).find((path) => name.startsWith(`${path.replace(/\.0\./, '[].')}:`)) ?? 'payment.summary');
  for (const { name, arbitrary, mayBeRefused } of [...textCornerClasses, ...formatCornerClasses]) {
    check(arbitrary, (request) => {
      assert.deepEqual(validateRequest('createCheckout', request), [], name);
      const kind = classifyCheckout(request);
      assert.deepEqual(
        mayBeRefused ? { kind: kind.kind, freedom: kind.kind === 'free' && kind.freedom } : kind,
        mayBeRefused ? { kind: 'free', freedom: mayBeRefused } : { kind: 'row', row: rowOfClass(name) },
        name,
      );
    });
  }
  assert.deepEqual([...formattedPaths].sort(), Object.keys(formatCorners).sort());
  assert.equal(rowOfLeaf('payment.customer.uuid'), 'storeWithConsent');
});

test('classifyCheckout: a broken checkout breaks the clause its case names', () => {
  for (const broken of brokenCheckouts) {
    check(broken.arbitrary, (request) => {
      const kind = classifyCheckout(request);
      assert.ok(kind.kind === 'broken' && kind.rules.some((rule) => rule.clause === broken.clause), `${broken.name}: ${JSON.stringify(kind)}`);
    });
  }
});

test('every framing of a body sends JSON with the same meaning, and its headers replace the suite’s whatever their case', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (body) => {
      for (const framing of bodyFramings) {
        const framed = frameRequest({ 'content-type': 'application/json', accept: 'application/json' }, body, framing);
        assert.deepEqual(JSON.parse(framed.text!), JSON.parse(JSON.stringify(body)), framing.name);
      }
    }),
  );
  const framing = (id: string) => bodyFramings.find((one) => one.id === id)!;
  const titled = frameRequest({ 'content-type': 'application/json', 'x-api-key': 'k' }, { a: 1 }, framing('title-case-names'));
  assert.deepEqual(titled.headers, { 'Content-Type': 'application/json', 'X-Api-Key': 'k' });
  const charset = frameRequest({ 'Content-Type': 'application/json' }, { a: 1 }, bodyFramings[0]);
  assert.deepEqual(charset.headers, { 'content-type': 'application/json; charset=utf-8' });
  assert.equal(frameRequest({}, undefined, framing('chunked')).chunked, false);
});

test('each framing is seen on the wire in a request the specs send framed so (a row with URLs, a reference with callbackUrl), and in none the suite frames otherwise (what the generated mutants refuse)', () => {
  const suiteHeaders = { 'content-type': 'application/json', accept: 'application/json', authorization: 'Basic x' };
  const bodies = [
    fc.sample(checkoutVariants.embedWeb, { seed: 1, numRuns: 1 })[0],
    fc.sample(validReference({ callback: 'with' }), { seed: 1, numRuns: 1 })[0],
  ];
  const onTheWire = (framed: ReturnType<typeof frameRequest>) => ({
    headers: Object.fromEntries(
      [...Object.entries(framed.headers), ...(framed.chunked ? [['transfer-encoding', 'chunked']] : [])].map(([name, value]) => [name.toLowerCase(), value]),
    ),
    headerNames: Object.keys(framed.headers),
    text: framed.text ?? '',
  });
  const plain = (body: unknown) => onTheWire({ headers: suiteHeaders, text: JSON.stringify(body), chunked: false });
  for (const framing of bodyFramings)
    for (const body of bodies) {
      assert.ok(framing.seenIn(onTheWire(frameRequest(suiteHeaders, body, framing))), `${framing.id} framing ${JSON.stringify(body)}`);
      assert.ok(!framing.seenIn(plain(body)), `${framing.id} in the suite's own framing of ${JSON.stringify(body)}`);
    }
});
