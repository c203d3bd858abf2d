import { describe, expect, it } from 'vitest';
import { storeQuestion } from '../../steps/store-question.ts';
import { CALLER_API_KEY } from '../helpers/fixtures.ts';
import { fakeDeps } from './fake-deps.ts';
import { SHARED_INPUT, exchangeContext } from './stored-exchange.ts';

describe('storeQuestion (processing rule 7)', () => {
  it('stores the trimmed message as USER under <requestId>:question and returns its id', async () => {
    const { deps, calls } = fakeDeps();
    const patch = await storeQuestion(exchangeContext(), deps);
    expect(calls.createMessage).toHaveLength(1);
    const { input, callerApiKey, stored } = calls.createMessage[0]!;
    expect(input).toEqual({ ...SHARED_INPUT, role: 'USER', content: '¿Cuánto cuesta?', clientMessageKey: 'idem-42:question', language: 'es' });
    expect(callerApiKey).toBe(CALLER_API_KEY);
    expect(patch).toEqual({ questionId: stored.id });
  });

  it('carries entryId only when the request has entry_id', async () => {
    const { deps, calls } = fakeDeps();
    await storeQuestion(exchangeContext('entry-77'), deps);
    await storeQuestion(exchangeContext(), deps);
    expect(calls.createMessage[0]?.input.entryId).toBe('entry-77');
    expect(calls.createMessage[1]?.input).not.toHaveProperty('entryId');
  });
});
