/**
 * Replicas told apart and requests described as the HTTP conventions (1.45) say: the resource has
 * a `service.instance.id` per process and honours OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES;
 * the SERVER span carries client.address, user_agent.original and network.protocol.version.
 */
import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { parseResourceAttributes } from '../../src/config/resource-config.ts';
import { chatRequest } from '../helpers/fixtures.ts';
import { startTracedService } from './traced-service.ts';

async function serverSpanOf(env: Record<string, string>, headers: Record<string, string> = {}) {
  const svc = await startTracedService(env);
  try {
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers });
    expect(res.statusCode).toBe(200);
    return (await svc.trace(res.json().trace_id as string)).find((s) => s.kind === SpanKind.SERVER)!;
  } finally {
    await svc.close();
  }
}

describe('the resource', () => {
  it('has a service.instance.id of its own per process (a UUID), and the environment (the stubbed service runs as qa)', async () => {
    const [a, b] = [await serverSpanOf({}), await serverSpanOf({})];
    const id = a.resource.attributes['service.instance.id'];
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b.resource.attributes['service.instance.id']).not.toBe(id);
    expect(a.resource.attributes).toMatchObject({ 'service.name': 'chat-adapter', 'deployment.environment.name': 'qa' });
  });

  it('honours OTEL_RESOURCE_ATTRIBUTES (decoded, over its own) and OTEL_SERVICE_NAME (over both)', async () => {
    const span = await serverSpanOf({
      OTEL_SERVICE_NAME: 'chat-adapter-eu',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=ignored,service.instance.id=pod-7f9c,k8s.namespace.name=chat%20prod',
    });
    expect(span.resource.attributes).toMatchObject({ 'service.name': 'chat-adapter-eu', 'service.instance.id': 'pod-7f9c', 'k8s.namespace.name': 'chat prod' });
  });

  it('refuses a malformed OTEL_RESOURCE_ATTRIBUTES by name', () => {
    expect(() => parseResourceAttributes('no-equals-sign')).toThrow(/OTEL_RESOURCE_ATTRIBUTES/);
    expect(() => parseResourceAttributes('a=%E0%A4%A')).toThrow(/OTEL_RESOURCE_ATTRIBUTES/);
    expect([...parseResourceAttributes('a=1, b = two ,,__proto__=x')]).toEqual([
      ['a', '1'],
      ['b', 'two'],
      ['__proto__', 'x'],
    ]);
  });
});

describe('the SERVER span', () => {
  it('carries client.address, user_agent.original (bounded) and network.protocol.version', async () => {
    const span = await serverSpanOf({}, { 'user-agent': `ai-sdk/7 ${'x'.repeat(400)}` });
    expect(span.attributes['client.address']).toBe('127.0.0.1');
    expect(span.attributes['network.protocol.version']).toBe('1.1');
    const agent = String(span.attributes['user_agent.original']);
    expect(agent.startsWith('ai-sdk/7 ')).toBe(true);
    expect(agent.length).toBe(256);
  });
});
