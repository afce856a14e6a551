/** Cards and mobile wallets the suite pays with (shared/contracts/test-helpers.md). */
import fc from 'fast-check';
import { cardBrand, declinedSuffix, luhnValid } from '../core/cards.ts';
import type { Card, Wallet } from '../../schemas/generated/types.ts';
import { fullName, matching } from './values.ts';

export type { Card, Wallet };

export { cardBrand, declinedSuffix, luhnValid };

/** The brands the generators draw, with the prefixes and lengths they draw them with. */
const brands = [
  { brand: 'VISA', prefixes: ['4'], length: 16 },
  { brand: 'MASTERCARD', prefixes: ['51', '52', '53', '54', '55'], length: 16 },
  { brand: 'AMEX', prefixes: ['34', '37'], length: 15 },
] as const;

/**
 * Fills the one free digit (at index) so that the number passes Luhn: exactly one of 0-9 does,
 * whichever position is free.
 */
function withLuhnDigitAt(digits: string, index: number): string {
  for (let candidate = 0; candidate <= 9; candidate++) {
    const number = `${digits.slice(0, index)}${candidate}${digits.slice(index + 1)}`;
    if (luhnValid(number)) return number;
  }
  throw new Error(`no Luhn digit for ${digits}`);
}

/** One unit for every card number's digits: fast-check works out once, per unit, which of its dangerous strings a string of them can hold. */
const digit = fc.constantFrom(...'0123456789');

/** A Luhn-valid number of one brand; declined numbers end in 0002, the free digit sits before that suffix. */
function cardNumber(declined: boolean): fc.Arbitrary<string> {
  return fc
    .oneof(...brands.map(({ prefixes, length }) => fc.tuple(fc.constantFrom(...prefixes), fc.string({ unit: digit, minLength: length, maxLength: length }))))
    .map(([prefix, random]) => {
      const suffix = declined ? declinedSuffix : '';
      const body = `${prefix}${random.slice(prefix.length, random.length - suffix.length)}${suffix}`;
      return withLuhnDigitAt(body, body.length - suffix.length - 1);
    })
    .filter((number) => declined === number.endsWith(declinedSuffix));
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** A card with a Luhn-valid number, a holder and a future expiry; declined: true makes the issuer decline it. */
export function card(options: { declined?: boolean } = {}): fc.Arbitrary<Card> {
  const thisYear = new Date().getUTCFullYear();
  return fc.record({
    number: cardNumber(options.declined ?? false),
    holder: fullName(),
    expireMonth: fc.integer({ min: 1, max: 12 }).map(twoDigits),
    expireYear: fc.integer({ min: thisYear + 1, max: thisYear + 10 }).map(String),
  });
}

/** A mobile wallet: Portugal's country code (351) and others, and a 9-digit mobile number. */
export function wallet(): fc.Arbitrary<Wallet> {
  return fc.record({ countryCode: fc.constantFrom('351', '34', '33', '44', '1', '55'), number: matching('^9[1236][0-9]{7}$') });
}

/**
 * Another Luhn-valid number of the card's brand and length, ending in `ending` (by default its own
 * last four digits): the digit before the fitting one moved on by `step` (1 to 9: each step another
 * number), the one before the ending made to fit.
 */
export function anotherNumberLike(number: string, ending = number.slice(-4), step = 1): string {
  const fitting = number.length - ending.length - 1;
  const moved = fitting - 1;
  return withLuhnDigitAt(`${number.slice(0, moved)}${(Number(number[moved]) + step) % 10}0${ending}`, fitting);
}

/** Another wallet number ending in the same three digits: a middle digit moved on. */
const anotherWalletNumberLike = (number: string) => `${number.slice(0, 3)}${(Number(number[3]) + 1) % 10}${number.slice(4)}`;

/**
 * The cards and wallets with pairs among them that agree on what a list shows of a method but are
 * other means, so that a list keyed or de-duplicated by a shown field loses one. In this order, as
 * far as there are means to pair with the first: a card ending in the first's four digits with
 * another holder or expiry; a card alike in every shown field (brand, last four digits, holder,
 * expiry); a card of the first's brand, holder and expiry ending otherwise; a wallet of the first's
 * country code ending in its three digits (alike in every shown field); a wallet of its country code
 * ending otherwise.
 */
export function alikeInPairs(cards: readonly Card[], wallets: readonly Wallet[]): { cards: Card[]; wallets: Wallet[] } {
  const [card, ...otherCards] = cards;
  const [wallet, ...otherWallets] = wallets;
  const endingAlike = (other: Card): Card => {
    const alike = { ...other, number: anotherNumberLike(card.number) };
    const sameShown = alike.holder === card.holder && alike.expireMonth === card.expireMonth && alike.expireYear === card.expireYear;
    return sameShown ? { ...alike, expireMonth: twoDigits((Number(card.expireMonth) % 12) + 1) } : alike;
  };
  const cardPairs = [
    endingAlike,
    (): Card => ({ ...card, number: anotherNumberLike(card.number, card.number.slice(-4), 2) }),
    (other: Card): Card => ({ ...card, number: anotherNumberLike(card.number, other.number.slice(-4)) }),
  ];
  const walletPairs = [
    (): Wallet => ({ ...wallet, number: anotherWalletNumberLike(wallet.number) }),
    (other: Wallet): Wallet => ({ ...other, countryCode: wallet.countryCode }),
  ];
  return {
    cards: card ? [card, ...otherCards.map((other, at) => cardPairs[at]?.(other) ?? other)] : [],
    wallets: wallet ? [wallet, ...otherWallets.map((other, at) => walletPairs[at]?.(other) ?? other)] : [],
  };
}
