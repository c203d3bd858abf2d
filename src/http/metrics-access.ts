/**
 * Who may read `GET /metrics` (docs/api.md#caller-keys, docs/operations.md#metrics). The figures
 * name callers, parties and load, so once callers must authenticate (CALLER_API_KEYS or
 * PUBLISHABLE_KEYS), the service's own port answers them only to `Authorization: Bearer
 * <ADMIN_API_KEY>` (401 otherwise, also when no admin key is set). With METRICS_PORT set they are served only on that port
 * (src/http/metrics-server.ts, meant for the cluster network alone) and the service's port answers
 * 404. Without caller keys and without METRICS_PORT, /metrics is open as before.
 */
import { bearerToken, digestKey, matchKey, soleAuthorization } from './bearer-key.ts';
import { sendError } from './error-replies.ts';
import type { RequestHook } from './hook-outcome.ts';

export interface MetricsAccessOptions {
  /** CALLER_API_KEYS or PUBLISHABLE_KEYS is set: the metrics are not for anyone. */
  readonly callersAuthenticate: boolean;
  /** ADMIN_API_KEY (only its digest is kept). */
  readonly adminApiKey?: string | undefined;
  /** METRICS_PORT is set: /metrics is served there only. */
  readonly servedElsewhere: boolean;
}

/** The onRequest hook of the `/metrics` route (probe-routes.ts); undefined when it is open to all. */
export function metricsAccess(options: MetricsAccessOptions): RequestHook | undefined {
  if (!options.servedElsewhere && !options.callersAuthenticate) return undefined;
  const digests = options.adminApiKey === undefined ? [] : [digestKey(options.adminApiKey)];
  return (request, reply, done) => {
    if (options.servedElsewhere) {
      sendError(reply, 404, 'Not Found');
      return;
    }
    if (matchKey(bearerToken(soleAuthorization(request.raw.rawHeaders)), digests) !== -1) return done();
    sendError(reply, 401, 'Unauthorized', { 'www-authenticate': 'Bearer' });
  };
}
