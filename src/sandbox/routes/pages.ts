import type { FastifyInstance, FastifyReply } from 'fastify';
import { path, type SandboxContext } from '../app.ts';
import { Refusal } from '../errors.ts';
import { atmDetails, escapeHtml, page, paymentFields } from '../html.ts';
import { offeredMethods, parsePayRequest } from '../payments.ts';
import type { CheckoutRow } from '../store.ts';

const processedTitles: Record<string, string> = {
  PaymentConfirmed: 'Payment done',
  PaymentDeclined: 'Payment declined',
};

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
export function pageRoutes(app: FastifyInstance, { store, processor, baseUrl }: SandboxContext) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  /** What the customer sees for a checkout: the form's fields (payable), the ATM details, or the outcome. */
  function content(checkout: CheckoutRow, error?: string): { title: string; html: string; payable: boolean } {
    const summary = checkout.summary ? `<p>${escapeHtml(checkout.summary)}</p>` : '';
    if (checkout.state !== 'PaymentReady') {
      const title = processedTitles[checkout.state] ?? checkout.state;
      return { title, html: `${summary}<p>This checkout has already been processed.</p>`, payable: false };
    }
    const methods = offeredMethods(checkout.method_code);
    if (methods.includes('MB')) {
      return { title: 'ATM payment', html: summary + atmDetails(store.payment(checkout.payment_id)!), payable: false };
    }
    return { title: 'Payment', html: summary + paymentFields(checkout, methods, error), payable: true };
  }

  function sendPage(reply: FastifyReply, status: number, checkout: CheckoutRow, error?: string) {
    const { title, html, payable } = content(checkout, error);
    const action = `/pay/${encodeURIComponent(checkout.id)}`;
    const body = payable ? `<form method="post" action="${action}" data-testid="payment-form">${html}</form>` : html;
    return reply.code(status).type('text/html; charset=utf-8').send(page(title, checkout.language, body));
  }

  function notFound(reply: FastifyReply, checkoutId: string) {
    return reply.code(404).type('text/html; charset=utf-8').send(page('Checkout not found', null, `<p>There is no checkout ${escapeHtml(checkoutId)}.</p>`));
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
        if (result.redirectUrl !== null) return reply.code(303).header('Location', result.redirectUrl).send();
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
      const { html, payable } = checkout
        ? content(checkout)
        : { html: `<p>There is no checkout ${escapeHtml(checkoutId)}.</p>`, payable: false };
      return reply
        .code(checkout ? 200 : 404)
        .type('text/javascript; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send(widgetScript(html, payable ? action : null));
    },
  });
}

/** Renders `html` at the end of the merchant page's form.paymentWidgets, which then posts to `action`. */
function widgetScript(html: string, action: string | null): string {
  return `(function () {
  var html = ${JSON.stringify(html)};
  var action = ${JSON.stringify(action)};
  function render() {
    var form = document.querySelector('form.paymentWidgets');
    if (!form) return;
    if (action) {
      form.setAttribute('action', action);
      form.setAttribute('method', 'post');
      form.setAttribute('data-testid', 'payment-form');
    }
    form.insertAdjacentHTML('beforeend', html);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', render);
  else render();
})();
`;
}
