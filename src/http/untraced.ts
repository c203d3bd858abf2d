/**
 * A scope whose requests make no trace (probes and scrapes: `/heartbeat`, `/metrics`, `/ready`): each
 * gets a random request id (its `traceresponse` says not sampled) but no SERVER span, so one every
 * few seconds per instance does not fill the trace store.
 */
import type { FastifyPluginAsync } from 'fastify';
import { untracedRequestId } from '../telemetry/fast/server-span.ts';

export function untraced(routes: FastifyPluginAsync): FastifyPluginAsync {
  return async (scope) => {
    scope.setGenReqId(untracedRequestId);
    await scope.register(routes);
  };
}
