import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validateResource } from '../../schemas.ts';
import { path, type SandboxContext } from '../app.ts';
import { refuse } from '../errors.ts';
import { parsePayRequest } from '../payments.ts';

/** A helper body is optional where the contract allows `{}`; when present it must be an object. */
function optionalObject(request: FastifyRequest): Record<string, unknown> {
  const body = request.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw refuse(400, 'not_an_object', 'the body must be a JSON object', 'the body is a JSON object', '');
  }
  return body as Record<string, unknown>;
}

function paymentIdOf(value: string): number {
  if (!/^[0-9]{1,15}$/.test(value)) throw refuse(404, 'not_found', `no payment with id ${value}`, 'an existing payment id', 'paymentId');
  return Number(value);
}

/** shared/contracts/test-helpers.md, plus the list of notification attempts. */
export function testHelperRoutes(app: FastifyInstance, { store, processor }: SandboxContext) {
  path(app, '/test-helpers/customers', {
    POST: async (request, reply) => {
      const { customerId } = optionalObject(request);
      if (customerId !== undefined && typeof customerId !== 'string') {
        throw refuse(422, 'invalid_field', 'customerId: expected a string', 'a string', 'customerId');
      }
      return reply.code(201).send({ uuid: store.registerCustomer(customerId ?? null) });
    },
  });

  path(app, '/test-helpers/checkouts/:checkoutId/pay', {
    POST: async (request) => {
      const { checkoutId } = request.params as { checkoutId: string };
      return processor.payCheckout(checkoutId, parsePayRequest(request.body));
    },
  });

  path(app, '/test-helpers/payments/:paymentId/confirm', {
    POST: async (request) => {
      const { paidAt } = optionalObject(request);
      if (paidAt !== undefined && validateResource('envelope.schema.json#/$defs/timestampWithOffset', paidAt).length > 0) {
        throw refuse(422, 'invalid_field', 'paidAt: expected an ISO 8601 timestamp with an offset', 'an ISO 8601 timestamp with an offset', 'paidAt');
      }
      const paymentId = paymentIdOf((request.params as { paymentId: string }).paymentId);
      const payment = processor.confirmPayment(paymentId, paidAt === undefined ? Date.now() : Date.parse(paidAt as string));
      return { paymentId: payment.id, state: payment.stateDetails.state };
    },
  });

  path(app, '/test-helpers/webhook', {
    GET: async () => ({ url: store.webhookUrl() }),
    PUT: async (request) => {
      const { url } = optionalObject(request);
      if (typeof url !== 'string' || !/^https?:\/\/[^/?#]+/i.test(url) || !URL.canParse(url)) {
        throw refuse(422, 'invalid_field', 'url: expected an http(s) URL', 'an absolute http or https URL', 'url');
      }
      store.setWebhookUrl(url);
      return { url };
    },
    DELETE: async () => {
      store.setWebhookUrl(null);
      return { url: null };
    },
  });

  path(app, '/test-helpers/notifications', {
    GET: async (request) => {
      const { paymentId } = request.query as { paymentId?: string };
      if (paymentId !== undefined && !/^[0-9]{1,15}$/.test(paymentId)) return { notifications: [] };
      return { notifications: store.attempts(paymentId === undefined ? undefined : Number(paymentId)) };
    },
  });
}
