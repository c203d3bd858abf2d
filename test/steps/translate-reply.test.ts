import { describe, expect, it } from 'vitest';
import { DownstreamError, OutboundRequestError } from '../../src/errors.ts';
import type { Language } from '../../schemas/engine.schema.ts';
import { translateReply } from '../../steps/translate-reply.ts';
import { fakeDeps, fakeTranslation, type FakeOptions } from './fake-deps.ts';
import { answeredContext, applyPatch, deliveredReply, validRequest } from './step-context.ts';

const RESPONSE = 'The pool opens at 8am. Call Maria at 415 555 2671.';
const FOLLOW_UP = 'Would you like a tour?';

async function run(target: Language, written: Language, follow_up = FOLLOW_UP, options: FakeOptions = {}) {
  const { deps, calls } = fakeDeps(options);
  const ctx = answeredContext(validRequest({ spanish_toggle: target === 'es' }), {
    language: target,
    reply: deliveredReply({ response: RESPONSE, follow_up, language: written, not_available: ['gym'] }),
  });
  applyPatch(ctx, await translateReply(ctx, deps));
  return { reply: ctx.reply!, calls };
}

describe('translateReply (docs/api.md#reply-language)', () => {
  it('translates response and follow_up, one call each, when Spanish is wanted and the text is English', async () => {
    const { reply, calls } = await run('es', 'en');
    expect(calls.translate).toEqual([
      { text: RESPONSE, source: 'en', target: 'es' },
      { text: FOLLOW_UP, source: 'en', target: 'es' },
    ]);
    expect(reply).toEqual({
      response: fakeTranslation(RESPONSE, 'es'),
      follow_up: fakeTranslation(FOLLOW_UP, 'es'),
      language: 'es',
      not_available: ['gym'],
    });
  });

  it('makes no call for an empty follow_up', async () => {
    const { reply, calls } = await run('es', 'en', '');
    expect(calls.translate.map((c) => c.text)).toEqual([RESPONSE]);
    expect(reply.follow_up).toBe('');
    expect(reply.language).toBe('es');
  });

  it.each<[Language, Language]>([
    ['en', 'en'],
    ['es', 'es'],
  ])('does nothing when the wanted language (%s) is already the written one (%s)', async (target, written) => {
    const { reply, calls } = await run(target, written);
    expect(calls.translate).toHaveLength(0);
    expect(reply.response).toBe(RESPONSE);
    expect(reply.language).toBe(written);
  });

  it('on failure keeps the English reply, says en, and logs a warning without the text', async () => {
    let n = 0;
    // The second call fails: a half-translated reply must not go out.
    const translate = async (text: string) => {
      n += 1;
      if (n === 2) throw new DownstreamError('translate', 'timed out');
      return `ES ${text}`;
    };
    const { reply, calls } = await run('es', 'en', FOLLOW_UP, { translate });
    expect(reply.response).toBe(RESPONSE);
    expect(reply.follow_up).toBe(FOLLOW_UP);
    expect(reply.language).toBe('en');

    const warnings = calls.logs.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    const logged = JSON.stringify(calls.logs);
    for (const secret of [RESPONSE, FOLLOW_UP, 'Maria', '555 2671', 'pool opens']) {
      expect(logged).not.toContain(secret);
    }
  });

  it('a request the service could not build is its own failure: thrown (a 500), not an English reply blaming translate', async () => {
    const failure = new OutboundRequestError('translate', new TypeError('Do not know how to serialize a BigInt'));
    const translate = async () => {
      throw failure;
    };
    await expect(run('es', 'en', FOLLOW_UP, { translate })).rejects.toBe(failure);
  });
});
