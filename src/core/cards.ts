/** Test cards: the Luhn check, brands by number prefix, and the reference sandbox's decline rule. */

/** A number of 12 to 19 digits whose Luhn checksum is 0. */
export function luhnValid(number: string): boolean {
  if (!/^[0-9]{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The reference sandbox's issuer declines every card number ending in this (e.g. 4000000000000002). */
export const declinedSuffix = '0002';

export function issuerDeclines(number: string): boolean {
  return number.endsWith(declinedSuffix);
}

const brandsByPrefix = [
  [/^4/, 'VISA'],
  [/^(5[1-5]|2(2[2-9][1-9]|2[3-9]|[3-6]|7[01]|720))/, 'MASTERCARD'],
  [/^3[47]/, 'AMEX'],
  [/^(6011|65|64[4-9])/, 'DISCOVER'],
  [/^35(2[89]|[3-8])/, 'JCB'],
  [/^3(0[0-5]|[68])/, 'DINERS'],
  [/^(5018|5020|5038|6304|6759|676[1-3])/, 'MAESTRO'],
] as const;
export type CardBrand = (typeof brandsByPrefix)[number][1] | 'UNKNOWN';

export function cardBrand(number: string): CardBrand {
  return brandsByPrefix.find(([prefix]) => prefix.test(number))?.[1] ?? 'UNKNOWN';
}
