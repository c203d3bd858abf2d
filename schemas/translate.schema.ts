import { Type, type Static } from '@sinclair/typebox';

/** docs/contracts.md#translator: POST {TRANSLATE_URL}/translate */
export const TranslateRequestSchema = Type.Object({
  text: Type.String(),
  source: Type.String(),
  target: Type.String(),
});
export type TranslateRequest = Static<typeof TranslateRequestSchema>;

export const TranslateReplySchema = Type.Object({ translated_text: Type.String() });
export type TranslateReply = Static<typeof TranslateReplySchema>;
