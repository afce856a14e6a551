import type { FastifyInstance } from 'fastify';
import { validateRequest } from '../../core/schemas.ts';
import { serve, type SandboxContext } from '../context.ts';
import { refuse, validatedBody } from '../errors.ts';
import { methodNames, offeredMethods, type PayMethod } from '../payments.ts';
import { uuidPattern } from '../../core/operations.ts';
import { paymentResource } from '../store.ts';
import { checkoutTimestamp, isoWithOffset } from '../time.ts';

const apiVersion = '1.0';
/** Checkout expiry is not shown by the reference; a checkout here can be paid for 30 days. */
const checkoutValidityMs = 30 * 24 * 60 * 60 * 1000;

function availableMethod(code: string, type = 'REALTIME') {
  return { code, type, name: methodNames[code as PayMethod] ?? code };
}

/** Section 4 of the reference. */
export function apiRoutes(app: FastifyInstance, { store, baseUrl }: SandboxContext) {
  // Compiles the request validators at start-up rather than during the first requests.
  for (const operation of ['createCheckout', 'createReference'] as const) validateRequest(operation, {});

  serve(app, {
    createCheckout: async (request, reply) => {
      const body = validatedBody('createCheckout', request.body);
      const { payment = {}, page = {} } = body;
      const now = Date.now();
      const nowIso = isoWithOffset(now);
      const checkout = await store.createCheckout(
        {
          created_at: checkoutTimestamp(now),
          layout: page.layout ?? null,
          language: page.language ?? null,
          method_code: payment.paymentMethod?.code ?? null,
          amount: payment.amount ?? 0,
          summary: payment.summary ?? null,
          customer_uuid: payment.customer?.uuid?.toLowerCase() ?? null,
          create_registration: payment.paymentMethod?.details?.createRegistration === true ? 1 : 0,
          allow_registration: payment.paymentMethod?.details?.allowRegistration === true ? 1 : 0,
          action_url: body.redirects?.find((redirect) => redirect.type === 'action')?.url ?? null,
          request: JSON.stringify(body),
        },
        {
          amount: payment.amount ?? 0,
          validStart: nowIso,
          validEnd: isoWithOffset(now + checkoutValidityMs),
          availableMethods: offeredMethods(payment.paymentMethod?.code ?? null).map((code) => availableMethod(code)),
          callbackUrl: null,
        },
        nowIso,
      );
      const checkoutUrl =
        page.layout === 'embed'
          ? `${baseUrl()}/embed/${checkout.id}/widget.js`
          : `${baseUrl()}/pay/${checkout.id}${page.layout === undefined ? '' : `?page_layout=${encodeURIComponent(page.layout)}`}`;
      return reply.code(201).send({
        apiVersion,
        date: nowIso,
        success: true,
        data: {
          id: checkout.id,
          createdAt: checkout.created_at,
          checkoutUrl,
          paymentId: String(checkout.payment_id),
          stateDetails: { state: 'PaymentReady', timestamp: nowIso },
        },
      });
    },
  });

  serve(app, {
    listMethods: async (request) => {
      const { uuid } = request.params as { uuid: string };
      if (!uuidPattern.test(uuid)) throw refuse(400, 'invalid_field', `uuid: "${uuid}" is not a UUID`, 'a customer UUID', 'uuid', ['PML-7']);
      return { apiVersion, date: isoWithOffset(), success: true, data: store.storedMethods(uuid.toLowerCase()) };
    },
  });

  serve(app, {
    createReference: async (request, reply) => {
      const body = validatedBody('createReference', request.body);
      const paymentId = await store.createReference(
        {
          amount: body.amount,
          validStart: body.validDate.start,
          validEnd: body.validDate.end,
          availableMethods: body.availableMethods.map((method) => {
            const { type } = method as { type?: unknown };
            return availableMethod(method.code, typeof type === 'string' ? type : undefined);
          }),
          callbackUrl: body.callbackUrl ?? null,
        },
        isoWithOffset(),
      );
      return reply.code(201).send({ date: isoWithOffset(), success: true, data: paymentResource(store.payment(paymentId)!) });
    },
  });

  serve(app, {
    getPayment: async (request) => {
      const { id } = request.params as { id: string };
      const payment = /^[0-9]{1,15}$/.test(id) ? store.payment(Number(id)) : undefined;
      if (!payment) throw refuse(404, 'not_found', `no payment with id ${id}`, 'an existing payment id', 'id', ['REF-10']);
      return { date: isoWithOffset(), success: true, data: paymentResource(payment) };
    },
  });
}
