import { describe, expect, it } from 'vitest';
import { storeAnswer } from '../../steps/store-answer.ts';
import { storeQuestion } from '../../steps/store-question.ts';
import { CALLER_API_KEY } from '../helpers/fixtures.ts';
import { fakeDeps } from './fake-deps.ts';
import { deliveredReply } from './step-context.ts';
import { SHARED_INPUT, exchangeContext } from './stored-exchange.ts';

describe('storeAnswer (processing rule 9)', () => {
  it('stores the reply as delivered as ASSISTANT under <requestId>:answer and returns its id', async () => {
    const { deps, calls } = fakeDeps();
    const patch = await storeAnswer(exchangeContext(), deps);
    expect(calls.createMessage).toHaveLength(1);
    const { input, callerApiKey, stored } = calls.createMessage[0]!;
    expect(input).toEqual({
      ...SHARED_INPUT,
      role: 'ASSISTANT',
      content: 'El alquiler empieza en $1,450.',
      clientMessageKey: 'idem-42:answer',
      language: 'es',
    });
    expect(callerApiKey).toBe(CALLER_API_KEY);
    expect(patch).toEqual({ answerId: stored.id });
  });

  it('records the language actually delivered (en after a failed translation)', async () => {
    const { deps, calls } = fakeDeps();
    const ctx = exchangeContext();
    ctx.reply = deliveredReply({ response: 'Rent starts at $1,450.', language: 'en' });
    await storeAnswer(ctx, deps);
    expect(calls.createMessage[0]?.input).toMatchObject({ content: 'Rent starts at $1,450.', language: 'en' });
  });

  it('carries entryId only when the request has entry_id', async () => {
    const { deps, calls } = fakeDeps();
    await storeAnswer(exchangeContext('entry-77'), deps);
    await storeAnswer(exchangeContext(), deps);
    expect(calls.createMessage[0]?.input.entryId).toBe('entry-77');
    expect(calls.createMessage[1]?.input).not.toHaveProperty('entryId');
  });

  it('uses a key and gets an id different from the stored question', async () => {
    const { deps, calls } = fakeDeps();
    const ctx = exchangeContext();
    const q = await storeQuestion(ctx, deps);
    const a = await storeAnswer(ctx, deps);
    expect(calls.createMessage.map((c) => c.input.clientMessageKey)).toEqual(['idem-42:question', 'idem-42:answer']);
    expect(a.answerId).toBe(calls.createMessage[1]?.stored.id);
    expect(a.answerId).not.toBe(q.questionId);
  });
});
