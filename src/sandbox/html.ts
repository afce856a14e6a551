import type { PayMethod } from './payments.ts';
import type { CheckoutRow, PaymentRow } from './store.ts';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Minor units as the customer reads them: 500 -> "5,00 €". */
export function formatAmount(minorUnits: number): string {
  const sign = minorUnits < 0 ? '-' : '';
  const absolute = Math.abs(minorUnits);
  return `${sign}${Math.floor(absolute / 100)},${String(absolute % 100).padStart(2, '0')} €`;
}

// Class names carry a prefix: the same markup is rendered inside merchants' pages by the widget.
const styles = `
.sbx-pay{font-family:system-ui,sans-serif;max-width:28rem;display:grid;gap:.75rem}
.sbx-pay label{display:grid;gap:.25rem}
.sbx-pay fieldset{display:flex;gap:1rem;border:0;padding:0}
.sbx-pay fieldset label{display:flex;gap:.4rem;align-items:center}
.sbx-pay .sbx-consent{display:flex;gap:.4rem;align-items:center}
.sbx-pay .sbx-wallet{display:none}
.sbx-pay:has([data-testid=method-wallet]:checked) .sbx-wallet{display:grid;gap:.75rem}
.sbx-pay:has([data-testid=method-wallet]:checked) .sbx-card{display:none}
.sbx-error{color:#b00020}
`;

const methodInputs: Record<'CC' | 'MW', { label: string; testId: string }> = {
  CC: { label: 'Card', testId: 'method-card' },
  MW: { label: 'MB WAY', testId: 'method-wallet' },
};

function field(label: string, name: string, testId: string, attributes = '') {
  return `<label>${label}<input name="${name}" data-testid="${testId}" ${attributes}></label>`;
}

/** The fields of the card/wallet form, without the form element (the widget puts them in the merchant's form). */
export function paymentFields(checkout: CheckoutRow, methods: PayMethod[], error?: string): string {
  const choices = methods
    .filter((method): method is 'CC' | 'MW' => method !== 'MB')
    .map((method, index) => {
      const { label, testId } = methodInputs[method];
      return `<label><input type="radio" name="method" value="${method}" data-testid="${testId}"${index === 0 ? ' checked' : ''}> ${label}</label>`;
    })
    .join('');
  const consent = checkout.allow_registration
    ? '<label class="sbx-consent"><input type="checkbox" name="storeConsent" value="on" data-testid="store-consent"> Save this payment method for future purchases</label>'
    : '';
  return `<style>${styles}</style><div class="sbx-pay">
${error ? `<p class="sbx-error" role="alert">${escapeHtml(error)}</p>` : ''}
<p>Amount: <strong data-testid="amount">${formatAmount(checkout.amount)}</strong></p>
<fieldset><legend>Pay with</legend>${choices}</fieldset>
${
  methods.includes('CC')
    ? `<div class="sbx-card">
${field('Card number', 'cardNumber', 'card-number', 'inputmode="numeric" autocomplete="cc-number"')}
${field('Card holder', 'cardHolder', 'card-holder', 'autocomplete="cc-name"')}
${field('Expiry month (MM)', 'expireMonth', 'expire-month', 'inputmode="numeric" maxlength="2" autocomplete="cc-exp-month"')}
${field('Expiry year (YYYY)', 'expireYear', 'expire-year', 'inputmode="numeric" maxlength="4" autocomplete="cc-exp-year"')}
</div>`
    : ''
}
${
  methods.includes('MW')
    ? `<div class="sbx-wallet"${methods.includes('CC') ? '' : ' style="display:grid;gap:.75rem"'}>
${field('Country code', 'walletCountryCode', 'wallet-country-code', 'inputmode="numeric" value="351"')}
${field('Phone number', 'walletNumber', 'wallet-number', 'inputmode="numeric" autocomplete="tel-national"')}
</div>`
    : ''
}
${consent}
<button type="submit" data-testid="pay-button">Pay ${formatAmount(checkout.amount)}</button>
</div>`;
}

/** The ATM payment page's content: entity, 9-digit reference, amount. */
export function atmDetails(payment: PaymentRow): string {
  return `<div class="sbx-atm">
<p>Pay at an ATM or in online banking (Payments of services).</p>
<dl>
<dt>Entity</dt><dd data-testid="atm-entity">${escapeHtml(payment.entity)}</dd>
<dt>Reference</dt><dd data-testid="atm-reference">${escapeHtml(payment.reference)}</dd>
<dt>Amount</dt><dd data-testid="amount">${formatAmount(payment.amount)}</dd>
<dt>Valid until</dt><dd>${escapeHtml(payment.valid_end)}</dd>
</dl>
</div>`;
}

/** What the page styles differ in: words and markup. The routes, and the fields the form posts, are the same. */
export interface PageStyle {
  /** The pages' lang; null: the checkout's page.language. */
  language: string | null;
  titles: Record<'pay' | 'atm' | 'notFound', string>;
  /** The titles of a checkout that is no longer payable, by state. */
  outcomes: Record<string, string>;
  /** The sentence under such a title. */
  processed: string;
  noCheckout(checkoutId: string): string;
  paymentFields(checkout: CheckoutRow, methods: PayMethod[], error?: string): string;
  atmDetails(payment: PaymentRow): string;
  /** The hosted page's form around paymentFields. */
  form(action: string, fields: string): string;
  /** Statements the widget runs on the merchant's `form` once it posts to the sandbox. */
  widgetSetup: string;
  /** The answer to a paid checkout with an action redirect; without it, a 303 with Location. */
  redirectPage?(url: string, title: string): string;
}

export const plainStyle: PageStyle = {
  language: null,
  titles: { pay: 'Payment', atm: 'ATM payment', notFound: 'Checkout not found' },
  outcomes: { PaymentConfirmed: 'Payment done', PaymentDeclined: 'Payment declined' },
  processed: 'This checkout has already been processed.',
  noCheckout: (checkoutId) => `There is no checkout ${escapeHtml(checkoutId)}.`,
  paymentFields,
  atmDetails,
  form: (action, fields) => `<form method="post" action="${action}" data-testid="payment-form">${fields}</form>`,
  widgetSetup: "form.setAttribute('data-testid', 'payment-form');",
};

export function page(title: string, language: string | null, content: string): string {
  return `<!doctype html>
<html lang="${escapeHtml((language ?? 'en').toLowerCase())}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1>
${content}
</main></body>
</html>`;
}
