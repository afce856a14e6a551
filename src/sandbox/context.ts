/** What the sandbox's routes share: the context they are built with, and how a path registers its handlers. */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { operationNamed, type Operation, type OperationName } from '../core/operations.ts';
import { refuse } from './errors.ts';
import type { PaymentProcessor } from './payments.ts';
import type { Store } from './store.ts';

export const pageStyleNames = ['plain', 'portal'] as const;
export type PageStyleName = (typeof pageStyleNames)[number];

export interface SandboxContext {
  store: Store;
  processor: PaymentProcessor;
  /** `{base_url}`: known once the server listens. */
  baseUrl: () => string;
  pageStyle: PageStyleName;
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const methods: HTTPMethods[] = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

/** Serves operations of the table (src/core/operations.ts), each at its method and path; see `path`. */
export function serve(app: FastifyInstance, handlers: Partial<Record<OperationName, Handler>>) {
  const byPath = new Map<string, Partial<Record<Operation['method'], Handler>>>();
  for (const [name, handler] of Object.entries(handlers)) {
    const { method, path: template } = operationNamed(name as OperationName);
    byPath.set(template, { ...byPath.get(template), [method]: handler });
  }
  for (const [template, byMethod] of byPath) path(app, template.replace(/\{(\w+)\}/g, ':$1'), byMethod);
}

/** Registers the handlers of one path; every other method answers 405 with an Allow header. */
export function path(app: FastifyInstance, url: string, handlers: Partial<Record<'GET' | 'POST' | 'PUT' | 'DELETE', Handler>>) {
  for (const [method, handler] of Object.entries(handlers)) app.route({ method: method as HTTPMethods, url, handler });
  const allowed: string[] = Object.keys(handlers);
  if (allowed.includes('GET')) allowed.push('HEAD');
  app.route({
    method: methods.filter((method) => !allowed.includes(method)),
    url,
    handler: async (request, reply) => {
      reply.header('Allow', allowed.join(', '));
      throw refuse(405, 'method_not_allowed', `${request.method} is not allowed on ${url}; allowed: ${allowed.join(', ')}`, 'a method the path allows');
    },
  });
}
