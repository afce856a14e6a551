/**
 * Arbitraries of the documented field types of section 2, and the pure helpers behind them.
 * Valid values use only what the reference shows (listed values, seen values), so that a
 * conforming target accepts every one of them.
 */
import fc from 'fast-check';
import { everydayAmounts } from '../core/checkout-rows.ts';

/** Everyday amounts (everydayAmounts): the requests that must be accepted stay inside them. */
export const amount = (): fc.Arbitrary<number> => fc.integer(everydayAmounts);

/** The edges of the everyday amounts, which a row of 4.1 must be accepted with. */
export const everydayAmountEdges = [everydayAmounts.min, everydayAmounts.max] as const;

/**
 * Amounts at the edges a target may refuse (SEC-2): 1 and 99 minor units, Multibanco's limit and past
 * it, the largest 32-bit integer and the first past it, the largest integer a JSON number holds exactly.
 */
export const extremeAmounts = [1, 99, 9_999_999, 10_000_000, 2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER] as const;
export const extremeAmount = (): fc.Arbitrary<number> => fc.constantFrom(...extremeAmounts);

/** Whether an amount in minor units comes back another through major units as a float cut to whole minor units (820 → 8.2 → 819). */
export const lostThroughFloatMajorUnits = (amount: number) => Math.floor((amount / 100) * 100) !== amount;

/**
 * Everyday amounts whose digits formatting gets wrong: each minor part 01 to 09 (a zero lost: 2.1
 * for 2.01), trailing zeros (8.2 for 8.20, 1000 for 1,000.00), and, all but the last, amounts that a
 * float of major units cut back to minor units charges a unit less (lostThroughFloatMajorUnits), in
 * every width of everyday amounts.
 */
export const digitPatternAmounts = [201, 402, 1_003, 804, 3_205, 1_606, 207, 1_608, 25_609, 820, 1_999, 102_410, 100_000] as const;

/** How the report names an amount of digitPatternAmounts: "amount 820 (8.20, 819 through a float)". */
export function digitPatternName(amount: number): string {
  const major = `${groupedDigits(Math.floor(amount / 100))}.${String(amount % 100).padStart(2, '0')}`;
  const lost = lostThroughFloatMajorUnits(amount) ? `, ${Math.floor((amount / 100) * 100)} through a float` : '';
  return `${amountName(amount)} (${major}${lost})`;
}

/** How the report names an amount class: "amount 2^31", "amount 9,999,999". */
export function amountName(value: number): string {
  const power = Math.log2(value + 1);
  if (value > 999_999_999 && Number.isInteger(power)) return `amount 2^${power}-1`;
  if (value > 999_999_999 && Number.isInteger(Math.log2(value))) return `amount 2^${Math.log2(value)}`;
  return `amount ${groupedDigits(value)}`;
}

/** A whole number with a comma between thousands, as toLocaleString('en') writes it, without its first call's loading of number formats (about 12 ms in every process that names the classes). */
export const groupedDigits = (value: number) => String(value).replace(/\B(?=(\d{3})+$)/g, ',');

const asciiFirstNames = ['Ana', 'Jose', 'Maria', 'Rui', 'Ines', 'Pedro'];
const nonAsciiFirstNames = ['José', 'João', 'Conceição', 'Inês', 'Zoë', 'Łukasz', 'Søren'];
const asciiLastNames = ['Silva', 'Santos', 'Ferreira', 'Costa', 'Pereira'];
const nonAsciiLastNames = ['Gonçalves', 'Simões', 'Müller', 'Núñez', 'Brandão', 'Åberg'];

export const firstName = (options: { nonAscii?: boolean } = {}) =>
  fc.constantFrom(...(options.nonAscii ? nonAsciiFirstNames : [...asciiFirstNames, ...nonAsciiFirstNames]));
export const lastName = (options: { nonAscii?: boolean } = {}) =>
  fc.constantFrom(...(options.nonAscii ? nonAsciiLastNames : [...asciiLastNames, ...nonAsciiLastNames]));
export const fullName = (options: { nonAscii?: boolean } = {}) => fc.tuple(firstName(options), lastName(options)).map(([first, last]) => `${first} ${last}`);

/** An arbitrary that builds the one it stands for when first drawn from or shrunk with, and then is that one. */
class BuiltOnUse<T> extends fc.Arbitrary<T> {
  private built: fc.Arbitrary<T> | undefined;

  constructor(private readonly build: () => fc.Arbitrary<T>) {
    super();
  }

