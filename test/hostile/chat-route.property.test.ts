import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatRequest, engineReply, newSessionId } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';
import { hostileText, longRun, MESSAGE_MAX_CHARS, PROTOTYPE_NAMES } from './hostile-text.ts';

/*
 * The whole chat route (app.inject, real clients against loopback stubs) over hostile input: any
 * Unicode message, prototype names as words, as the whole message, as history and as body member
 * names, maximum-length messages and 50 history items of maximum length, Spanish support on or off,
 * the placeholder session id. Never a 500: a valid body is a 200, an invalid one a 400 in the
 * `detail` shape. The engine echoes the visitor's text back, so the formatting and translation
 * paths see the same text.
 */

// Many turns of one session within a minute: the per-session limit is raised (rate limits have their own tests).
const harness = useStubbedService({ RATE_LIMIT_SESSION_PER_MIN: '100000' });
const RUNS = { numRuns: 30 };

const message = fc.oneof(hostileText(), longRun(MESSAGE_MAX_CHARS), fc.constantFrom(...PROTOTYPE_NAMES))
  .filter((m) => m.trim().length >= 1 && m.trim().length <= MESSAGE_MAX_CHARS);
const historyItem = fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.oneof(hostileText(10), fc.constantFrom(...PROTOTYPE_NAMES)) });
const retrieval = fc.constantFrom('node', 'rag', 'fixed', 'spf');

function echoingEngine(type: string) {
  harness.svc.stubs.engine.handle((req, res) => {
    const asked = (req.body as { message: string }).message;
    sendJson(res, 200, engineReply({ retrieval_type: type as 'fixed', response: asked, follow_up: asked }));
  });
}

describe('the chat route over hostile input', () => {
  it('answers 200 for any valid message, history and settings', { timeout: 120_000 }, async () => {
    await fc.assert(fc.asyncProperty(
      message, fc.array(historyItem, { maxLength: 50 }), fc.boolean(), fc.boolean(), retrieval, fc.boolean(),
      async (text, history, spanish, toggle, type, placeholder) => {
        echoingEngine(type);
        const res = await harness.chat(chatRequest({
          message: text, history, spanish_support_enabled: spanish, spanish_toggle: toggle,
          session_id: placeholder ? 'fake_service_session_id' : newSessionId(),
        }));
        expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
        expect(typeof res.json().response).toBe('string');
      },
    ), RUNS);
  });

  it('answers 200 for the largest bodies: a 4000-character message and as many 4000-character history items as 256 KiB hold (at most 50)', { timeout: 60_000 }, async () => {
    echoingEngine('rag');
    for (const unit of ['😀', 'a@', '*a ', 'constructor ', 'ñ']) {
      const long = unit.repeat(MESSAGE_MAX_CHARS).slice(0, MESSAGE_MAX_CHARS);
      const room = 256 * 1024 - 1024 - Buffer.byteLength(JSON.stringify(long));
      const items = Math.min(50, Math.floor(room / (Buffer.byteLength(JSON.stringify(long)) + 32)));
      const history = Array.from({ length: items }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: long }));
      const res = await harness.chat(chatRequest({ message: long, history, spanish_support_enabled: true }));
      expect(res.statusCode, `${unit}: ${res.body.slice(0, 300)}`).toBe(200);
    }
  });

  it('serves every session whose messages are prototype names, cached turn after cached turn', { timeout: 60_000 }, async () => {
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    const session_id = newSessionId();
    for (const name of PROTOTYPE_NAMES) {
      for (const text of [name, `${name} ${name} ${name}`, `what about the ${name} policy`]) {
        const res = await harness.chat(chatRequest({ session_id, message: text, history: [{ role: 'user', content: name }] }));
        expect(res.statusCode, `${text}: ${res.body.slice(0, 300)}`).toBe(200);
      }
    }
  });

  it('never answers 500 to a body with prototype names as members, at any level', { timeout: 60_000 }, async () => {
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    const member = fc.constantFrom(...PROTOTYPE_NAMES);
    const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant({ polluted: true }));
    await fc.assert(fc.asyncProperty(member, value, fc.constantFrom('top', 'schedule_information', 'history'), async (name, v, where) => {
      const base = JSON.stringify(chatRequest());
      const extra = `${JSON.stringify(name)}:${JSON.stringify(v)}`;
      const payload = where === 'top' ? base.replace(/^\{/, `{${extra},`)
        : where === 'schedule_information' ? base.replace(/^\{/, `{"schedule_information":{${extra}},`)
          : base.replace('"history":[]', `"history":[{"role":"user","content":"hi",${extra}}]`);
      const res = await harness.svc.app.inject({ method: 'POST', url: '/chat_adapter', payload, headers: { 'content-type': 'application/json' } });
      expect([200, 400], res.body.slice(0, 300)).toContain(res.statusCode);
      if (res.statusCode === 400) expect(res.json().detail.message).toEqual(expect.any(String));
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    }), RUNS);
  });
});
