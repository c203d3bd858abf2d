/**
 * API documentation generated from the route schemas: the OpenAPI 3.1 document at
 * `GET /openapi.json` (@fastify/swagger) and a reference page at `GET /docs` (@fastify/swagger-ui,
 * whose assets are served from the package, no CDN) with "Try it out" against this same service.
 * Called before any route is added, so the document sees every route.
 */
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { DOCS_PAGE, withViewport } from './docs-page.ts';
import { documentRoute, OPENAPI_INFO, OPENAPI_TAGS, SECURITY_SCHEMES } from './openapi-document.ts';
import { simplifySchemas } from './openapi-schemas.ts';

export function registerDocs(app: FastifyInstance, routePrefix: string): void {
  void app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: OPENAPI_INFO,
      tags: OPENAPI_TAGS,
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: documentRoute(routePrefix),
    transformObject: (document) => simplifySchemas('openapiObject' in document ? document.openapiObject : document.swaggerObject),
  });
  // In a scope of its own, so that the hook giving its page a viewport tag sees only its routes.
  void app.register(async (docs) => {
    docs.addHook('onSend', async (_request, reply, payload) => {
      const type = reply.getHeader('content-type');
      return typeof payload === 'string' && typeof type === 'string' && type.startsWith('text/html') ? withViewport(payload) : payload;
    });
    await docs.register(fastifySwaggerUi, {
      routePrefix: '/docs',
      ...DOCS_PAGE,
      // The page, its assets and its "Try it out" requests stay on this service. (The plugin's default
      // policy has upgrade-insecure-requests, which would send "Try it out" to https on a plain-http host.)
      staticCSP: "default-src 'self'; base-uri 'self'; connect-src 'self'; font-src 'self' data:; frame-ancestors 'self'; img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'",
    });
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
