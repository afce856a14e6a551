/** Mutants of the PAGE clauses: the hosted, embedded and mobile payment pages. */
import type { Transform } from './proxy.ts';
import {
  answeredPayment,
  answerHtml,
  escapeAttribute,
  editRequest,
  layoutOf,
  nextDigits,
  pageRequested,
  detailsOf,
  editAtmPage,
  withQuery,
  type Json,
} from './edits.ts';
import type { Mutant } from './kinds.ts';

/** A page that opens (200) and says the checkout is not there: nothing to fill in, a button back to the shop. */
const notFoundPage = () =>
  answerHtml(200, '<h1>Not found</h1><p>This payment is not available.</p><form action="/"><button type="submit">Back to the shop</button></form>');

/** Answers the hosted pages that `which` picks (by the request of their checkout) with the "not found" page. */
function pagesNotFound(which: (checkoutRequest: Json) => boolean): Transform {
  return {
    request(request, proxy) {
      const checkout = pageRequested(request, proxy);
      if (checkout && layoutOf(checkout.request) !== 'embed' && which(checkout.request)) return notFoundPage();
    },
  };
}

export const pageMutants: Mutant[] = [
  {
    name: 'hosted-page-fails',
    clause: 'PAGE-1',
    description: 'The hosted page of a web/basic/default checkout answers 500.',
    transform: {
      request(request, proxy) {
        const checkout = pageRequested(request, proxy);
        if (checkout && layoutOf(checkout.request) !== 'embed')
          return { status: 500, headers: { 'content-type': 'text/html' }, json: undefined, text: '<h1>Internal Server Error</h1>' };
      },
    },
  },
  {
    name: 'embed-script-empty',
    clause: 'PAGE-2',
    description: 'The embed script at checkoutUrl renders nothing.',
    transform: {
      request(request, proxy) {
        const checkout = pageRequested(request, proxy);
        if (checkout && layoutOf(checkout.request) === 'embed')
          return { status: 200, headers: { 'content-type': 'application/javascript' }, json: undefined, text: '/* widget unavailable */' };
      },
    },
  },
  {
    name: 'redirect-without-id',
    clause: 'PAGE-3',
    description: 'After payment the customer is sent to the action URL without `id`.',
    transform: { redirect: (url) => withQuery(url, (query) => query.delete('id')) },
  },
  {
    name: 'redirect-loses-query',
    clause: 'PAGE-3',
    description: 'After payment the action URL keeps `id` but loses its own query parameters.',
    transform: { redirect: (url) => withQuery(url, (query) => [...query.keys()].filter((name) => name !== 'id').forEach((name) => query.delete(name))) },
  },
  {
    name: 'redirect-query-decoded',
    clause: 'PAGE-3',
    description:
      "After payment the action URL's query is written back decoded, as string building does: an encoded & splits its value, an encoded é is sent raw.",
    transform: {
      redirect: (url) => (/^https?:/i.test(url) && url.includes('%') ? url.replace(/\?[^#]*/, (query) => decodeURIComponent(query)) : url),
    },
  },
  {
    name: 'deep-link-mangled',
    clause: 'PAGE-4',
    description: 'A deep link (custom scheme) loses one slash of its `://`.',
    transform: { redirect: (url) => (/^https?:/i.test(url) ? url : url.replace('://', ':/')) },
  },
  {
    name: 'atm-page-reference-cut',
    clause: 'PAGE-5',
    description: 'The ATM payment page shows the reference without its last digit.',
    transform: editAtmPage((html) => html.replace(/(?<![0-9])([0-9]{3}\s?[0-9]{3}\s?[0-9]{2})[0-9](?![0-9])/g, '$1')),
  },
  {
    name: 'consent-never-offered',
    clause: 'PAGE-6',
    description: '`allowRegistration` is ignored: the page never offers to store the method.',
    transform: editRequest('createCheckout', (body) => delete detailsOf(body).allowRegistration),
  },
  {
    name: 'posts-to-action-url',
    clause: 'PAGE-7',
    description: 'Besides redirecting the browser, the service POSTs to the action URL.',
    transform: {
      redirect(url, proxy) {
        if (/^https?:/i.test(url)) proxy.postInBackground(url, { id: URL.canParse(url) ? new URL(url).searchParams.get('id') : null, state: 'paid' });
        return url;
      },
    },
  },
  {
    name: 'widget-renders-into-first-form',
    clause: 'PAGE-2',
    description: 'The embed script fills the first form of the merchant page, not `form.paymentWidgets`.',
    transform: {
      response(response, request, proxy) {
        if (pageRequested(request, proxy) && response.json === undefined)
          response.text = response.text.replaceAll("querySelector('form.paymentWidgets')", "querySelector('form')");
      },
    },
  },
  {
    name: 'redirect-id-after-fragment',
    clause: 'PAGE-3',
    description: 'The service appends `?id=`/`&id=` to the end of the action URL, after its fragment, where it is no query parameter.',
    transform: {
      redirect(url) {
        if (!URL.canParse(url)) return url;
        const parsed = new URL(url);
        const id = parsed.searchParams.get('id');
        parsed.searchParams.delete('id');
        const naive = parsed.toString();
        return `${naive}${naive.includes('?') ? '&' : '?'}id=${id}`;
      },
    },
  },
  {
    name: 'redirect-by-link-only',
    clause: 'PAGE-3',
    description: 'After paying, the hosted page shows a link back to the shop instead of sending the browser there.',
    transform: answeredPayment((location) => answerHtml(200, `<p>Payment done.</p><p><a href="${escapeAttribute(location)}">Back to the shop</a></p>`)),
  },
  {
    name: 'redirect-made-server-side',
    clause: 'PAGE-3',
    description: 'After paying, the service itself requests the action URL and shows the customer a page of its own.',
    transform: answeredPayment(async (location) => {
      if (/^https?:/i.test(location))
        await fetch(location)
          .then((answer) => answer.arrayBuffer())
          .catch(() => undefined);
      return answerHtml(200, '<p>Payment done. You may close this page.</p>');
    }),
  },
  {
    name: 'dotted-scheme-deep-link-without-id',
    clause: 'PAGE-4',
    description: 'A deep link whose scheme has dots (com.shop.app://) is not recognised as one: the webview is sent there without `id`.',
    transform: { redirect: (url) => (/^[a-z0-9+-]+\.[a-z0-9.+-]*:/i.test(url) ? withQuery(url, (query) => query.delete('id')) : url) },
  },
  {
    name: 'atm-page-other-entity',
    clause: 'PAGE-5',
    description: 'The ATM payment page shows another entity than the payment has.',
    transform: editAtmPage((html) =>
      html.replace(/(data-testid="atm-entity">)([0-9]+)/, (_match, before: string, entity: string) => `${before}${nextDigits(entity)}`),
    ),
  },
  {
    name: 'consent-offered-on-basic-only',
    clause: 'PAGE-6',
    description: 'With layout `default`, `allowRegistration` is ignored: only basic pages offer to store the method.',
    transform: editRequest('createCheckout', (body) => layoutOf(body) === 'default' && delete detailsOf(body).allowRegistration),
  },
  {
    name: 'hosted-page-not-found',
    clause: 'PAGE-1',
    description: 'Every hosted page answers 200 with "not found": no payment form, no ATM details, only a button back to the shop.',
    transform: pagesNotFound(() => true),
  },
  {
    name: 'atm-page-not-found',
    clause: 'PAGE-5',
    description: 'The ATM payment page answers 200 with "not found": no reference, no entity.',
    transform: pagesNotFound((checkoutRequest) => checkoutRequest?.payment?.paymentMethod?.code === 'MB'),
  },
];
