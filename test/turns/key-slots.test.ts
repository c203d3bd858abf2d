/**
 * Redis Cluster routes a script by its keys' hash slot and refuses one whose keys span slots
 * (CROSSSLOT). Every key a chat's session scripts touch carries the session's hash tag, so they
 * share one slot whatever the ids a caller sends; a shared rate window's counter is alone in its own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SESSION_KEY_PREFIX, sessionKeys } from '../../src/cache/redis-session-data.ts';
import { sessionNameOf } from '../../src/pipeline/session-key.ts';
import { turnQueueKeys } from '../../src/turns/redis-turn-queue.ts';
import { windowKey } from '../../src/turns/shared-windows.ts';
import { sessionKeyOf } from '../../src/pipeline/session-key.ts';

/** What Redis hashes for a key: the text inside the first `{...}` when it is not empty, else the whole key. */
function hashedPart(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  if (close === -1 || close === open + 1) return key;
  return key.slice(open + 1, close);
}

const id = fc.string({ minLength: 1, maxLength: 40, unit: 'binary' });
const session = fc.record({ orgId: id, propertyId: id, session_id: fc.oneof(id, fc.constant('fake_service_session_id')), conversation_id: id });

describe('Redis keys of a chat', () => {
  it('all seven keys of a session (queue, rate window, kept conversation) hash as one tag, the same as the session cache\'s, and two sessions never share it', () => {
    fc.assert(
      fc.property(session, session, (a, b) => {
        const keys = turnQueueKeys(SESSION_KEY_PREFIX, sessionNameOf(a));
        expect(keys).toHaveLength(7);
        expect(new Set(keys).size).toBe(7);
        const tags = new Set(keys.map(hashedPart));
        expect(tags.size).toBe(1);
        const cached = sessionKeys(SESSION_KEY_PREFIX, sessionKeyOf(a));
        expect([cached.messages, cached.answers, cached.language].every((key) => keys.includes(key))).toBe(true);
        const sameSession = sessionNameOf(a) === sessionNameOf(b);
        expect(hashedPart(turnQueueKeys(SESSION_KEY_PREFIX, sessionNameOf(b))[0]!) === [...tags][0]).toBe(sameSession);
      }),
    );
  });

  it('a shared rate window\'s counter is tagged by its own key, whatever characters a caller key name or address holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (name) => {
        const key = windowKey('chat-adapter:', { key: `client-key:${name}`, max: 1 });
        expect(hashedPart(key)).toBe(`rate:${Buffer.from(`client-key:${name}`).toString('base64url')}`);
      }),
    );
  });
});
