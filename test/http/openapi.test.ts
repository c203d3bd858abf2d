/**
 * The OpenAPI document at /openapi.json: a valid OpenAPI 3.1 document (checked by a real validator),
 * generated from the route schemas, with every route, every status and its body, the
 * Idempotency-Key header, the bearer scheme, version 1.5 with the versioning notice of docs/api.md#versioning, and examples that
 * the service itself accepts.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { ChatResponseSchema } from '../../schemas/chat-response.schema.ts';
import { documentRoute } from '../../src/http/openapi-document.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const harness = useStubbedService();
async function document(): Promise<Json> {
  const res = await harness.svc.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/**
 * The OpenAPI validator checks the document's structure but accepts any object as a Schema Object,
 * so each schema is also checked against the JSON Schema 2020-12 meta-schema (the 3.1 dialect), and
 * each example against its schema.
 */
function schemaProblems(doc: Json): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const problems: string[] = [];
  const check = (where: string, holder: Json | undefined) => {
    if (holder?.schema === undefined) return;
    if (!ajv.validateSchema(holder.schema)) problems.push(`${where}: ${ajv.errorsText(ajv.errors)}`);
    else if (holder.example !== undefined && !ajv.validate(holder.schema, holder.example)) problems.push(`${where} example: ${ajv.errorsText(ajv.errors)}`);
  };
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const at = `${method} ${path}`;
      for (const p of op.parameters ?? []) check(`${at} parameter ${p.name}`, p);
      for (const [type, media] of Object.entries<Json>(op.requestBody?.content ?? {})) check(`${at} body ${type}`, media);
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        for (const [type, media] of Object.entries<Json>(response.content ?? {})) check(`${at} ${status} ${type}`, media);
        for (const [name, header] of Object.entries<Json>(response.headers ?? {})) check(`${at} ${status} header ${name}`, header);
      }
    }
  }
  return problems;
}

async function validate(doc: Json): Promise<{ valid: boolean; errors?: unknown }> {
  const result = await new Validator().validate(structuredClone(doc));
  const problems = schemaProblems(doc);
  return problems.length === 0 ? result : { valid: false, errors: problems };
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = await document();
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('is rejected by the same validator when a schema is broken (the check can fail)', async () => {
    const doc = await document();
    doc.paths['/heartbeat'].get.responses['200'].content['application/json'].schema.type = 'integr';
    expect((await validate(doc)).valid).toBe(false);
  });

  it('carries version 1.5, marked under review with a breaking-changes notice (docs/api.md#versioning)', async () => {
    const { info } = await document();
    expect(info.version).toBe('1.5');
    expect(info.description).toMatch(/under review/);
    expect(info.description).toMatch(/breaking changes/);
  });

  it('lists every route, each status with a description and a body schema (none for a 204)', async () => {
    const doc = await document();
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/chat_adapter', '/chat_adapter/{conversation_id}/stop', '/chat_adapter/{conversation_id}/stream', '/heartbeat', '/metrics', '/ready',
    ]);
    expect(Object.keys(doc.paths['/chat_adapter/{conversation_id}/stream'].get.responses)).toEqual(['200', '204', '400', '401', '403', '429', '503']);
    expect(Object.keys(doc.paths['/chat_adapter/{conversation_id}/stop'].post.responses)).toEqual(['200', '400', '401', '403', '503']);
    const chat = doc.paths['/chat_adapter'].post;
    expect(Object.keys(chat.responses)).toEqual(['200', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503']);
    expect(Object.keys(doc.paths['/ready'].get.responses)).toEqual(['200', '503']);
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
        for (const [status, response] of Object.entries<Json>(operation.responses)) {
          expect(response.description, `${method} ${path} ${status}`).not.toBe('Default Response');
          // A 204 (nothing to resume) has no body.
          if (status === '204') continue;
          const [media] = Object.values<Json>(response.content ?? {});
          expect(media?.schema, `${method} ${path} ${status}`).toBeDefined();
        }
      }
    }
  });

  it('documents the error bodies: {detail: {message, trace_id}} for 400/500, {detail: string} otherwise', async () => {
    const { responses } = (await document()).paths['/chat_adapter'].post;
    const detail = (status: string) => responses[status].content['application/json'].schema.properties.detail;
    for (const status of ['400', '500']) expect(detail(status).required).toEqual(['message', 'trace_id']);
    for (const status of ['401', '403', '409', '413', '415', '422', '429', '503']) expect(detail(status).type).toBe('string');
    expect(responses['401'].content['application/json'].example).toEqual({ detail: 'Unauthorized' });
    expect(responses['429'].headers).toHaveProperty('Retry-After');
  });

  it('declares the Idempotency-Key header and the bearer scheme on the chat route', async () => {
    const doc = await document();
    const chat = doc.paths['/chat_adapter'].post;
    expect(chat.parameters).toEqual([expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: false })]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(chat.security).toContainEqual({ bearerAuth: [] });
    expect(doc.paths['/heartbeat'].get.security).toBeUndefined();
    expect(doc.paths['/ready'].get.security).toBeUndefined();
  });

  it('writes schemas the 3.1 way: no "Unknown Type", no 3.0 nullable, no renamed def-N references', async () => {
    const text = JSON.stringify(await document());
    expect(text).not.toMatch(/Unknown Type|"nullable"|def-\d/);
    const handoff = (await document()).paths['/chat_adapter'].post.responses['200'].content['application/json'].schema.properties.agent_handoff;
    expect(handoff.type).toEqual(['object', 'null']);
  });

  it('shows a request example that the service answers, and a response example that fits the schema', async () => {
    const chat = (await document()).paths['/chat_adapter'].post;
    const example = chat.requestBody.content['application/json'].example;
    const res = await harness.chat(example);
    expect(res.statusCode).toBe(200);
    expect(Value.Check(ChatResponseSchema, res.json())).toBe(true);
    expect(Value.Check(ChatResponseSchema, chat.responses['200'].content['application/json'].example)).toBe(true);
    // Members with a default are optional for a caller.
    expect(chat.requestBody.content['application/json'].schema.required).not.toContain('spanish_toggle');
  });
});

