import type { FastifyInstance, FastifyReply } from 'fastify';
import { path, type SandboxContext } from '../context.ts';
import { Refusal } from '../errors.ts';
import { escapeHtml, page, plainStyle, type PageStyle } from '../html.ts';
import { offeredMethods, parsePayRequest } from '../payments.ts';
import { cardFieldsPage, portalStyle } from '../portal.ts';
import type { CheckoutRow } from '../store.ts';

/** The hosted form's fields, as the body of the pay test helper. */
function payRequestFromForm(fields: Record<string, string>) {
  return {
    outcome: 'success',
    method: fields.method,
    card: { number: fields.cardNumber, holder: fields.cardHolder, expireMonth: fields.expireMonth, expireYear: fields.expireYear },
    wallet: { countryCode: fields.walletCountryCode, number: fields.walletNumber },
    storeConsent: fields.storeConsent === 'on',
  };
}

/** The hosted pages at checkoutUrl, the embed widget, and the form they post. */
export function pageRoutes(app: FastifyInstance, { store, processor, baseUrl, pageStyle }: SandboxContext) {
  const style: PageStyle = pageStyle === 'portal' ? portalStyle(baseUrl) : plainStyle;

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  /** What the customer sees for a checkout: the form's fields (payable), the ATM details, or the outcome. */
  function content(checkout: CheckoutRow, error?: string): { title: string; html: string; payable: boolean } {
    const summary = checkout.summary ? `<p>${escapeHtml(checkout.summary)}</p>` : '';
    if (checkout.state !== 'PaymentReady') {
      const title = style.outcomes[checkout.state] ?? checkout.state;
      return { title, html: `${summary}<p>${style.processed}</p>`, payable: false };
    }
    const methods = offeredMethods(checkout.method_code);
    if (methods.includes('MB')) {
      return { title: style.titles.atm, html: summary + style.atmDetails(store.payment(checkout.payment_id)!), payable: false };
    }
    return { title: style.titles.pay, html: summary + style.paymentFields(checkout, methods, error), payable: true };
  }

  const sendHtml = (reply: FastifyReply, status: number, html: string) => reply.code(status).type('text/html; charset=utf-8').send(html);

  function sendPage(reply: FastifyReply, status: number, checkout: CheckoutRow, error?: string) {
    const { title, html, payable } = content(checkout, error);
    const action = `/pay/${encodeURIComponent(checkout.id)}`;
    return sendHtml(reply, status, page(title, style.language ?? checkout.language, payable ? style.form(action, html) : html));
  }

  function notFound(reply: FastifyReply, checkoutId: string) {
    return sendHtml(reply, 404, page(style.titles.notFound, style.language, `<p>${style.noCheckout(checkoutId)}</p>`));
  }

  path(app, '/pay/:checkoutId', {
    GET: async (request, reply) => {
      const { checkoutId } = request.params as { checkoutId: string };
      const checkout = store.checkout(checkoutId);
      return checkout ? sendPage(reply, 200, checkout) : notFound(reply, checkoutId);
    },
    POST: async (request, reply) => {
      const { checkoutId } = request.params as { checkoutId: string };
      const checkout = store.checkout(checkoutId);
      if (!checkout) return notFound(reply, checkoutId);
      const fields = (request.body ?? {}) as Record<string, string>;
      try {
        const result = processor.payCheckout(checkoutId, parsePayRequest(payRequestFromForm(fields)));
        if (result.redirectUrl !== null) {
          return style.redirectPage
            ? sendHtml(reply, 200, style.redirectPage(result.redirectUrl, style.outcomes[result.state]))
            : reply.code(303).header('Location', result.redirectUrl).send();
        }
        return sendPage(reply, 200, store.checkout(checkoutId)!);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        return sendPage(reply, error.statusCode, store.checkout(checkoutId)!, error.message);
      }
    },
  });

  path(app, '/embed/:checkoutId/widget.js', {
    GET: async (request, reply) => {
      const { checkoutId } = request.params as { checkoutId: string };
      const checkout = store.checkout(checkoutId);
      const action = `${baseUrl()}/pay/${encodeURIComponent(checkoutId)}`;
      const { html, payable } = checkout ? content(checkout) : { html: `<p>${style.noCheckout(checkoutId)}</p>`, payable: false };
      return reply
        .code(checkout ? 200 : 404)
        .type('text/javascript; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send(widgetScript(html, payable ? action : null, style.widgetSetup));
    },
  });

  if (pageStyle === 'portal') {
    // The document of the portal's card-fields iframe, on the hosted page and in the widget.
    path(app, '/pay/:checkoutId/card-fields', {
      GET: async (request, reply) => {
        const { checkoutId } = request.params as { checkoutId: string };
        return store.checkout(checkoutId) ? sendHtml(reply, 200, cardFieldsPage()) : notFound(reply, checkoutId);
      },
    });
  }
}

/** Renders `html` at the end of the merchant page's form.paymentWidgets, which then posts to `action`. */
function widgetScript(html: string, action: string | null, setup: string): string {
  return `(function () {
  var html = ${JSON.stringify(html)};
  var action = ${JSON.stringify(action)};
  function render() {
    var form = document.querySelector('form.paymentWidgets');
    if (!form) return;
    if (action) {
      form.setAttribute('action', action);
      form.setAttribute('method', 'post');
      ${setup}
    }
    form.insertAdjacentHTML('beforeend', html);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', render);
  else render();
})();
`;
}
