import type { FastifyRequest } from 'fastify';

/** Whether a request is a chat (`POST /chat_adapter`, also under ROUTE_PREFIX): the route the gate plugins guard. */
export type IsChat = (request: FastifyRequest) => boolean;

export function chatRouteMatcher(routePrefix: string): IsChat {
  const urls: ReadonlySet<string> = new Set(['/chat_adapter', `${routePrefix}/chat_adapter`]);
  return (request) => request.method === 'POST' && urls.has(request.routeOptions.url ?? '');
}