  private get arbitrary(): fc.Arbitrary<T> {
    return (this.built ??= this.build());
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.arbitrary.generate(random, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.arbitrary.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.arbitrary.shrink(value, context);
  }
}

const patterns = new Map<string, fc.Arbitrary<string>>();
/**
 * fc.stringMatching(new RegExp(source)), built once per source and only once drawn from: building
 * one costs milliseconds (it tries fast-check's list of dangerous strings against every character
 * class), every process that loads the generators declares them all (Playwright's, to list the
 * tests, and every worker's), and most draw from few.
 */
export function matching(source: string): fc.Arbitrary<string> {
  if (!patterns.has(source)) patterns.set(source, new BuiltOnUse(() => withoutStackTraces(() => fc.stringMatching(new RegExp(source)))));
  return patterns.get(source)!;
}

/**
 * Runs a function that throws and catches many errors, without capturing their stacks. fast-check
 * tells which dangerous strings a character class matches by the errors its unmappers throw, some
 * hundreds per pattern, and Playwright's workers capture 200 frames of every error's stack: most
 * of a pattern's building (about 0.1 s of CPU in every worker).
 */
function withoutStackTraces<T>(body: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return body();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

const lowerWord = (maxLength = 8) => matching(`^[a-z][a-z0-9]{0,${maxLength - 1}}$`);

export const hostName = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.array(lowerWord(), { minLength: 1, maxLength: 2 }), fc.constantFrom('pt', 'com', 'example', 'shop'))
    .map(([labels, tld]) => [...labels, tld].join('.'));

export const email = (): fc.Arbitrary<string> =>
  fc.tuple(fc.array(lowerWord(), { minLength: 1, maxLength: 2 }), hostName()).map(([local, host]) => `${local.join('.')}@${host}`);

/** `<country_code>#<number>`, as 351#961234567. */
export const phoneNumber = (): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom('351', '34', '33', '44', '1'), matching('^[1-9][0-9]{8}$')).map(([country, number]) => `${country}#${number}`);

export const countryCode = () => fc.constantFrom('PT', 'ES', 'FR', 'DE', 'GB', 'BR');

const queryString = () =>
  fc
    .array(fc.tuple(lowerWord(6), matching('^[a-z0-9]{1,8}$')), { minLength: 1, maxLength: 3 })
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`);
const urlPath = () => fc.array(lowerWord(), { maxLength: 3 }).map((segments) => `/${segments.join('/')}`);

const fragment = () => lowerWord(8).map((word) => `#${word}`);
const optional = (part: fc.Arbitrary<string>, present: boolean | undefined) =>
  present === undefined ? fc.option(part, { nil: '' }) : present ? part : fc.constant('');

/** An https URL, with or without a query string and a fragment of its own. */
export const httpsUrl = (options: { query?: boolean; fragment?: boolean } = {}): fc.Arbitrary<string> =>
  fc
    .tuple(hostName(), urlPath(), optional(queryString(), options.query), optional(fragment(), options.fragment ?? false))
    .map(([host, path, query, hash]) => `https://${host}${path}${query}${hash}`);

/** A custom scheme: a word (myshop) or a reversed domain with dots (com.shop.app), never http(s). */
const customScheme = () =>
  fc
    .oneof(
      matching('^[a-z][a-z0-9]{2,9}$'),
      fc.array(lowerWord(6), { minLength: 2, maxLength: 4 }).map((labels) => labels.join('.')),
    )
    .filter((scheme) => !scheme.startsWith('http'));

/** A mobile application's deep link, such as myshop://paid?order=12 or com.shop.app://paid#done. */
export const deepLink = (options: { query?: boolean; fragment?: boolean } = {}): fc.Arbitrary<string> =>
  fc
    .tuple(customScheme(), lowerWord(), optional(queryString(), options.query), optional(fragment(), options.fragment))
    .map(([scheme, host, query, hash]) => `${scheme}://${host}${query}${hash}`);

/** Where the customer is sent after paying: a web address or a deep link, some with a query of their own. */
export const actionUrl = (): fc.Arbitrary<string> => fc.oneof(httpsUrl(), deepLink());

/** UTC offsets as ISO 8601 writes them; `Z` and `+00:00` are both UTC. */
export const utcOffsets = ['Z', '+00:00', '+01:00', '-03:00', '+05:30', '+05:45', '-09:30', '+14:00', '-12:00'] as const;
export type UtcOffset = (typeof utcOffsets)[number];

function offsetMinutes(offset: UtcOffset): number {
  if (offset === 'Z') return 0;
  const [hours, minutes] = offset.slice(1).split(':').map(Number);
  return (offset.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

/** The instant written as local time at that offset, to the second (2030-01-01T10:30:00+05:30), or with these digits of a second after it (…:00.123456+05:30). */
export function formatWithOffset(instant: Date | number, offset: UtcOffset, fraction = ''): string {
  const local = new Date(new Date(instant).getTime() + offsetMinutes(offset) * 60_000);
  return `${local.toISOString().slice(0, 19)}${fraction && `.${fraction}`}${offset}`;
}

/** Fractions of a second a timestamp may carry, by the unit of their last digit: ISO 8601 bounds their digits nowhere. */
export const secondFractions = {
  tenths: '5',
  milliseconds: '123',
  microseconds: '123456',
  nanoseconds: '123456789',
  // Rounded to the millisecond, the next second: a target may round or cut (REF-5).
  'tenths of a millisecond, rounding up to the next second': '9995',
} as const;

/** Instants to the second, 2020 to 2040. */
export const instant = (): fc.Arbitrary<Date> =>
  fc.integer({ min: Date.UTC(2020, 0, 1) / 1000, max: Date.UTC(2040, 0, 1) / 1000 }).map((seconds) => new Date(seconds * 1000));

export const utcOffset = () => fc.constantFrom(...utcOffsets);

/** An ISO 8601 timestamp with an offset, in any of several offsets. */
export const timestampWithOffset = (): fc.Arbitrary<string> => fc.tuple(instant(), utcOffset()).map(([at, offset]) => formatWithOffset(at, offset));
