/** Mutants of the PML clauses: the list of stored payment methods (2.4, 4.2). */
import { answerWhen, editData, editStoredMethods, nextDigits, renamed } from './edits.ts';
import type { Mutant } from './kinds.ts';

export const storedMethodMutants: Mutant[] = [
  {
    name: 'list-accept-taken-literally',
    clause: 'PML-1',
    description: 'A list asked for with any Accept but exactly `application/json` (`*/*`, several types) is answered 406.',
    transform: answerWhen((request) => request.route === 'listMethods' && request.headers.accept !== 'application/json', 406),
  },
  {
    name: 'methods-list-always-empty',
    clause: 'PML-1',
    // Read from outside, a list that drops every method is a target that stored none of them.
    disturbs: ['TOK-1', 'TOK-2'],
    description: 'The list is always empty, whatever is stored.',
    transform: editData(['listMethods'], (data) => Array.isArray(data) && data.splice(0)),
  },
  {
    name: 'stored-method-uuid-not-a-uuid',
    clause: 'PML-2',
    description: "A stored method's `uuid` is written without dashes.",
    transform: editStoredMethods((method) => typeof method.uuid === 'string' && (method.uuid = method.uuid.replace(/-/g, ''))),
  },
  {
    name: 'last4Digits-spelled-correctly',
    clause: 'PML-3',
    description: "A card carries `last4Digits`, not the reference's `last4Digitis`.",
    transform: editStoredMethods(renamed('last4Digitis', 'last4Digits')),
  },
  {
    name: 'expire-month-one-digit',
    clause: 'PML-3',
    description: '`expireMonth` `07` is written `7`.',
    transform: editStoredMethods((method) => typeof method.expireMonth === 'string' && (method.expireMonth = method.expireMonth.replace(/^0/, ''))),
  },
  {
    name: 'last3Digits-spelled-correctly',
    clause: 'PML-4',
    description: "A wallet carries `last3Digits`, not the reference's `last3Digitis`.",
    transform: editStoredMethods(renamed('last3Digitis', 'last3Digits')),
  },
  {
    name: 'stored-last-digits-wrong',
    clause: 'PML-5',
    description: 'A stored card shows other last four digits than the card paid with.',
    transform: editStoredMethods((method) => typeof method.last4Digitis === 'string' && (method.last4Digitis = nextDigits(method.last4Digitis))),
  },
  {
    name: 'stored-methods-share-uuid',
    clause: 'PML-6',
    description: 'Every stored method of a list has the `uuid` of the first.',
    transform: editData(['listMethods'], (data) => Array.isArray(data) && data.forEach((method) => method && (method.uuid = data[0].uuid))),
  },
  {
    name: 'methods-list-first-page-only',
    clause: 'PML-1',
    description: 'The list shows the first ten stored methods only, with no sign of more.',
    transform: editData(['listMethods'], (data) => Array.isArray(data) && data.splice(10)),
  },
  {
    name: 'wallet-country-code-fixed',
    clause: 'PML-5',
    description: 'Every stored wallet shows the country code 351, whatever the wallet paid with.',
    transform: editStoredMethods((method) => method.type === 'MW' && (method.countryCode = '351')),
  },
  {
    name: 'amex-last-digits-reversed',
    clause: 'PML-5',
    description: 'A stored AMEX card (15 digits) shows its last four digits in reverse order; 16-digit cards are right.',
    transform: editStoredMethods((method) => {
      const digits = method.last4Digitis;
      if (method.type === 'CC' && method.brand === 'AMEX' && typeof digits === 'string') method.last4Digitis = [...digits].reverse().join('');
    }),
  },
  {
    name: 'short-country-codes-padded',
    clause: 'PML-5',
    description: 'A stored wallet of a one- or two-digit country code (1, 34) shows it padded to three digits (001, 034); 351 is right.',
    transform: editStoredMethods((method) => {
      if (method.type === 'MW' && typeof method.countryCode === 'string') method.countryCode = method.countryCode.padStart(3, '0');
    }),
  },
];
