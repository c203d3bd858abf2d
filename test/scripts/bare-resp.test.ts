/**
 * The benchmark's bare Redis baseline (scripts/bench/bare-resp.ts) hands each reply to the call
 * that is waiting for it by finding where one reply ends: a wrong boundary would pair calls with
 * other calls' replies and give `npm run bench:clients` figures for work that was not done.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeCommand, replyEnd } from '../../scripts/bench/bare-resp.ts';

type Reply = { kind: 'simple' | 'error'; text: string } | { kind: 'int'; value: number } | { kind: 'bulk'; text: string | null } | { kind: 'array'; items: Reply[] | null };

const line = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', ':', '-', '$', '*', 'é') });
const reply: fc.Arbitrary<Reply> = fc.letrec<{ reply: Reply }>((tie) => ({
  reply: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ kind: fc.constantFrom('simple' as const, 'error' as const), text: line }),
    fc.record({ kind: fc.constant('int' as const), value: fc.integer() }),
    // Bulk strings may hold anything, CR LF and RESP type bytes included.
    fc.record({ kind: fc.constant('bulk' as const), text: fc.option(fc.string({ unit: fc.constantFrom('x', '\r', '\n', '*', '$', ':', 'ñ') }), { nil: null }) }),
    fc.record({ kind: fc.constant('array' as const), items: fc.option(fc.array(tie('reply'), { maxLength: 4 }), { nil: null }) }),
  ),
})).reply;

function encode(r: Reply): string {
  switch (r.kind) {
    case 'simple':
      return `+${r.text}\r\n`;
    case 'error':
      return `-${r.text}\r\n`;
    case 'int':
      return `:${r.value}\r\n`;
    case 'bulk':
      return r.text === null ? '$-1\r\n' : `$${Buffer.byteLength(r.text)}\r\n${r.text}\r\n`;
    case 'array':
      return r.items === null ? '*-1\r\n' : `*${r.items.length}\r\n${r.items.map(encode).join('')}`;
  }
}

describe('bare RESP replies', () => {
  it('finds where each of several replies in a row ends, and never before all of it has arrived', () => {
    fc.assert(
      fc.property(fc.array(reply, { minLength: 1, maxLength: 5 }), (replies) => {
        const encoded = replies.map((r) => Buffer.from(encode(r)));
        const stream = Buffer.concat(encoded);
        let at = 0;
        for (const one of encoded) {
          // Every strict prefix of this reply is incomplete.
          for (let cut = at; cut < at + one.length; cut++) expect(replyEnd(stream.subarray(0, cut), at)).toBe(-1);
          at = replyEnd(stream, at);
          expect(at).not.toBe(-1);
        }
        expect(at).toBe(stream.length);
      }),
    );
  });

  it('writes a command as an array of bulk strings, lengths in bytes', () => {
    expect(encodeCommand(['EVALSHA', 'abc', 1, 'k:é'])).toBe('*4\r\n$7\r\nEVALSHA\r\n$3\r\nabc\r\n$1\r\n1\r\n$4\r\nk:é\r\n');
  });
});
