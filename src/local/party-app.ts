import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';

/**
 * A Fastify instance for one reference party: no request logging (bodies and headers carry
 * messages, contact data and keys), no type coercion, errors as `{"detail": ...}`.
 */
export function createPartyApp(): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: 256 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  });
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode ?? 500;
    // Validation messages name the field, e.g. "body/propertyId must be string".
    if (error.validation) return reply.code(400).send({ detail: error.message });
    if (status < 500) return reply.code(status).send({ detail: error.message });
    return reply.code(500).send({ detail: 'Internal server error' });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not Found' }));
  return app;
}

/** Listens on `host` (port 0: a free port) and returns the base URL (loopback when host is 0.0.0.0). */
export async function listenOn(app: FastifyInstance, host: string, port = 0): Promise<string> {
  await app.listen({ host, port });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
}
