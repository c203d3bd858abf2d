import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { chatSteps } from '../../steps/chat-pipeline.ts';
import { LatencyStepsSchema } from '../../schemas/chat-response.schema.ts';
import { CACHE_HIT_STEP, CHAT_STEPS, LATENCY_STEP_NAMES, WAIT_FOR_TURN_STEP } from '../../schemas/chat-steps.ts';
import { latencyFrom, serverTiming } from '../../src/pipeline/latency.ts';
import { WAIT_FOR_TURN } from '../../src/http/chat-admission.ts';
import type { StepTiming } from '../../src/pipeline/runner.ts';

const TIMINGS: StepTiming[] = [
  { name: 'receiveRequest', ms: 0.25, ok: true },
  { name: 'askEngine', ms: 120.5, ok: true },
  { name: 'formatReply', ms: 1, ok: true },
  { name: 'extractContact', ms: 2.5, ok: true },
  { name: 'updateConversation', ms: 10, ok: true },
  { name: 'storeQuestion', ms: 7.25, ok: true },
  { name: 'startHandoff', ms: 0.5, ok: true },
  { name: 'storeAnswer', ms: 8, ok: true },
];

describe('chatPipeline', () => {
  it('runs the processing rules of docs/api.md#what-a-chat-does-in-order in their order', () => {
    const names: string[] = chatSteps.map((step) => step.name);
    const at = (name: string) => {
      const i = names.indexOf(name);
      expect(i, name).toBeGreaterThanOrEqual(0);
      return i;
    };
    const spec = ['receiveRequest', 'validateRequest', 'trimHistory', 'askEngine', 'formatReply', 'extractContact', 'storeQuestion', 'startHandoff', 'storeAnswer', 'assembleResponse'];
    const positions = spec.map(at);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(names[0]).toBe('receiveRequest');
    expect(names.at(-1)).toBe('assembleResponse');
  });

  it('runs the steps schemas/chat-steps.ts declares, in their order, each function named as declared', () => {
    expect(chatSteps.map((step) => step.name)).toEqual(CHAT_STEPS.map((step) => step.name));
  });

  it('is listed step by step, in order, in steps/README.md, which says which steps call a party as declared', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../steps/README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## In pipeline order'));
    const listed = [...table.matchAll(/^\| `(\w+)` \| [^|]+ \| (yes|no) \|/gm)].map((m) => `${m[1]}: ${m[2]}`);
    expect(listed).toEqual(CHAT_STEPS.map((step) => `${step.name}: ${step.callsParty ? 'yes' : 'no'}`));
  });
});

describe('latencyFrom', () => {
  it('derives the latency members of docs/api.md#chat-response in milliseconds from the step timings', () => {
    const latency = latencyFrom(TIMINGS, 175.75, false);
    expect(latency.service_engine_latency).toBe(120.5);
    expect(latency.chat_adapter_latency).toBe(175.75);
    expect(latency.extract_and_update_contact_latency).toBe(12.5);
    expect(latency.create_message_latency).toBe(15.25);
  });

  it('lists every step once, in the order the steps ran', () => {
    const latency = latencyFrom(TIMINGS, 175.75, false);
    expect(Object.keys(latency.steps)).toEqual(TIMINGS.map((t) => t.name));
    expect(Object.values(latency.steps)).toEqual(TIMINGS.map((t) => t.ms));
  });

  it('reports engine latency 0 on a cache hit, and the engine step as askEngineCacheHit in its place', () => {
    const latency = latencyFrom(TIMINGS, 60, true);
    expect(latency.service_engine_latency).toBe(0);
    expect(latency.steps).not.toHaveProperty('askEngine');
    expect(latency.steps.askEngineCacheHit).toBe(120.5);
    expect(Object.keys(latency.steps).indexOf('askEngineCacheHit')).toBe(TIMINGS.findIndex((t) => t.name === 'askEngine'));
  });

  it('rounds every figure to 3 decimals (microseconds)', () => {
    const latency = latencyFrom([{ name: 'askEngine', ms: 12.34567, ok: true }, { name: 'storeQuestion', ms: 0.0004, ok: true }], 20.0005001, false);
    expect(latency.steps).toEqual({ askEngine: 12.346, storeQuestion: 0 });
    expect(latency.service_engine_latency).toBe(12.346);
    expect(latency.chat_adapter_latency).toBe(20.001);
    expect(serverTiming(latency)).toBe('askEngine;dur=12.346, storeQuestion;dur=0, total;dur=20.001');
  });

  it('counts a failed step that was still timed', () => {
    const latency = latencyFrom([{ name: 'storeQuestion', ms: 4, ok: false }], 5, false);
    expect(latency.create_message_latency).toBe(4);
    expect(latency.extract_and_update_contact_latency).toBe(0);
  });
});

describe('the latency.steps schema', () => {
  it('names the wait for the turn, then every step of the pipeline in its order, with the cache-hit name right after askEngine', () => {
    expect(WAIT_FOR_TURN).toBe(WAIT_FOR_TURN_STEP);
    const names = [WAIT_FOR_TURN, ...chatSteps.map((step) => step.name)];
    names.splice(names.indexOf('askEngine') + 1, 0, CACHE_HIT_STEP);
    expect([...LATENCY_STEP_NAMES]).toEqual(names);
  });

  it('is serialized with the steps that ran, in pipeline order, whatever order the object was built in', async () => {
    const app = Fastify();
    let body: object = {};
    app.get('/', { schema: { response: { 200: LatencyStepsSchema } } }, async () => body);
    body = { storeAnswer: 8, receiveRequest: 0.25, askEngineCacheHit: 1.5 };
    expect((await app.inject('/')).body).toBe('{"receiveRequest":0.25,"askEngineCacheHit":1.5,"storeAnswer":8}');
    body = latencyFrom(TIMINGS, 175.75, false).steps;
    expect((await app.inject('/')).json()).toEqual(Object.fromEntries(TIMINGS.map((t) => [t.name, t.ms])));
    await app.close();
  });
});

describe('serverTiming', () => {
  it('gives one name;dur= entry per step in order, then the total, as the body gives them', () => {
    const latency = latencyFrom(TIMINGS.slice(0, 3), 130.123, false);
    expect(serverTiming(latency)).toBe('receiveRequest;dur=0.25, askEngine;dur=120.5, formatReply;dur=1, total;dur=130.123');
  });

  it('follows the Server-Timing header grammar', () => {
    const header = serverTiming(latencyFrom(TIMINGS, 200, false));
    for (const entry of header.split(', ')) {
      expect(entry).toMatch(/^[A-Za-z][A-Za-z0-9_-]*;dur=\d+(\.\d+)?$/);
    }
    expect(header.split(', ')).toHaveLength(TIMINGS.length + 1);
  });
});
