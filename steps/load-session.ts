import type { ChatContext, ContextPatch } from '../src/pipeline/context.ts';
import type { Deps } from '../src/pipeline/ports.ts';
import { sessionKeyOf } from '../src/pipeline/session-key.ts';

/**
 * docs/api.md#session-cache: what the session cache remembers of this session (recent messages, replies given, the
 * language last replied in). A cache that is down reads as an empty session, never as an error.
 */
export async function loadSession(ctx: Readonly<ChatContext>, deps: Deps): Promise<ContextPatch> {
  return { session: (await deps.cache.get(sessionKeyOf(ctx.request))) ?? null };
}
