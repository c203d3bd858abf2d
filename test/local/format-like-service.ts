/**
 * What the service does to an engine reply before translating it (docs/api.md#reply-formatting), reproduced
 * here so the translator is tested on the text it will really receive.
 */
export interface ReplyToFormat {
  readonly response: string;
  readonly sub_intent: string;
  readonly retrieval_type: string;
  readonly data?: readonly Readonly<Record<string, unknown>>[];
}

/** rag, fixed, adapter, spf: one paragraph, Markdown removed, white space collapsed. */
export function concise(text: string): string {
  return text
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/gm, '')
    .replace(/^#+\s*/gm, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** node (not neighborhood_summary): intro text, then `- **<name>**: <key>: <value>, ...` lines. */
export function markdown(text: string, data: readonly Readonly<Record<string, unknown>>[] = []): string {
  const lines = data.map((item) => {
    const fields = Object.entries(item)
      .filter(([key]) => key !== 'name')
      .map(([key, value]) => `${key.replace(/_/g, ' ')}: ${String(value)}`)
      .join(', ');
    return `- **${String(item.name)}**: ${fields}`;
  });
  return [text.trim(), ...(lines.length > 0 ? ['', ...lines] : [])].join('\n');
}

/** node + neighborhood_summary: the whole text, paragraphs kept, line endings normalised. */
export function verbose(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

export function formatLikeService(reply: ReplyToFormat): string {
  if (reply.retrieval_type === 'node') {
    return reply.sub_intent === 'neighborhood_summary' ? verbose(reply.response) : markdown(reply.response, reply.data);
  }
  return concise(reply.response);
}
