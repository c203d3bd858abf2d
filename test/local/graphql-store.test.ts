import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CREATE_MESSAGE, READ_CONVERSATION, UPDATE_CONVERSATION, graphql, messageInput, startTestStack, url, type TestStack,
} from './helpers.ts';

const STORE_PARTIES = new Set(['graphql', 'handoff'] as const);

describe('local GraphQL conversation store', () => {
  let stack: TestStack;
  beforeAll(async () => { stack = await startTestStack(STORE_PARTIES); });
  afterAll(async () => { await stack.dispose(); });

  it('stores question and answer and reads them back through conversation(id)', async () => {
    const conversationId = '1000000000000000001';
    const question = await graphql(stack, CREATE_MESSAGE, { input: messageInput(conversationId, 'req-1:question') });
    expect(question.status).toBe(200);
    expect(question.body.errors).toBeUndefined();
    const stored = question.body.data.createServiceMessage;
    expect(stored).toMatchObject({ conversationId, role: 'USER', content: 'Do you allow pets?' });
    expect(stored.id).toMatch(/^\d+$/);
    expect(Number.isNaN(Date.parse(stored.createdAt))).toBe(false);

    const answer = await graphql(stack, CREATE_MESSAGE, {
      input: messageInput(conversationId, 'req-1:answer', {
        role: 'ASSISTANT', content: 'Yes, up to two pets.', intent: 'policies', subIntent: 'pet_policy',
        retrievalType: 'fixed', language: 'en', entryId: 'entry-9',
      }),
    });
    expect(BigInt(answer.body.data.createServiceMessage.id)).toBeGreaterThan(BigInt(stored.id));

    const read = await graphql(stack, READ_CONVERSATION, { id: conversationId });
    const conversation = read.body.data.conversation;
    expect(conversation).toMatchObject({ id: conversationId, propertyId: '1234567890123456789', sessionId: 'fake_service_session_id' });
    expect(conversation.messages.map((m: any) => [m.role, m.clientMessageKey])).toEqual([
      ['USER', 'req-1:question'], ['ASSISTANT', 'req-1:answer'],
    ]);
    expect(conversation.messages[1]).toMatchObject({ subIntent: 'pet_policy', retrievalType: 'fixed', language: 'en', entryId: 'entry-9' });
  });

  it('is idempotent on clientMessageKey: a retried call returns the stored message and stores nothing twice', async () => {
    const conversationId = '1000000000000000002';
    const input = messageInput(conversationId, 'req-2:question');
    const first = await graphql(stack, CREATE_MESSAGE, { input });
    const retry = await graphql(stack, CREATE_MESSAGE, { input: { ...input, content: 'a retried copy' } });
    expect(retry.body.data.createServiceMessage).toEqual(first.body.data.createServiceMessage);
    const other = await graphql(stack, CREATE_MESSAGE, { input: messageInput(conversationId, 'req-3:question') });
    expect(other.body.data.createServiceMessage.id).not.toBe(first.body.data.createServiceMessage.id);
    const read = await graphql(stack, READ_CONVERSATION, { id: conversationId });
    expect(read.body.data.conversation.messages).toHaveLength(2);
  });

  it('updates the conversation: contact, last intent and handoff; absent members keep their value', async () => {
    const conversationId = '1000000000000000003';
    const first = await graphql(stack, UPDATE_CONVERSATION, {
      input: { conversationId, contactName: 'Ana Torres', contactPhone: '+15125550147', lastIntent: 'customer_info' },
    });
    expect(first.body.data.updateServiceConversation).toMatchObject({
      id: conversationId, contactName: 'Ana Torres', contactPhone: '+15125550147', contactEmail: null, agentHandoff: null,
    });
    const second = await graphql(stack, UPDATE_CONVERSATION, {
      input: { conversationId, contactEmail: 'ana@example.com', agentHandoff: true, contactName: null },
    });
    expect(second.body.data.updateServiceConversation).toMatchObject({
      contactName: 'Ana Torres', contactPhone: '+15125550147', contactEmail: 'ana@example.com',
      lastIntent: 'customer_info', agentHandoff: true,
    });
    const read = await graphql(stack, READ_CONVERSATION, { id: conversationId });
    expect(read.body.data.conversation).toMatchObject({ contactEmail: 'ana@example.com', agentHandoff: true, messages: [] });
  });

  it('answers null for a conversation never stored', async () => {
    const read = await graphql(stack, READ_CONVERSATION, { id: '1999999999999999999' });
    expect(read.body.data.conversation).toBeNull();
  });

  it('rejects an input missing a required member and stores nothing', async () => {
    const { clientMessageKey: _omitted, ...input } = messageInput('1000000000000000004', 'unused');
    const res = await graphql(stack, CREATE_MESSAGE, { input });
    expect(res.body.errors?.length).toBeGreaterThan(0);
    const read = await graphql(stack, READ_CONVERSATION, { id: '1000000000000000004' });
    expect(read.body.data.conversation).toBeNull();
  });

  it('requires a Base64URL x-graphql-api-key and needs no other header', async () => {
    const input = messageInput('1000000000000000005', 'req-5:question');
    const missing = await graphql(stack, CREATE_MESSAGE, { input }, {});
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0].message).toContain('x-graphql-api-key');
    const malformed = await graphql(stack, CREATE_MESSAGE, { input }, { 'x-graphql-api-key': 'not base64url!' });
    expect(malformed.status).toBe(401);
    expect((await graphql(stack, READ_CONVERSATION, { id: '1000000000000000005' })).body.data.conversation).toBeNull();
    const ok = await graphql(stack, CREATE_MESSAGE, { input }, { 'x-graphql-api-key': 'AbC-_09' });
    expect(ok.status).toBe(200);
  });

  it('never stores or logs the authorization, x-api-key or x-graphql-api-key values', async () => {
    const secrets = { authorization: 'Bearer SecretAuthValue4711', 'x-api-key': 'SecretApiKey4712', 'x-graphql-api-key': 'SecretGraphqlKey4713' };
    const res = await graphql(stack, CREATE_MESSAGE, { input: messageInput('1000000000000000006', 'req-6:question') }, secrets);
    expect(res.status).toBe(200);
    await graphql(stack, UPDATE_CONVERSATION, { input: { conversationId: '1000000000000000006', agentHandoff: true } }, secrets);
    const files = readdirSync(stack.dataDir).map((f) => readFileSync(join(stack.dataDir, f)).toString('latin1')).join('\n');
    const logs = JSON.stringify(stack.logs);
    for (const value of ['SecretAuthValue4711', 'SecretApiKey4712', 'SecretGraphqlKey4713']) {
      expect(files).not.toContain(value);
      expect(logs).not.toContain(value);
    }
    expect(files).toContain('req-6:question'); // the scan does see what is stored
  });

  it('serves the GraphQL endpoint at the URL it reports', () => {
    expect(url(stack, 'graphql')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
  });
});
