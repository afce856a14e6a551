/** Test cards: any Luhn-valid number of 12 to 19 digits; numbers ending in 0002 are declined. */

export function passesLuhn(number: string): boolean {
  if (!/^[0-9]{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The issuer declines every card whose number ends in 0002 (e.g. 4000000000000002). */
export function issuerDeclines(number: string): boolean {
  return number.endsWith('0002');
}

const brandsByPrefix: [RegExp, string][] = [
  [/^4/, 'VISA'],
  [/^(5[1-5]|2(2[2-9][1-9]|2[3-9]|[3-6]|7[01]|720))/, 'MASTERCARD'],
  [/^3[47]/, 'AMEX'],
  [/^(6011|65|64[4-9])/, 'DISCOVER'],
  [/^35(2[89]|[3-8])/, 'JCB'],
  [/^3(0[0-5]|[68])/, 'DINERS'],
  [/^(5018|5020|5038|6304|6759|676[1-3])/, 'MAESTRO'],
];

export function cardBrand(number: string): string {
  return brandsByPrefix.find(([prefix]) => prefix.test(number))?.[1] ?? 'UNKNOWN';
}
