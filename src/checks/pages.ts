import { show, type Problem } from './problem.ts';

/**
 * PAGE-3/PAGE-4: where the customer is sent after paying is the action URL (scheme, host, path
 * and its own query kept) with the checkout id appended as `id`.
 */
export function checkRedirect(redirectUrl: string | null | undefined, context: { actionUrl: string; checkoutId: string; clause: string }): Problem[] {
  const fail = (expected: string): Problem[] => [
    { clause: context.clause, message: `redirect after payment: expected ${expected}, got ${show(redirectUrl)}` },
  ];
  if (!redirectUrl || !URL.canParse(redirectUrl)) return fail(`the action URL ${context.actionUrl} with id=${context.checkoutId}`);
  const [got, action] = [new URL(redirectUrl), new URL(context.actionUrl)];
  const base = (url: URL) => `${url.protocol}//${url.host}${url.pathname}`;
  if (base(got) !== base(action)) return fail(`the action URL ${base(action)}`);
  if (got.searchParams.get('id') !== context.checkoutId) return fail(`query parameter id=${context.checkoutId}`);
  for (const [name, value] of action.searchParams) {
    if (!got.searchParams.getAll(name).includes(value)) return fail(`the action URL's own query parameter ${name}=${value} kept`);
  }
  return [];
}

/** CHK-8: how an amount in minor units reads in major units on a page: 500 → "5,00" or "5.00". */
export function majorUnits(amount: number): RegExp {
  const major = Math.floor(amount / 100).toLocaleString('en-US').replace(/,/g, '[ .,\u00a0]?');
  const minor = String(amount % 100).padStart(2, '0');
  return new RegExp(`(^|[^0-9])${major}[.,]${minor}([^0-9]|$)`);
}

export function checkAmountShown(text: string, context: { amount: number; where: string }): Problem[] {
  if (majorUnits(context.amount).test(text)) return [];
  return [{ clause: 'CHK-8', message: `${context.where}: expected the amount ${context.amount} (minor units) shown as ${context.amount / 100} in major units, got ${show(text)}` }];
}