describe('GET /docs', () => {
  it('serves the reference page and every asset it loads from this service, no CDN', async () => {
    const page = await harness.svc.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const res = await harness.svc.app.inject({ method: 'GET', url: new URL(asset, 'http://service/docs/').pathname });
      expect(res.statusCode, asset).toBe(200);
    }
    const spec = await harness.svc.app.inject({ method: 'GET', url: '/docs/json' });
    expect(spec.json().info.version).toBe('1.5');
  });
});

describe('GET /openapi.json with ROUTE_PREFIX', () => {
  const prefixed = useStubbedService({ ROUTE_PREFIX: '/chat-adapter/v1' });
  it('documents the prefixed routes like the others, and stays valid', async () => {
    const doc = (await prefixed.svc.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const chat = doc.paths['/chat-adapter/v1/chat_adapter'].post;
    expect(chat.summary).toBe(doc.paths['/chat_adapter'].post.summary);
    expect(chat.parameters).toEqual(doc.paths['/chat_adapter'].post.parameters);
    expect((await validate(doc)).valid).toBe(true);
  });
});

describe('GET /openapi.json with ADMIN_API_KEY', () => {
  const withAdmin = useStubbedService({ ADMIN_API_KEY: 'admin-KEY-for-openapi-tests-0' });
  it('documents the admin routes behind the bearer scheme, with their statuses, and stays valid', async () => {
    const doc = (await withAdmin.svc.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const list = doc.paths['/admin/handoffs']?.get;
    const retry = doc.paths['/admin/handoffs/{handoff_id}/retry']?.post;
    for (const op of [list, retry]) {
      expect(op?.security).toEqual([{ bearerAuth: [] }]);
      expect(op?.responses['401'].content['application/json'].schema.properties.detail.type).toBe('string');
    }
    expect(list.parameters.map((p: Json) => [p.in, p.name])).toEqual(expect.arrayContaining([['query', 'status']]));
    expect(Object.keys(list.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '503']));
    expect(retry.parameters.map((p: Json) => [p.in, p.name])).toEqual([['path', 'handoff_id']]);
    expect(Object.keys(retry.responses)).toEqual(expect.arrayContaining(['202', '401', '404', '409']));
    expect((await validate(doc)).errors).toBeUndefined();
    // The key itself is never in the document.
    expect(JSON.stringify(doc)).not.toContain('admin-KEY-for-openapi-tests-0');
  });
});

describe('documentRoute', () => {
  it('puts /admin routes (served by another feature) behind the bearer scheme, with no anonymous option', () => {
    const transform = documentRoute('');
    const documented = transform({ schema: { querystring: {} }, url: '/admin/handoffs', route: { method: 'GET' } } as never);
    expect(documented.schema).toMatchObject({ tags: ['admin'], security: [{ bearerAuth: [] }] });
  });
});
