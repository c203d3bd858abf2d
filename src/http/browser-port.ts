/**
 * PLAYGROUND_PORT: the same app on a second port that browsers accept. The API's port 6000 is on
 * the fetch standard's list of "bad ports": Chromium and Firefox refuse to open it
 * (`ERR_UNSAFE_PORT`), and so does `fetch()`, so the playground and `/docs` at `:6000` are
 * unreachable from a browser.
 *
 * A plain TCP listener hands each connection to the app's own HTTP server (`'connection'`), so the
 * second port serves exactly what PORT serves, with the same hooks, timeouts, keep-alive and request
 * limits. It is closed by the app's own close, before the parties' clients are.
 */
import { createServer, type Server } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { explainBusyPort } from '../config/start-up-errors.ts';
import { BROWSER_LINE } from '../telemetry/terminal-lines.ts';

export interface BrowserPortOptions {
  /** HOST: the second port is bound like the first. */
  readonly host: string;
  readonly port: number;
  /** Asked for explicitly: a busy port stops the start (PortInUseError) instead of a warning. */
  readonly required: boolean;
  /** Whether /playground is served (PLAYGROUND); /docs always is. */
  readonly playground: boolean;
}

/** The address a browser on this machine opens for a listener bound to `host`. */
export function browserOrigin(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

/**
 * Stops accepting, then waits for the answers in flight on this port. By now the app is closing, so
 * each answer ends its connection; a connection opened meanwhile and left idle (a browser's
 * pre-connect) is closed too, checked every 50 ms.
 */
function drain(server: Server, http: FastifyInstance['server']): Promise<void> {
  return new Promise((resolve) => {
    const idleCheck = setInterval(() => http.closeIdleConnections(), 50);
    server.close(() => {
      clearInterval(idleCheck);
      resolve();
    });
    http.closeIdleConnections();
  });
}

export interface BrowserPort {
  /** Opens the port (once the app listens) and logs where to point a browser. */
  listen(): Promise<void>;
}

/**
 * The second port, prepared before the app is ready: its close hook then runs after the app has
 * closed its own port and before anything the app registered earlier (the parties' clients are
 * closed by its caller afterwards), so a chat in flight on it finishes like one on PORT.
 */
export function browserPort(app: FastifyInstance, options: BrowserPortOptions, logger: FastifyBaseLogger): BrowserPort {
  const http = app.server;
  // As node:http creates its own listener: a half-closed connection can still get its answer.
  const server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => http.emit('connection', socket));
  app.addHook('onClose', async () => {
    if (server.listening) await drain(server, http);
  });
  return {
    async listen() {
      if (http.maxConnections !== undefined) server.maxConnections = http.maxConnections;
      let port: number;
      try {
        port = await listen(server, options.host, options.port);
      } catch (err) {
        if (options.required) throw explainBusyPort(err, 'PLAYGROUND_PORT', 'another port, or 0 to turn it off');
        logger.warn(
          { port: options.port, reason: (err as NodeJS.ErrnoException).code ?? 'listen failed' },
          'no port for browsers: the playground and /docs are only on PORT (browsers refuse 6000); set PLAYGROUND_PORT to a free port',
        );
        return;
      }
      server.on('error', (err: NodeJS.ErrnoException) => logger.warn({ port, reason: err.code ?? 'error' }, 'port for browsers failed'));
      const url = browserOrigin(options.host, port);
      logger.info({ ...(options.playground && { playground: `${url}/playground/` }), docs: `${url}/docs`, port }, BROWSER_LINE);
    },
  };
}
