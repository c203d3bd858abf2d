import type { FastifyRequest } from 'fastify';

/** Whether a request is a chat (`POST /chat_adapter`, also under ROUTE_PREFIX): the route the gate plugins guard. */
export type IsChat = (request: FastifyRequest) => boolean;

/** A resume or a stop of a chat's streamed reply (resume-routes.ts): caller keys are checked as for the chat. */
export function turnRouteMatcher(routePrefix: string): IsChat {
  const stream = '/chat_adapter/:conversation_id/stream';
  const stop = '/chat_adapter/:conversation_id/stop';
  const urls: ReadonlySet<string> = new Set([stream, stop, `${routePrefix}${stream}`, `${routePrefix}${stop}`]);
  return (request) => urls.has(request.routeOptions.url ?? '');
}

export function chatRouteMatcher(routePrefix: string): IsChat {
  const urls: ReadonlySet<string> = new Set(['/chat_adapter', `${routePrefix}/chat_adapter`]);
  return (request) => request.method === 'POST' && urls.has(request.routeOptions.url ?? '');
}
