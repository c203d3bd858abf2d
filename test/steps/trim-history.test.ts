import { describe, expect, it } from 'vitest';
import type { HistoryItem } from '../../schemas/chat-request.schema.ts';
import { trimHistory } from '../../steps/trim-history.ts';
import { freshContext, validRequest } from './step-context.ts';

function history(count: number): HistoryItem[] {
  return Array.from({ length: count }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `message ${i + 1}` }));
}

describe('trimHistory (processing rule 3)', () => {
  it('keeps the last 4 messages, in their order', () => {
    const sent = history(9);
    const patch = trimHistory(freshContext(validRequest({ history: sent })));
    expect(patch.history?.map((h) => h.content)).toEqual(['message 6', 'message 7', 'message 8', 'message 9']);
    expect(patch.history?.map((h) => h.role)).toEqual(['assistant', 'user', 'assistant', 'user']);
    expect(sent).toHaveLength(9);
  });

  it.each([0, 1, 3, 4])('leaves %i messages untouched', (count) => {
    const sent = history(count);
    expect(trimHistory(freshContext(validRequest({ history: sent }))).history).toEqual(sent);
  });
});
