import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CREATE_MESSAGE, READ_CONVERSATION, UPDATE_CONVERSATION, graphql, messageInput, postJson, startTestStack, tempDataDir, url,
} from './helpers.ts';
import { handoffBody } from './handoff-body.ts';

describe('local GraphQL store across a restart', () => {
  const dataDir = tempDataDir();
  afterAll(() => { rmSync(dataDir, { recursive: true, force: true }); });

  it('keeps every message, the contact and handoffs after close and reopen, and stays idempotent', async () => {
    const conversationId = '2000000000000000001';
    const first = await startTestStack(new Set(['graphql', 'handoff']), dataDir);
    const created = await graphql(first, CREATE_MESSAGE, { input: messageInput(conversationId, 'r1:question') });
    await graphql(first, CREATE_MESSAGE, { input: messageInput(conversationId, 'r1:answer', { role: 'ASSISTANT', content: 'Yes.' }) });
    await graphql(first, UPDATE_CONVERSATION, { input: { conversationId, contactEmail: 'kim@example.com', agentHandoff: true } });
    expect((await postJson(`${url(first, 'handoff')}/handoff`, handoffBody(conversationId))).status).toBe(202);
    await first.close();

    const second = await startTestStack(new Set(['graphql']), dataDir);
    try {
      const read = await graphql(second, READ_CONVERSATION, { id: conversationId });
      expect(read.body.data.conversation).toMatchObject({ contactEmail: 'kim@example.com', agentHandoff: true });
      expect(read.body.data.conversation.messages.map((m: any) => m.content)).toEqual(['Do you allow pets?', 'Yes.']);
      expect(read.body.data.conversation.handoffs).toHaveLength(1);
      const retried = await graphql(second, CREATE_MESSAGE, { input: messageInput(conversationId, 'r1:question') });
      expect(retried.body.data.createServiceMessage.id).toBe(created.body.data.createServiceMessage.id);
      const after = await graphql(second, READ_CONVERSATION, { id: conversationId });
      expect(after.body.data.conversation.messages).toHaveLength(2);
    } finally {
      await second.close();
    }
  });
});
