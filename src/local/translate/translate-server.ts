import type { FastifyInstance } from 'fastify';
import { TranslateRequestSchema, type TranslateRequest } from '../../../schemas/translate.schema.ts';
import { createPartyApp } from '../party-app.ts';
import type { Translation } from './translator.ts';

export interface TranslateLogger {
  warn(obj: object, msg: string): void;
}

/**
 * The reference translator: `POST /translate` (docs/contracts.md#translator), English -> Spanish. The answer
 * carries an extra member `untranslated` listing the English pieces it had no translation for.
 */
export function buildTranslateApp(translate: (text: string) => Translation, logger?: TranslateLogger): FastifyInstance {
  const app = createPartyApp();
  app.post<{ Body: TranslateRequest }>('/translate', { schema: { body: TranslateRequestSchema } }, async (request, reply) => {
    const { text, source, target } = request.body;
    if (source === target) return { translated_text: text, untranslated: [] };
    if (source !== 'en' || target !== 'es') {
      return reply.code(400).send({ detail: `unsupported language pair ${source} -> ${target}; only en -> es` });
    }
    const result = translate(text);
    if (result.untranslated.length > 0) {
      // Counts only: the text itself is visitor-facing content and stays out of the logs.
      logger?.warn({ untranslated: result.untranslated.length, pieces: result.pieces }, 'translation passed English pieces through');
    }
    return { translated_text: result.text, untranslated: result.untranslated };
  });
  return app;
}
