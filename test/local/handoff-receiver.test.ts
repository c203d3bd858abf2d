import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handoffBody } from './handoff-body.ts';
import { READ_CONVERSATION, graphql, postJson, startTestStack, url, type TestStack } from './helpers.ts';

describe('local handoff receiver', () => {
  let stack: TestStack;
  beforeAll(async () => { stack = await startTestStack(new Set(['graphql', 'handoff'])); });
  afterAll(async () => { await stack.dispose(); });

  it('accepts a handoff with 202 and makes it readable through the GraphQL conversation query', async () => {
    const res = await postJson(`${url(stack, 'handoff')}/handoff`, handoffBody('3000000000000000001'));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ accepted: true, duplicate: false, id: expect.stringMatching(/^\d+$/) });
    const read = await graphql(stack, READ_CONVERSATION, { id: '3000000000000000001' });
    expect(read.body.data.conversation).toMatchObject({ id: '3000000000000000001', propertyId: '1234567890123456789' });
    expect(read.body.data.conversation.handoffs).toEqual([expect.objectContaining({
      intent: 'agent_handoff', subIntent: 'agent_hand_off', contactName: 'Lee', contactPhone: '+15125550190',
      contactEmail: null, traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    })]);
  });

  it('stores a retried delivery of the same handoff once', async () => {
    const body = handoffBody('3000000000000000002', { sub_intent: 'emergency_maintenance', intent: 'resident_services' });
    const first = await postJson(`${url(stack, 'handoff')}/handoff`, body);
    const retry = await postJson(`${url(stack, 'handoff')}/handoff`, body);
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ duplicate: true, id: first.body.id });
    const read = await graphql(stack, READ_CONVERSATION, { id: '3000000000000000002' });
    expect(read.body.data.conversation.handoffs).toHaveLength(1);
  });

  it('records a re-delivery with the same Idempotency-Key once (docs/operations.md#handoffs-and-dead-letters), and two handoffs with two keys twice', async () => {
    const target = `${url(stack, 'handoff')}/handoff`;
    const key = 'b1946ac9-2f0e-4c4e-9d51-0a4f1e6f3c11';
    const first = await postJson(target, handoffBody('3000000000000000004'), { 'idempotency-key': key });
    // The same key with another trace id (e.g. a re-delivery after a restart): still the same handoff.
    const again = await postJson(target, handoffBody('3000000000000000004', { trace_id: '5bf92f3577b34da6a3ce929d0e0e4736' }), { 'idempotency-key': key });
    expect(first.body).toMatchObject({ duplicate: false });
    expect(again).toMatchObject({ status: 202, body: { duplicate: true, id: first.body.id } });
    const other = await postJson(target, handoffBody('3000000000000000004', { trace_id: '6bf92f3577b34da6a3ce929d0e0e4736' }), { 'idempotency-key': 'another-key' });
    expect(other.body).toMatchObject({ duplicate: false });
    const read = await graphql(stack, READ_CONVERSATION, { id: '3000000000000000004' });
    expect(read.body.data.conversation.handoffs).toHaveLength(2);
  });

  it('refuses a body that is not a handoff of docs/contracts.md#handoff-receiver (400) and records nothing', async () => {
    const target = `${url(stack, 'handoff')}/handoff`;
    const { contact: _omitted, ...withoutContact } = handoffBody('3000000000000000003');
    expect((await postJson(target, withoutContact)).status).toBe(400);
    expect((await postJson(target, handoffBody('3000000000000000003', { contact: { name: 1, phone: null, email: null } }))).status).toBe(400);
    expect((await postJson(target, handoffBody('3000000000000000003', { trace_id: 12 }))).status).toBe(400);
    const read = await graphql(stack, READ_CONVERSATION, { id: '3000000000000000003' });
    expect(read.body.data.conversation).toBeNull();
  });
});
