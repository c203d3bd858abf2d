/**
 * One behavioural suite for every SessionCache implementation (memory and Redis must agree).
 * The factory hands back a cache plus a way to let time pass: a fake clock for memory, a real wait
 * for Redis (whose expiry is real).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineReply } from '../../schemas/engine.schema.ts';
import type { SessionCache, SessionKey, Turn } from '../../src/cache/session-cache.ts';

export interface CacheUnderTest {
  cache: SessionCache;
  errors: Array<{ operation: string; err: Error }>;
  /** Let `ms` milliseconds of cache time pass. */
  elapse(ms: number): Promise<void>;
}

export type CacheFactory = (opts: { ttlSeconds: number }) => Promise<CacheUnderTest>;

export function reply(response: string, retrieval_type: EngineReply['retrieval_type'] = 'rag'): EngineReply {
  return { response, intent: 'faq', sub_intent: 'general', retrieval_type, not_available: [], keyword_cache: {} };
}

export function turn(n: number, language: 'en' | 'es' = 'en'): Turn {
  return { question: `question ${n}`, answer: `answer ${n}`, reply: reply(`engine reply ${n}`), language };
}

export function newKey(overrides: Partial<SessionKey> = {}): SessionKey {
  return { orgId: '1234567890123456789', propertyId: '9876543210987654321', sessionId: randomUUID(), ...overrides };
}

export function describeSessionCacheContract(name: string, factory: CacheFactory): void {
  describe(`${name} session cache (shared contract)`, () => {
    const open: CacheUnderTest[] = [];
    async function make(ttlSeconds = 7200): Promise<CacheUnderTest> {
      const made = await factory({ ttlSeconds });
      open.push(made);
      return made;
    }
    afterEach(async () => {
      for (const made of open.splice(0)) {
        expect(made.errors).toEqual([]);
        await made.cache.close();
      }
    });

    it('has nothing for a session never written', async () => {
      const { cache } = await make();
      expect(await cache.get(newKey())).toBeUndefined();
    });

    it('answers ping while its backend is up', async () => {
      const { cache } = await make();
      expect(await cache.ping()).toBe(true);
    });

    it('keeps a turn without an engine reply (a stopped one) in the history, never as a reply to reuse', async () => {
      const { cache } = await make();
      const key = newKey();
      await cache.recordTurn(key, turn(1));
      await cache.recordTurn(key, { question: 'question 2', answer: 'half of answer', language: 'es' });
      const entry = await cache.get(key);
      expect(entry?.messages.map((m) => m.content)).toEqual(['question 1', 'answer 1', 'question 2', 'half of answer']);
      expect(entry?.answers.map((a) => a.question)).toEqual(['question 1']);
      expect(entry?.language).toBe('es');
    });

    it('returns the question, the answer, the reply and the language a turn recorded', async () => {
      const { cache } = await make();
      const key = newKey();
      const before = Date.now();
      const spanish: Turn = {
        question: '¿Aceptan "mascotas"?\nGracias',
        answer: 'Sí, aceptamos perros y gatos.',
        reply: { ...reply('Yes, dogs and cats are welcome.', 'fixed'), follow_up: 'Anything else?' },
        language: 'es',
      };
      await cache.recordTurn(key, spanish);
      const entry = await cache.get(key);
      expect(entry?.messages).toEqual([
        { role: 'user', content: spanish.question },
        { role: 'assistant', content: spanish.answer },
      ]);
      expect(entry?.answers).toHaveLength(1);
      expect(entry?.answers[0]).toMatchObject({ question: spanish.question, reply: spanish.reply, answer: spanish.answer });
      expect(entry?.answers[0]?.at).toBeGreaterThanOrEqual(before - 60_000);
      expect(entry?.language).toBe('es');
    });

    it('keeps the last 8 messages and the last 8 answers, oldest first', async () => {
      const { cache } = await make();
      const key = newKey();
      for (let n = 1; n <= 10; n += 1) await cache.recordTurn(key, turn(n));
      const entry = await cache.get(key);
      expect(entry?.messages.map((m) => m.content)).toEqual([7, 8, 9, 10].flatMap((n) => [`question ${n}`, `answer ${n}`]));
      expect(entry?.messages.map((m) => m.role)).toEqual(Array.from({ length: 4 }, () => ['user', 'assistant']).flat());
      expect(entry?.answers.map((a) => a.question)).toEqual([3, 4, 5, 6, 7, 8, 9, 10].map((n) => `question ${n}`));
    });

    it('never lets two tenants or two sessions share an entry, whatever the ids contain', async () => {
      const { cache } = await make();
      const sessionId = randomUUID();
      const written = newKey({ sessionId, orgId: 'a:b', propertyId: 'c' });
      await cache.recordTurn(written, turn(1));
      const others: SessionKey[] = [
        { ...written, orgId: 'a', propertyId: 'b:c' },
        { ...written, orgId: 'other-org' },
        { ...written, propertyId: 'other-property' },
        { ...written, sessionId: randomUUID() },
        { orgId: 'a:b:c', propertyId: '', sessionId },
        { orgId: 'a:b","c', propertyId: '', sessionId },
        { orgId: 'a:b', propertyId: `c","${sessionId}`, sessionId: '' },
      ];
      for (const other of others) expect(await cache.get(other)).toBeUndefined();
      expect((await cache.get(written))?.messages).toHaveLength(2);
    });

    it('forgets a session once its time to live has passed', async () => {
      const { cache, elapse } = await make(1);
      const key = newKey();
      await cache.recordTurn(key, turn(1));
      await elapse(1100);
      expect(await cache.get(key)).toBeUndefined();
      await cache.recordTurn(key, turn(2));
      expect((await cache.get(key))?.messages.map((m) => m.content)).toEqual(['question 2', 'answer 2']);
    });

    it('refreshes the time to live on every write', async () => {
      const { cache, elapse } = await make(1);
      const key = newKey();
      await cache.recordTurn(key, turn(1));
      await elapse(650);
      await cache.recordTurn(key, turn(2));
      await elapse(650);
      expect((await cache.get(key))?.answers).toHaveLength(2);
      await elapse(500);
      expect(await cache.get(key)).toBeUndefined();
    });

    it('keeps the language the session last replied in', async () => {
      const { cache } = await make();
      const key = newKey();
      await cache.recordTurn(key, turn(1, 'es'));
      expect((await cache.get(key))?.language).toBe('es');
      await cache.recordTurn(key, turn(2, 'en'));
      const entry = await cache.get(key);
      expect(entry?.language).toBe('en');
      expect(entry?.answers.map((a) => a.language)).toEqual(['es', 'en']);
    });

    it('is not changed by a caller changing what it read', async () => {
      const { cache } = await make();
      const key = newKey();
      await cache.recordTurn(key, turn(1));
      const first = await cache.get(key);
      first?.messages.push({ role: 'user', content: 'injected' });
      first?.answers.splice(0);
      if (first?.messages[0]) first.messages[0].content = 'changed';
      const second = await cache.get(key);
      if (second?.answers[0]) second.answers[0].question = 'changed';
      const again = await cache.get(key);
      expect(again?.messages.map((m) => m.content)).toEqual(['question 1', 'answer 1']);
      expect(again?.answers.map((a) => a.question)).toEqual(['question 1']);
    });
  });
}
