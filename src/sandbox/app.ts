import Fastify, { type FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { Refusal, refusalBody, refuse } from './errors.ts';
import { apiRoutes } from './routes/api.ts';
import { pageRoutes } from './routes/pages.ts';
import { testHelperRoutes } from './routes/test-helpers.ts';

/** The 4xx errors fastify raises itself (body parsing), as refusals. */
const fastifyRefusals: Record<string, [code: string, rule: string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'bodies are JSON (Content-Type: application/json)'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['body_too_large', 'a body is at most 1 MB'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['invalid_content_length', 'Content-Length matches the body'],
};

function asRefusal(error: { statusCode?: number; code?: string; message: string }): Refusal {
  if (error instanceof Refusal) return error;
  const status = error.statusCode ?? 500;
  if (status < 400 || status >= 500) return refuse(500, 'internal_error', 'the sandbox failed to answer this request', 'none');
  const [code, rule] = fastifyRefusals[error.code ?? ''] ?? ['bad_request', 'a well-formed request'];
  return refuse(status, code, error.message, rule);
}

export function buildApp(context: SandboxContext): FastifyInstance {
  const app = Fastify({ bodyLimit: 1024 * 1024 });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(refuse(400, 'invalid_json', 'the body is not valid JSON', 'the body is JSON', ''), undefined);
    }
  });
  app.setErrorHandler((error, request, reply) => {
    const refusal = asRefusal(error as Parameters<typeof asRefusal>[0]);
    if (refusal.statusCode >= 500) request.log.error(error);
    return reply.code(refusal.statusCode).send(refusalBody(refusal.reasons));
  });
  app.setNotFoundHandler(async (request) => {
    throw refuse(404, 'not_found', `no such path: ${request.method} ${request.url.split('?')[0]}`, 'a path of the reference or of the test helpers');
  });
  apiRoutes(app, context);
  testHelperRoutes(app, context);
  app.register(async (pages) => pageRoutes(pages, context));
  return app;
}
