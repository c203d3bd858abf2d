import { TypeCompiler } from '@sinclair/typebox/compiler';
import { TranslateReplySchema } from '../../schemas/translate.schema.ts';
import { callJson, type HttpParty } from './http-json.ts';

const translateReply = TypeCompiler.Compile(TranslateReplySchema);

/** docs/contracts.md#translator: `POST {TRANSLATE_URL}/translate`. */
export function createTranslateClient(target: HttpParty) {
  return {
    async translate(text: string, source: string, target_: string, deadlineAt?: number): Promise<string> {
      const reply = await callJson(target, {
        method: 'POST',
        path: '/translate',
        body: { text, source, target: target_ },
        reply: translateReply,
        deadlineAt,
      });
      return reply.translated_text;
    },
  };
}
