import type { HookHandlerDoneFunction } from 'fastify';

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
