/**
 * `GET /heartbeat` (liveness: checks nothing downstream) and `GET /metrics` (Prometheus), served at
 * the root and under ROUTE_PREFIX; `/metrics` is guarded by its own hook (metrics-access.ts). Probes
 * and scrapes make no trace: they are registered in an untraced scope (untraced.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { HeartbeatSchema } from '../../schemas/heartbeat.schema.ts';
import type { Metrics } from '../telemetry/metrics.ts';
import { OPENMETRICS_CONTENT_TYPE, wantsOpenMetrics } from '../telemetry/open-metrics.ts';
import { metricsAccess, type MetricsAccessOptions } from './metrics-access.ts';

export interface ProbeRoutesOptions {
  /** When given, `GET /metrics` serves it (Prometheus text format, or OpenMetrics when asked for). */
  readonly metrics?: Metrics | undefined;
  readonly metricsAccess: MetricsAccessOptions;
}

export function probeRoutes(options: ProbeRoutesOptions): FastifyPluginAsync {
  const { metrics } = options;
  const access = metricsAccess(options.metricsAccess);
  return async (app) => {
    app.get('/heartbeat', { schema: { response: { 200: HeartbeatSchema } } }, async () => ({ success: 1 }));
    if (metrics === undefined) return;
    // Text exposition, not JSON: no response schema serializes it.
    app.get('/metrics', { ...(access !== undefined && { onRequest: access }) }, async (request, reply) => {
      // OpenMetrics when the scraper asks for it (Prometheus does): the latency buckets then carry exemplars.
      if (wantsOpenMetrics(request.headers.accept)) {
        void reply.header('content-type', OPENMETRICS_CONTENT_TYPE);
        return metrics.scrapeOpenMetrics();
      }
      void reply.header('content-type', metrics.registry.contentType);
      return metrics.scrape();
    });
  };
}
