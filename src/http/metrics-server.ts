/**
 * METRICS_PORT (docs/operations.md#metrics): `GET /metrics` on a port of its own, for Prometheus on
 * the cluster network, so the service's public port need not answer it. A plain node:http server:
 * nothing but the scrape (Prometheus text, or OpenMetrics when the scraper asks for it), 404 for
 * anything else.
 */
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { Metrics } from '../telemetry/metrics.ts';
import { OPENMETRICS_CONTENT_TYPE, wantsOpenMetrics } from '../telemetry/open-metrics.ts';
import { errorBody } from './error-replies.ts';

/** A plain node:http server: the error answers' body comes from the same place as the service's, written here. */
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function serveMetrics(metrics: Metrics, host: string, port: number): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, JSON_TYPE).end(JSON.stringify(errorBody('Not Found')));
      return;
    }
    // The same negotiation as the service port's route: OpenMetrics (with exemplars) when asked for.
    const open = wantsOpenMetrics(req.headers.accept);
    (open ? metrics.scrapeOpenMetrics() : metrics.scrape()).then(
      (text) => res.writeHead(200, { 'content-type': open ? OPENMETRICS_CONTENT_TYPE : metrics.registry.contentType }).end(text),
      () => res.writeHead(500, JSON_TYPE).end(JSON.stringify(errorBody('Internal server error'))),
    );
  });
  // Scrapes are short: an idle scraper connection is not kept for long.
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  server.maxConnections = 64;
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
