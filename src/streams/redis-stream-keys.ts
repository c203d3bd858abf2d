/** The Redis keys of a conversation's streamed turns: all under one hash tag (one slot on a cluster). */

export const END_KINDS: ReadonlySet<string> = new Set(['finished', 'failed', 'aborted']);

export function streamKeys(conversationId: string) {
  const tag = `chat-adapter:{stream:${conversationId}}`;
  return {
    turn: `${tag}:turn`,
    parts: (messageId: string) => `${tag}:parts:${messageId}`,
    live: (messageId: string) => `${tag}:live:${messageId}`,
    stop: (messageId: string) => `${tag}:stop:${messageId}`,
  };
}
