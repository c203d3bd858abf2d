/**
 * How a failure is answered and logged, for the whole app (fastify-plugin: the root's handlers,
 * which every scope inherits): an unknown route is 404 `Not Found`; any error thrown while serving
 * a request is mapped by `errorReply` (error-replies.ts) and sent by `sendError`, logged at warn
 * when expected (a 4xx, a party that is down) and at error with its stack when it is a defect.
 */
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { serverTiming } from '../pipeline/latency.ts';
import { describeError, stackFrames } from '../telemetry/safe-error.ts';
import { errorReply, sendError } from './error-replies.ts';
import { takeLatency } from './request-latency.ts';

const errorHandlerPlugin: FastifyPluginAsync = async (app) => {
  app.setNotFoundHandler((_request, reply) => {
    sendError(reply, 404, 'Not Found');
  });

  app.setErrorHandler((err, request, reply) => {
    const mapped = errorReply(err, request.traceId);
    // Name, code and a message only when it holds no input: never the body, a secret or a contact.
    const log = { status: mapped.status, ...(mapped.party !== undefined && { party: mapped.party }), ...describeError(err) };
    if (mapped.defect) request.log.error({ ...log, stack: stackFrames(err) }, mapped.logMessage);
    else request.log.warn(log, mapped.logMessage);
    request.errorLogged = true;
    // The steps that ran before the failure (e.g. a slow engine before a 503) are timed too.
    if (request.timings.length > 0) {
      void reply.header('server-timing', serverTiming(takeLatency(request, false)));
    }
    sendError(reply, mapped.status, mapped.detail, mapped.retryAfterSeconds === undefined ? undefined : { 'retry-after': mapped.retryAfterSeconds });
  });
};

export const errorHandler = fp(errorHandlerPlugin, { name: 'error-handler', fastify: '5.x' });
