/**
 * docs/api.md#limits, set once for every answer (routes, plugins, errors, 404s; fastify-plugin):
 * browsers never guess a content type, and no page or link of the service ever tells a third party
 * where it came from. (The chat's own `Cache-Control: no-store` is the chat route's: chat-plugin.ts.)
 */
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';

const responseHeadersPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('onSend', (_request, reply, payload, done) => {
    void reply.header('x-content-type-options', 'nosniff');
    void reply.header('referrer-policy', 'no-referrer');
    done(null, payload);
  });
};

export const responseHeaders = fp(responseHeadersPlugin, { name: 'response-headers', fastify: '5.x' });
