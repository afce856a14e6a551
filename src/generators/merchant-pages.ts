/**
 * The merchant pages of PAGE-2, varied like any input: 4.1 asks for a form element with class
 * paymentWidgets and a script whose src is checkoutUrl, and says nothing of the form's other
 * classes and attributes, of the script's place, or of the page's other forms.
 */

export interface MerchantPageForm {
  name: string;
  /** The form the widget fills, as the merchant writes it. */
  form: string;
  /** Whether the script comes before that form (as payment providers' own guides show it) rather than after. */
  scriptFirst: boolean;
}

// A merchant's page has forms of its own (a search, a newsletter) before the one the widget fills.
const otherForms = `<form class="search" action="/merchant/search"><input name="q" aria-label="Search"></form>
<form class="newsletter" method="post" action="/merchant/newsletter"><input name="email" aria-label="E-mail"></form>`;

export const merchantPageForms: MerchantPageForm[] = [
  {
    name: 'form.paymentWidgets among other forms of the merchant page',
    form: '<form class="paymentWidgets" data-testid="merchant-form"></form>',
    scriptFirst: false,
  },
  {
    name: 'the script before the form',
    form: '<form class="paymentWidgets" data-testid="merchant-form"></form>',
    scriptFirst: true,
  },
  {
    name: 'another class before paymentWidgets',
    form: '<form class="checkout-box paymentWidgets" data-testid="merchant-form"></form>',
    scriptFirst: false,
  },
  {
    name: 'another class after paymentWidgets, the class among spaces',
    form: '<form class="  paymentWidgets wide " data-testid="merchant-form"></form>',
    scriptFirst: false,
  },
  {
    name: "the form's attributes in another order, with an action and data attributes of the merchant's",
    form: '<form data-testid="merchant-form" action="/merchant/result" data-brands="VISA MASTER" class="paymentWidgets" id="pay"></form>',
    scriptFirst: true,
  },
];

/** The merchant page holding the form and a script whose src is the checkoutUrl. */
export function merchantPage(checkoutUrl: string, { form, scriptFirst }: MerchantPageForm): string {
  const script = `<script src="${checkoutUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"></script>`;
  return `<!doctype html>
<html lang="pt"><head><meta charset="utf-8"><title>Merchant shop</title></head>
<body><h1>Merchant shop</h1>
${otherForms}
${scriptFirst ? `${script}\n${form}` : `${form}\n${script}`}
</body></html>`;
}
