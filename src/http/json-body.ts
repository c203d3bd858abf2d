import type { FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';
import { RequestValidationError } from '../errors.ts';
import { MAX_BODY_DEPTH, findTooDeep } from './body-depth.ts';

/** Thrown for a body that is not JSON at all; mapped to a 400 in the `detail` shape. */
export class MalformedJsonError extends Error {
  constructor(message = 'Invalid request: the body is not valid JSON') {
    super(message);
    this.name = 'MalformedJsonError';
  }
}

/**
 * Only `application/json` bodies are accepted (anything else is a 415). A `__proto__` or
 * `constructor.prototype` member is refused with a 400 that names it, so it can never be merged
 * into any object.
 */
export function acceptJsonOnly(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      done(new MalformedJsonError('Invalid request: the body is empty; a JSON object is required'), undefined);
      return;
    }
    const tooDeep = findTooDeep(text);
    if (tooDeep !== undefined) {
      done(new RequestValidationError(tooDeep.member ?? 'body', `is nested more than ${MAX_BODY_DEPTH} levels deep (objects and arrays)`), undefined);
      return;
    }
    try {
      done(null, sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      if (err instanceof SyntaxError && /forbidden prototype property/.test(err.message)) {
        const member = text.includes('"__proto__"') ? '__proto__' : 'constructor.prototype';
        done(new RequestValidationError(member, 'is not allowed in a request body'), undefined);
        return;
      }
      done(new MalformedJsonError(), undefined);
    }
  });
}
