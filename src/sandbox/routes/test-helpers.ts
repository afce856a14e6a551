import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConfirmAnswer, RegisterCustomerAnswer } from '../../../schemas/generated/types.ts';
import type { RequestBodies } from '../../core/operations.ts';
import { serve, type SandboxContext } from '../context.ts';
import { refuse, validatedBody } from '../errors.ts';
import { parsePayRequest } from '../payments.ts';

/** A test helper's body, checked against its schema; no body at all reads as `{}`. */
const helperBody = <Name extends keyof RequestBodies>(operation: Name, request: FastifyRequest) => validatedBody(operation, request.body ?? {});

function paymentIdOf(value: string): number {
  if (!/^[0-9]{1,15}$/.test(value)) throw refuse(404, 'not_found', `no payment with id ${value}`, 'an existing payment id', 'paymentId');
  return Number(value);
}

/** shared/contracts/test-helpers.md, plus the list of notification attempts. */
export function testHelperRoutes(app: FastifyInstance, { store, processor }: SandboxContext) {
  serve(app, {
    registerCustomer: async (request, reply) => {
      const { customerId } = helperBody('registerCustomer', request);
      return reply.code(201).send({ uuid: store.registerCustomer(customerId ?? null) } satisfies RegisterCustomerAnswer);
    },
  });

  serve(app, {
    payCheckout: async (request) => {
      const { checkoutId } = request.params as { checkoutId: string };
      return processor.payCheckout(checkoutId, parsePayRequest(request.body));
    },
  });

  serve(app, {
    confirmPayment: async (request) => {
      const { paidAt } = helperBody('confirmPayment', request);
      const paymentId = paymentIdOf((request.params as { paymentId: string }).paymentId);
      const payment = processor.confirmPayment(paymentId, paidAt === undefined ? Date.now() : Date.parse(paidAt));
      return { paymentId: payment.id, state: payment.stateDetails.state } satisfies ConfirmAnswer;
    },
  });

  serve(app, {
    getWebhook: async () => ({ url: store.webhookUrl() }),
    setWebhook: async (request) => {
      const { url } = helperBody('setWebhook', request);
      store.setWebhookUrl(url);
      return { url };
    },
    removeWebhook: async () => {
      store.setWebhookUrl(null);
      return { url: null };
    },
  });

  serve(app, {
    listNotifications: async (request) => {
      const { paymentId } = request.query as { paymentId?: string };
      if (paymentId !== undefined && !/^[0-9]{1,15}$/.test(paymentId)) return { notifications: [] };
      return { notifications: store.attempts(paymentId === undefined ? undefined : Number(paymentId)) };
    },
  });
}
