import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from '../../src/idempotency/request-fingerprint.ts';
import { requestIdFor } from '../../src/pipeline/request-id.ts';

describe('the request fingerprint', () => {
  it('sorts members at every level, keeps array order and drops undefined members', () => {
    expect(canonicalJson({ b: [2, 1, { d: undefined, c: 'x' }], a: null, e: {}, f: 'é"' })).toBe('{"a":null,"b":[2,1,{"c":"x"}],"e":{},"f":"é\\""}');
  });

  it('writes an undefined array item as null, as JSON does (the item is not dropped: [1, undefined] is not [1])', () => {
    expect(canonicalJson([1, undefined])).toBe('[1,null]');
    expect(canonicalJson([1, undefined])).not.toBe(canonicalJson([1]));
  });

  it('is JSON that parses back to the same value, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on the order members were written in, for any object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 8 }), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(record));
      }),
      { numRuns: 300 },
    );
  });

  it('is the same for the same members in another order, and differs when any value differs', () => {
    const body = { message: 'Hi', history: [{ role: 'user', content: 'a' }], orgId: '1', spanish_toggle: false };
    const reordered = { spanish_toggle: false, orgId: '1', history: [{ content: 'a', role: 'user' }], message: 'Hi' };
    expect(requestFingerprint(reordered)).toBe(requestFingerprint(body));
    expect(requestFingerprint(body)).toMatch(/^[0-9a-f]{64}$/);
    for (const changed of [{ ...body, message: 'Hi!' }, { ...body, spanish_toggle: true }, { ...body, history: [] }]) {
      expect(requestFingerprint(changed)).not.toBe(requestFingerprint(body));
    }
  });
});

describe('the request id of a keyed chat', () => {
  it('is a stable UUID v8 per (orgId, key), different across organisations and keys', () => {
    const id = requestIdFor('9876543210987654321', 'order-42');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(requestIdFor('9876543210987654321', 'order-42')).toBe(id);
    expect(requestIdFor('1234567890123456789', 'order-42')).not.toBe(id);
    expect(requestIdFor('9876543210987654321', 'order-43')).not.toBe(id);
  });
});
