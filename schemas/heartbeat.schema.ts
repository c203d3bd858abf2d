import { Type, type Static } from '@sinclair/typebox';

export const HeartbeatSchema = Type.Object({ success: Type.Integer() }, { additionalProperties: false });
export type Heartbeat = Static<typeof HeartbeatSchema>;
