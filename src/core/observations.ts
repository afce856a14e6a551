/**
 * What the INFO clauses record where the reference says "not shown": descriptions of what a target
 * did, never problems (the checks, in src/checks, judge).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The provider's published signature (provider-facts.md), observed only (EVT-5):
 * `PayPay-Signature: hash=<hex>,ts=<unix seconds>`, HMAC-SHA256 of the raw body followed by ts.
 */
export function observeSignature(headers: Record<string, string>, rawBody: string, secret: string): { present: boolean; valid: boolean | null; note: string } {
  const header = Object.entries(headers).find(([name]) => name.toLowerCase() === 'paypay-signature')?.[1];
  if (!header) return { present: false, valid: null, note: 'no PayPay-Signature header' };
  const parts = Object.fromEntries(header.split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  if (!parts.hash || !parts.ts) return { present: true, valid: false, note: `PayPay-Signature without hash and ts: ${header}` };
  const expected = createHmac('sha256', secret)
    .update(rawBody + parts.ts)
    .digest();
  const given = Buffer.from(parts.hash, 'hex');
  const valid = given.length === expected.length && timingSafeEqual(given, expected);
  return { present: true, valid, note: valid ? 'signature verifies' : 'signature does not verify with the profile secret' };
}
