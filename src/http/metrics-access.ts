/**
 * Who may read `GET /metrics` (docs/api.md#caller-keys, docs/operations.md#metrics). The figures
 * name callers, parties and load, so once callers must authenticate (CALLER_API_KEYS or
 * PUBLISHABLE_KEYS), the service's own port answers them only to `Authorization: Bearer
 * <ADMIN_API_KEY>` (401 otherwise, also when no admin key is set). With METRICS_PORT set they are served only on that port
 * (src/http/metrics-server.ts, meant for the cluster network alone) and the service's port answers
 * 404. Without caller keys and without METRICS_PORT, /metrics is open as before.
 */
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { bearerToken, digestKey, matchKey, soleAuthorization } from './bearer-key.ts';
import { sendError } from './error-replies.ts';

export interface MetricsAccessOptions {
  readonly routePrefix: string;
  /** CALLER_API_KEYS or PUBLISHABLE_KEYS is set: the metrics are not for anyone. */
  readonly callersAuthenticate: boolean;
  /** ADMIN_API_KEY (only its digest is kept). */
  readonly adminApiKey?: string | undefined;
  /** METRICS_PORT is set: /metrics is served there only. */
  readonly servedElsewhere: boolean;
}

const metricsAccessPlugin: FastifyPluginAsync<MetricsAccessOptions> = async (app, options) => {
  if (!options.servedElsewhere && !options.callersAuthenticate) return;
  const urls: ReadonlySet<string> = new Set(['/metrics', `${options.routePrefix}/metrics`]);
  const digests = options.adminApiKey === undefined ? [] : [digestKey(options.adminApiKey)];
  app.addHook('onRequest', (request, reply, done) => {
    if (!urls.has(request.routeOptions.url ?? '')) return done();
    if (options.servedElsewhere) {
      sendError(reply, 404, 'Not Found');
      return;
    }
    if (matchKey(bearerToken(soleAuthorization(request.raw.rawHeaders)), digests) !== -1) return done();
    sendError(reply, 401, 'Unauthorized', { 'www-authenticate': 'Bearer' });
  });
};

export const metricsAccess = fp(metricsAccessPlugin, { name: 'metrics-access', fastify: '5.x' });
