/** Mutants of the TOK clauses: what is stored after a payment, and what is not. */
import { randomUUID } from 'node:crypto';
import {
  combine,
  consentAlwaysOnPage,
  editData,
  editRequest,
  layoutOf,
  listsOthersMethods,
  takeAsSuccess,
  type Json,
  detailsOf,
  asksToStore,
  customerOf,
  payerOf,
  setDetail,
} from './edits.ts';
import type { Mutant } from './kinds.ts';

const isRecurring = (body: Json) => body?.payment?.recurring?.amountQualifier === 'ESTM';
const lastDigitsOf = (method: Json) => `${method?.type}:${method?.last4Digitis ?? method?.last3Digitis}`;

/** A stored method written as a careless target writes another customer's: misspelled fields, a uuid without dashes. */
function malformed(method: Json): Json {
  const { last4Digitis, last3Digitis, uuid, ...rest } = method;
  return {
    ...rest,
    ...(last4Digitis !== undefined && { last4Digits: last4Digitis }),
    ...(last3Digitis !== undefined && { last3Digits: last3Digitis }),
    uuid: typeof uuid === 'string' ? uuid.replace(/-/g, '') : uuid,
  };
}

export const tokenizationMutants: Mutant[] = [
  {
    name: 'create-registration-ignored',
    clause: 'TOK-1',
    description: '`createRegistration` is ignored: nothing is stored.',
    transform: editRequest('createCheckout', (body) => delete detailsOf(body).createRegistration),
  },
  {
    name: 'stores-without-consent',
    clause: 'TOK-2',
    description: 'The method is stored even when the customer declines the offer (pay helper and hosted form alike).',
    transform: combine(
      editRequest('payCheckout', (body) => (body.storeConsent = true)),
      consentAlwaysOnPage,
    ),
  },
  {
    name: 'stores-on-declined-payment',
    clause: 'TOK-3',
    description: 'A declined payment (outcome failure, or a card the issuer declines) in a checkout that stores methods is taken as a success.',
    transform: editRequest('payCheckout', (body, proxy, request) => {
      const checkout = request.param ? proxy.checkouts.get(request.param) : undefined;
      if (!checkout || !asksToStore(checkout.request)) return;
      takeAsSuccess(body);
    }),
  },
  {
    name: 'stores-always',
    clause: 'TOK-4',
    description: 'Every card or wallet checkout of a registered customer stores the method.',
    transform: editRequest('createCheckout', (body) => {
      const storable = ['CC', 'MW'].includes(body.payment?.paymentMethod?.code) && [undefined, 'basic', 'default'].includes(layoutOf(body) as string);
      if (typeof body.payment?.customer?.uuid === 'string' && storable && !asksToStore(body)) setDetail(body, 'createRegistration', true);
    }),
  },
  {
    name: 'stores-atm-method',
    clause: 'TOK-5',
    description: 'A customer who had an ATM (MB) checkout finds an `MB` method in the list.',
    transform: combine(
      editRequest('createCheckout', (body, proxy) => {
        if (body.payment?.paymentMethod?.code === 'MB' && customerOf(body)) proxy.memo.set(`mb:${customerOf(body)}`, true);
      }),
      editData(['listMethods'], (data, proxy, request) => {
        if (Array.isArray(data) && proxy.memo.has(`mb:${request.param?.toLowerCase()}`)) data.push({ type: 'MB', uuid: randomUUID() });
      }),
    ),
  },
  {
    name: 'methods-leak-across-customers',
    clause: 'TOK-6',
    description: "A customer's list also holds every other known customer's methods.",
    transform: listsOthersMethods(() => true),
  },
  {
    name: 'create-registration-ignored-for-wallets',
    clause: 'TOK-1',
    description: '`createRegistration` stores cards only: a mobile wallet paid in such a checkout is not stored.',
    transform: editRequest('createCheckout', (body) => body.payment?.paymentMethod?.code === 'MW' && delete detailsOf(body).createRegistration),
  },
  {
    name: 'wallet-stored-without-consent',
    clause: 'TOK-2',
    description: 'A mobile wallet is stored even where the customer declined the offer.',
    transform: editRequest('payCheckout', (body) => body.method === 'MW' && body.storeConsent === false && (body.storeConsent = true)),
  },
  {
    name: 'methods-shared-by-card',
    clause: 'TOK-6',
    // The model judges whole lists: the other customer's method is an element nobody stored here (PML-1).
    disturbs: ['PML-1'],
    description: "A customer's list also holds the methods other customers stored with a card or wallet this customer paid with.",
    transform: {
      request(request, proxy) {
        const customer = payerOf(request, proxy);
        const paid = (request.json as Json)?.card?.number ?? (request.json as Json)?.wallet?.number;
        if (typeof customer === 'string' && typeof paid === 'string') proxy.memo.set(`paid:${customer}:${paid.slice(-3)}`, true);
      },
      response: listsOthersMethods((method, customer, proxy) =>
        proxy.memo.has(`paid:${customer}:${String(method?.last4Digitis ?? method?.last3Digitis ?? '').slice(-3)}`),
      ).response,
    },
  },
  {
    name: 'methods-shared-by-stored-card',
    clause: 'TOK-6',
    disturbs: ['PML-1'],
    description:
      "Methods are kept by card or wallet number: a customer's list also holds the methods other customers stored with a card or wallet this customer stored too.",
    transform: {
      async response(response, request, proxy) {
        const own = (response.json as Json)?.data;
        if (request.route !== 'listMethods' || !Array.isArray(own)) return;
        const stored = new Set(own.map(lastDigitsOf));
        await listsOthersMethods((method) => stored.has(lastDigitsOf(method))).response!(response, request, proxy);
      },
    },
  },
  {
    name: 'stored-methods-lost-after-five-seconds',
    clause: 'TOK-1',
    disturbs: ['TOK-2'],
    description: 'Stored methods are listed from a cache that loses each one five seconds after it was first listed, as a store without persistence behind it.',
    transform: {
      response(response, request, proxy) {
        const data = (response.json as Json)?.data;
        if (request.route !== 'listMethods' || !Array.isArray(data)) return;
        const now = Date.now();
        (response.json as Json).data = data.filter((method: Json) => {
          const key = `first listed:${method?.uuid}`;
          if (!proxy.memo.has(key)) proxy.memo.set(key, now);
          return now - (proxy.memo.get(key) as number) < 5_000;
        });
      },
    },
  },
  {
    name: 'consent-ignored-for-recurring',
    clause: 'TOK-2',
    description: 'A recurring (ESTM) checkout with allowRegistration never stores the method, whatever the customer answers.',
    transform: editRequest('createCheckout', (body) => {
      if (isRecurring(body) && body.payment?.paymentMethod?.details?.allowRegistration === true) delete body.payment.paymentMethod.details.allowRegistration;
    }),
  },
  {
    name: 'recurring-stored-without-flags',
    clause: 'TOK-4',
    description: 'A recurring (ESTM) checkout is taken as one that stores the method, with neither createRegistration nor allowRegistration.',
    transform: editRequest('createCheckout', (body) => {
      if (isRecurring(body) && !asksToStore(body) && body.payment?.paymentMethod)
        body.payment.paymentMethod.details = { ...body.payment.paymentMethod.details, createRegistration: true };
    }),
  },
  {
    name: 'declined-consenting-payment-stores',
    clause: 'TOK-3',
    description:
      'A declined payment in an `allowRegistration` checkout whose customer consented is taken as a success and stores the method; a declined payment with `createRegistration` stores nothing.',
    transform: editRequest('payCheckout', (body, proxy, request) => {
      const checkout = request.param ? proxy.checkouts.get(request.param) : undefined;
      if (checkout?.request?.payment?.paymentMethod?.details?.allowRegistration !== true || body.storeConsent !== true || body.outcome !== 'failure') return;
      takeAsSuccess(body);
    }),
  },
  {
    name: 'foreign-methods-malformed',
    clause: 'TOK-6',
    // Every element of a list has the fields of 2.4: the model, judging whole lists, finds the misspelled ones (PML-2, and PML-3 or PML-4 for a card or a wallet).
    disturbs: ['PML-2', 'PML-3', 'PML-4'],
    description: "A customer's list also holds every other known customer's methods, misspelled (last4Digits, last3Digits) and with uuids without dashes.",
    transform: listsOthersMethods(() => true, malformed),
  },
];
