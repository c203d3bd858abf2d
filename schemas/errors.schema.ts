import { Type, type Static } from '@sinclair/typebox';

/** 400 and 500: `{detail: {message, trace_id}}`. */
export const DetailWithTraceSchema = Type.Object(
  {
    detail: Type.Object(
      { message: Type.String(), trace_id: Type.String() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type DetailWithTrace = Static<typeof DetailWithTraceSchema>;

/** 404, 413, 415, 503: `{detail: string}`. */
export const DetailTextSchema = Type.Object({ detail: Type.String() }, { additionalProperties: false });
export type DetailText = Static<typeof DetailTextSchema>;
