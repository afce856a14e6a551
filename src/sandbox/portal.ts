/**
 * The 'portal' page style: the hosted pages as a real payment provider builds them, to prove the
 * suite on markup that is not the plain style's. Portuguese, no data-testid (ids, names and roles
 * only), the card fields in an iframe, and a script rather than a 303 to leave for the action URL.
 */
import { escapeHtml, formatAmount, page, type PageStyle } from './html.ts';
import type { PayMethod } from './payments.ts';
import type { CheckoutRow, PaymentRow } from './store.ts';

const styles = `
.portal-pay{font-family:system-ui,sans-serif;max-width:28rem;display:grid;gap:.75rem}
.portal-pay label{display:grid;gap:.25rem}
.portal-pay fieldset{display:flex;gap:1rem;border:0;padding:0}
.portal-pay fieldset label,.portal-pay .portal-consent{display:flex;gap:.4rem;align-items:center}
.portal-pay iframe{border:0;width:100%;height:15rem}
.portal-pay:has(input[name=method][value=MW]:checked) .portal-card{display:none}
.portal-pay:has(input[name=method][value=CC]:checked) .portal-wallet{display:none}
.portal-error{color:#b00020}
`;

const methodLabels: Record<PayMethod, string> = { CC: 'Cartão', MW: 'MB WAY', MB: 'Multibanco' };

/** The inputs of the card-fields iframe, by the name of the parent form's hidden input that carries each one. */
const cardInputs = {
  cardNumber: { id: 'numero', label: 'Número do cartão', attributes: 'inputmode="numeric" autocomplete="cc-number"' },
  cardHolder: { id: 'titular', label: 'Titular do cartão', attributes: 'autocomplete="cc-name"' },
  expireMonth: { id: 'mes', label: 'Mês de validade', attributes: 'inputmode="numeric" maxlength="2" autocomplete="cc-exp-month" placeholder="MM"' },
  expireYear: { id: 'ano', label: 'Ano de validade', attributes: 'inputmode="numeric" maxlength="4" autocomplete="cc-exp-year" placeholder="AAAA"' },
};
const cardNames = Object.keys(cardInputs);

/**
 * `function (form)`: keeps the form's hidden card inputs equal to what the iframe posts. One
 * mechanism for the hosted page and the widget, where the iframe is cross-origin to the merchant's
 * page and cannot be read from it.
 */
const followCardFields = `function (form) {
  window.addEventListener('message', function (event) {
    var frame = form.querySelector('iframe[name=card-fields]');
    if (!frame || event.source !== frame.contentWindow || event.origin !== new URL(frame.src).origin) return;
    ${JSON.stringify(cardNames)}.forEach(function (name) {
      form.querySelector('input[type=hidden][name=' + name + ']').value = event.data[name];
    });
  });
}`;

/** The document of the card-fields iframe: the four inputs, posted to the embedding page on every change. */
export function cardFieldsPage(): string {
  const ids = Object.fromEntries(Object.entries(cardInputs).map(([name, { id }]) => [name, id]));
  return `<!doctype html>
<html lang="pt">
<head><meta charset="utf-8"><title>Dados do cartão</title>
<style>body{margin:0;font-family:system-ui,sans-serif;display:grid;gap:.75rem}label{display:grid;gap:.25rem}</style></head>
<body>
${Object.values(cardInputs)
  .map(({ id, label, attributes }) => `<label>${label}<input id="${id}" ${attributes}></label>`)
  .join('\n')}
<script>
var ids = ${JSON.stringify(ids)};
// The embedding page: the hosted page, or the merchant's page with the widget. Only it receives the card.
var parentOrigin = new URL(document.referrer).origin;
function send() {
  var values = {};
  for (var name in ids) values[name] = document.getElementById(ids[name]).value;
  parent.postMessage(values, parentOrigin);
}
addEventListener('input', send);
addEventListener('change', send);
</script>
</body>
</html>`;
}

/** The portal style; the card-fields iframe is at an absolute URL, as the widget puts it in another origin's page. */
export function portalStyle(baseUrl: () => string): PageStyle {
  function paymentFields(checkout: CheckoutRow, methods: PayMethod[], error?: string): string {
    const chooser =
      methods.length === 1
        ? `<input type="hidden" name="method" value="${methods[0]}">`
        : `<fieldset><legend>Pagar com</legend>${methods
            .map(
              (method, index) => `<label><input type="radio" name="method" value="${method}"${index === 0 ? ' checked' : ''}> ${methodLabels[method]}</label>`,
            )
            .join('')}</fieldset>`;
    const cardFieldsUrl = `${baseUrl()}/pay/${encodeURIComponent(checkout.id)}/card-fields`;
    const card = `<div class="portal-card">
<iframe name="card-fields" title="Dados do cartão" src="${cardFieldsUrl}"></iframe>
${cardNames.map((name) => `<input type="hidden" name="${name}">`).join('')}
</div>`;
    const wallet = `<div class="portal-wallet">
<label>Indicativo<input id="indicativo" name="walletCountryCode" inputmode="numeric" value="351"></label>
<label>Número de telemóvel<input id="telemovel" name="walletNumber" inputmode="numeric" autocomplete="tel-national"></label>
</div>`;
    const consent = checkout.allow_registration
      ? '<label class="portal-consent"><input type="checkbox" id="guardar" name="storeConsent" value="on"> Guardar este método de pagamento para compras futuras</label>'
      : '';
    return `<style>${styles}</style><div class="portal-pay">
${error ? `<p class="portal-error" role="alert">Pagamento recusado: ${escapeHtml(error)}</p>` : ''}
<p>Montante: <span id="montante">${formatAmount(checkout.amount)}</span></p>
${chooser}
${methods.includes('CC') ? card : ''}
${methods.includes('MW') ? wallet : ''}
${consent}
<button type="submit" id="pagar">Pagar ${formatAmount(checkout.amount)}</button>
</div>`;
  }

  return {
    language: 'pt',
    titles: { pay: 'Pagamento', atm: 'Pagamento por Multibanco', notFound: 'Checkout não encontrado' },
    outcomes: { PaymentConfirmed: 'Pagamento efetuado', PaymentDeclined: 'Pagamento recusado' },
    processed: 'Este checkout já foi processado.',
    noCheckout: (checkoutId) => `Não existe nenhum checkout ${escapeHtml(checkoutId)}.`,
    paymentFields,
    atmDetails: (payment: PaymentRow) => `<div class="portal-atm">
<p>Pague num caixa Multibanco ou no homebanking (Pagamento de serviços).</p>
<dl>
<dt>Entidade</dt><dd id="entidade">${escapeHtml(payment.entity)}</dd>
<dt>Referência</dt><dd id="referencia">${escapeHtml(payment.reference.replace(/\d{3}(?=\d)/g, '$& '))}</dd>
<dt>Montante</dt><dd id="montante">${formatAmount(payment.amount)}</dd>
<dt>Válido até</dt><dd>${escapeHtml(payment.valid_end)}</dd>
</dl>
</div>`,
    form: (action, fields) =>
      `<form method="post" action="${action}" id="checkout-form">${fields}</form>
<script>(${followCardFields})(document.getElementById('checkout-form'));</script>`,
    widgetSetup: `(${followCardFields})(form);`,
    // A script, not a link: deep links (com.shop.app://paid?…) are followed the same way. "<" escaped: the URL is inside <script>.
    redirectPage: (url, title) =>
      page(title, 'pt', `<p>A redirecionar…</p>\n<script>location.replace(${JSON.stringify(url).replace(/</g, '\\u003c')})</script>`),
  };
}
