/**
 * `GET /playground`: a single static page to chat with this service (served in `local` and with
 * PLAYGROUND=true). Plain HTML, CSS and JavaScript modules from src/http/playground/, no build step
 * and nothing from a CDN; the page talks to this same service only. Browsers refuse port 6000:
 * they open it at PLAYGROUND_PORT (browser-port.ts).
 */
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

export const PLAYGROUND_DIR = resolve(import.meta.dirname, 'playground');

/** The page loads its own files and posts to this origin; nothing else. */
const PLAYGROUND_CSP =
  "default-src 'self'; base-uri 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'self'; img-src 'self' data:; object-src 'none'; script-src 'self'; style-src 'self'";

export const playgroundRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('content-security-policy', PLAYGROUND_CSP);
  });
  await app.register(fastifyStatic, {
    root: PLAYGROUND_DIR,
    prefix: '/playground',
    // /playground answers with a redirect to /playground/, whose index is the page.
    redirect: true,
    index: 'index.html',
    decorateReply: false,
    // The typings next to the scripts are for the type checker, not for browsers.
    allowedPath: (path) => !path.endsWith('.d.ts'),
  });
};
