/**
 * Callback-style hooks (no promise per hook and request unless a store is waited on: docs/architecture.md),
 * as the chat plugin's parts hand them to its routes, and how one whose work is asynchronous ends.
 */
import type { DoneFuncWithErrOrRes, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** An onRequest, preHandler or onResponse hook: it calls `done` to go on, or answers and stops the chain. */
export type RequestHook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;
/** An onSend hook. */
export type SendHook = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: DoneFuncWithErrOrRes) => void;

/**
 * Ends a callback-style hook whose work is asynchronous. `goesOn` settles true when the request
 * goes on to the next hook; false when the hook has answered it itself (a refusal, a replay), which
 * stops the chain there, since `done` must not be called then; a rejection goes to the error handler.
 */
export function continueUnlessAnswered(goesOn: Promise<boolean>, done: HookHandlerDoneFunction): void {
  goesOn.then((next) => {
    if (next) done();
  }, done);
}
