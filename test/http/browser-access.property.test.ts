/** The pure parts of browser access (docs/browser-widgets.md), over classes of inputs. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCorsPath, originAllowed } from '../../src/http/cors.ts';
import { publishableKeyCheck } from '../../src/http/publishable-keys.ts';

const segment = fc.stringMatching(/^[A-Za-z0-9+=%._~-]{1,30}$/);

describe('isCorsPath', () => {
  it('is true exactly for the chat route and a conversation\'s stream and stop, with or without the prefix', () => {
    fc.assert(
      fc.property(segment, fc.constantFrom('', '/chat-svc'), fc.constantFrom('stream', 'stop', 'start', 'streams', ''), (id, prefix, action) => {
        expect(isCorsPath(`${prefix}/chat_adapter`, '/chat-svc')).toBe(true);
        expect(isCorsPath(`${prefix}/chat_adapter/${id}/${action}`, '/chat-svc')).toBe(action === 'stream' || action === 'stop');
        expect(isCorsPath(`${prefix}/chat_adapter/${id}/x/${action}`, '/chat-svc')).toBe(false);
        expect(isCorsPath(`/other${prefix}/chat_adapter`, '/chat-svc')).toBe(false);
      }),
    );
  });

  it('never matches a path of any other shape', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (path) => {
        const expected = path === '/chat_adapter' || /^\/chat_adapter\/[^/]+\/(stream|stop)$/.test(path);
        expect(isCorsPath(path, '')).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('originAllowed with local', () => {
  it('allows loopback http origins on any port and no other host, scheme or suffix', () => {
    const local = { local: true, origins: [] };
    const none = new Set<string>();
    fc.assert(
      fc.property(fc.domain(), fc.integer({ min: 1, max: 65_535 }), (host, port) => {
        expect(originAllowed(`http://${host}:${port}`, local, none)).toBe(host === 'localhost');
        expect(originAllowed(`http://127.0.0.1:${port}`, local, none)).toBe(true);
        expect(originAllowed(`https://localhost:${port}`, local, none)).toBe(false);
        expect(originAllowed(`http://localhost.${host}:${port}`, local, none)).toBe(false);
        expect(originAllowed(`http://localhost:${port}/`, local, none)).toBe(false);
      }),
    );
  });
});

describe('publishableKeyCheck', () => {
  const entry = { name: 'widget', key: 'pk_test_0123456789abcdef', origins: ['https://www.example.com'], orgId: '9876543210987654321', propertyIds: ['1234567890123456789'] };
  const check = publishableKeyCheck([entry]);

  it('names the caller only for the exact key from one of its origins', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.option(fc.webUrl().map((url) => new URL(url).origin).filter((o) => o !== 'https://www.example.com'), { nil: undefined }), (token, origin) => {
        expect(check(token, origin)).toBeUndefined();
        expect(check(entry.key, origin)).toBeUndefined();
      }),
    );
    expect(check(entry.key, 'https://www.example.com')).toMatchObject({ name: 'widget' });
    expect(check(entry.key, ['https://www.example.com', 'https://www.example.com'])).toBeUndefined();
  });
});
