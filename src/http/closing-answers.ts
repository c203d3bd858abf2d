/**
 * Answers while the service closes (fastify-plugin: every request). A request that reaches a closing
 * server (pipelined, or on a busy keep-alive connection) is refused at once with 503 `Service
 * shutting down` and `Retry-After: 1`, so the balancer sends it elsewhere (Fastify's own
 * `return503OnClosing` is off: its body is not the detail shape). A keep-alive connection whose
 * request was in flight at shutdown would otherwise stay open and hold `app.close()` until the
 * client drops it: every answer from then on says `Connection: close`.
 */
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { sendError } from './error-replies.ts';

const closingAnswersPlugin: FastifyPluginAsync = async (app) => {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // After the request's span and trace header are set (request-telemetry.ts is registered first).
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    sendError(reply, 503, 'Service shutting down', { 'retry-after': '1' });
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
};

export const closingAnswers = fp(closingAnswersPlugin, { name: 'closing-answers', fastify: '5.x' });
