import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { findTooDeep, MAX_BODY_DEPTH } from '../../src/http/body-depth.ts';
import { chatRequest } from '../helpers/fixtures.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

/** docs/api.md#overload-and-input-depth: more than 32 levels of objects and arrays (the body is level 1) is a 400 naming the member. */
const harness = useStubbedService();

/** `mixed` alternates, starting with an object; `object of arrays` is one object holding arrays. */
type Shape = 'objects' | 'arrays' | 'mixed' | 'object of arrays';

/** JSON text of a value that is `levels` levels deep by itself (1 = `{}` or `[]`). */
function nested(levels: number, shape: Shape): string {
  let open = '';
  let close = '';
  for (let level = 1; level < levels; level += 1) {
    const object = shape === 'objects' || (shape === 'mixed' && level % 2 === 1) || (shape === 'object of arrays' && level === 1);
    open += object ? '{"a":' : '[1,';
    close = (object ? '}' : ']') + close;
  }
  const innermostArray = shape === 'arrays' || (shape === 'object of arrays' && levels > 1);
  return `${open}${innermostArray ? '[]' : '{}'}${close}`;
}

/** A valid chat whose `member` holds a value `levels` deep: the whole body is `levels + 1` deep. */
function bodyWith(member: string, levels: number, shape: Shape): string {
  const base = JSON.stringify(chatRequest());
  return `${base.slice(0, -1)},"${member}":${nested(levels, shape)}}`;
}

async function send(body: string): Promise<LightMyRequestResponse> {
  return harness.svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: body, headers: { 'content-type': 'application/json' } });
}

async function expect400Naming(body: string, member: string) {
  const stubs = Object.values(harness.svc.stubs);
  const before = stubs.map((s) => s.requests.length);
  const res = await send(body);
  expect(res.statusCode).toBe(400);
  const json = res.json();
  expect(Object.keys(json)).toEqual(['detail']);
  expect(json.detail.trace_id).toMatch(/^[0-9a-f]{32}$/);
  expect(json.detail.message).toBe(`Invalid request: '${member}' is nested more than ${MAX_BODY_DEPTH} levels deep (objects and arrays)`);
  expect(stubs.map((s) => s.requests.length)).toEqual(before);
}

const MEMBERS = ['schedule_information', 'reschedule_information', 'history', 'message', 'an_unknown_member'];
const SHAPES: Shape[] = ['objects', 'arrays', 'mixed', 'object of arrays'];

describe('a body nested too deep', () => {
  for (const member of MEMBERS) {
    for (const shape of SHAPES) {
      it.each([MAX_BODY_DEPTH, 1_000, 10_000])(`in ${member} (${shape}), %i levels below the body, is a 400 naming it`, async (levels) => {
        await expect400Naming(bodyWith(member, levels, shape), member);
      });
    }
  }

  it('names the member holding the deepest part when several are too deep', async () => {
    const base = JSON.stringify(chatRequest());
    const body = `${base.slice(0, -1)},"schedule_information":${nested(40, 'objects')},"reschedule_information":${nested(500, 'arrays')},"history":${nested(45, 'mixed')}}`;
    await expect400Naming(body, 'reschedule_information');
  });

  it('is a 400 for a body that is itself an array nested 10,000 levels', async () => {
    await expect400Naming(nested(10_000, 'arrays'), 'body');
  });

  it('keeps serving afterwards', async () => {
    expect((await send(JSON.stringify(chatRequest()))).statusCode).toBe(200);
  });
});

describe('a body exactly at the limit', () => {
  for (const member of ['schedule_information', 'reschedule_information', 'an_unknown_member']) {
    // The object members must hold an object to pass validation.
    for (const shape of SHAPES.filter((s) => s !== 'arrays')) {
      it(`in ${member} (${shape}) is answered`, async () => {
        const res = await send(bodyWith(member, MAX_BODY_DEPTH - 1, shape));
        expect(res.statusCode).toBe(200);
        if (member !== 'an_unknown_member') {
          const forwarded = harness.svc.stubs.engine.requests.at(-1)?.body as Record<string, unknown>;
          expect(JSON.stringify(forwarded[member])).toBe(nested(MAX_BODY_DEPTH - 1, shape));
        }
      });
    }
  }
});

describe('findTooDeep (the raw-text scan)', () => {
  it('does not count brackets inside strings, escaped quotes included', () => {
    const inString = JSON.stringify({ message: `${'{['.repeat(100)}\\"${'"{'.repeat(50)}` });
    expect(findTooDeep(inString)).toBeUndefined();
    expect(findTooDeep(`{"k\\"{{{":"v\\\\",${'"x":'.repeat(0)}"a":${nested(40, 'objects')}}`)).toEqual({ member: 'a', depth: 41 });
  });

  it('decodes escapes in the member name and shortens a very long one', () => {
    expect(findTooDeep(`{"sched\\u0075le":${nested(33, 'arrays')}}`)?.member).toBe('schedule');
    const long = 'm'.repeat(1000);
    expect(findTooDeep(`{"${long}":${nested(33, 'arrays')}}`)?.member).toBe(`${'m'.repeat(64)}…`);
  });

  it('counts the body as level 1', () => {
    expect(findTooDeep(nested(MAX_BODY_DEPTH, 'mixed'))).toBeUndefined();
    expect(findTooDeep(nested(MAX_BODY_DEPTH + 1, 'arrays'))).toEqual({ member: undefined, depth: MAX_BODY_DEPTH + 1 });
  });
});
