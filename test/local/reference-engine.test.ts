/**
 * The reference engine of the local stack streams its `rag` replies (docs/api.md#streamed-replies) when asked with
 * an event stream accepted: the retrieval type named first, a delta per word at the configured
 * pace, then the done event; other replies, and callers asking for JSON, get JSON as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../src/local/index.ts';
import { engineRequest, postJson } from './helpers.ts';
import { eventsOf } from '../http/stream-helpers.ts';

const WORD_MS = 15;
const RAG_QUESTION = 'How much is the security deposit and the application fee?';
let stack: LocalStack;
let dataDir: string;
let engine: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'reference-engine-stream-'));
  stack = await startLocalStack({ dataDir, parties: new Set(['engine']), engineWordMs: WORD_MS });
  engine = `${stack.urls.engine!}/query`;
});
afterAll(async () => {
  await stack.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function streamed(message: string): Promise<{ type: string | null; text: string; ms: number }> {
  const started = performance.now();
  const res = await fetch(engine, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream, application/json' },
    body: JSON.stringify(engineRequest(message)),
  });
  return { type: res.headers.get('content-type'), text: await res.text(), ms: performance.now() - started };
}

describe('reference engine, streaming', () => {
  it('streams a rag reply word by word at its pace, the deltas joined being its JSON reply', async () => {
    const json = (await postJson(engine, engineRequest(RAG_QUESTION))).body as Record<string, unknown>;
    expect(json['retrieval_type']).toBe('rag');
    const answer = await streamed(RAG_QUESTION);
    expect(answer.type).toBe('text/event-stream');
    const { parts } = eventsOf(answer.text);
    const deltas = parts.filter((p) => typeof p['delta'] === 'string').map((p) => p['delta'] as string);
    expect(parts[0]).toMatchObject({ retrieval_type: 'rag', language: 'en' });
    expect(deltas.join('')).toBe(json['response']);
    expect(deltas.length).toBe(String(json['response']).split(/\s+/).filter(Boolean).length);
    const { done, ...members } = parts.at(-1)!;
    expect(done).toBe(true);
    const { response: _r, ...jsonMembers } = json;
    expect(members).toEqual(jsonMembers);
    expect(answer.ms).toBeGreaterThanOrEqual((deltas.length - 1) * WORD_MS * 0.9);
  });

  it('answers JSON for a reply that is not rag, and for a caller asking for JSON', async () => {
    expect((await streamed('What are your office hours?')).type).toMatch(/^application\/json/);
    const res = await postJson(engine, engineRequest(RAG_QUESTION));
    expect(res.status).toBe(200);
  });
});
