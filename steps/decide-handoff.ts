import { need, type ChatContext, type ContextPatch } from '../src/pipeline/context.ts';
import { handoffFor } from '../src/pipeline/rules.ts';

/** docs/contracts.md#handoff-receiver: whether a person takes over (the engine asked, or the sub-intent needs one). */
export function decideHandoff(ctx: Readonly<ChatContext>): ContextPatch {
  return { agentHandoff: handoffFor(need(ctx, 'engineReply')) };
}
