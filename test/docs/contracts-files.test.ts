/**
 * docs/contracts/ is what adopters implement their parties from: it must be exactly what
 * `npm run docs:contracts` generates from schemas/ (the shapes the service validates against),
 * valid OpenAPI and GraphQL, and the reference GraphQL store of ENVIRONMENT=local must implement the
 * published SDL member for member.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildSchema, isInputObjectType, isObjectType, isEnumType, validateSchema, type GraphQLNamedType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { CONTRACTS_DIR, contractFiles } from '../../scripts/docs-contracts.ts';
import { SCHEMA as LOCAL_STORE_SDL } from '../../src/local/graphql/schema.ts';
import { EngineReplySchema } from '../../schemas/engine.schema.ts';
import { createHandoffSigner } from '../../src/clients/handoff-signature.ts';

const generated = contractFiles();

/** Every member of a named type as `name: Type`, so two schemas' versions of it can be compared. */
function members(type: GraphQLNamedType | undefined): string[] {
  if (type === undefined) return ['<missing>'];
  if (isEnumType(type)) return type.getValues().map((v) => v.name);
  if (isInputObjectType(type)) return Object.values(type.getFields()).map((f) => `${f.name}: ${String(f.type)}`);
  if (isObjectType(type)) return Object.values(type.getFields()).map((f) => `${f.name}(${f.args.map((a) => `${a.name}: ${String(a.type)}`).join(', ')}): ${String(f.type)}`);
  return [type.toString()];
}

describe('docs/contracts', () => {
  it('holds exactly what npm run docs:contracts generates (run it after changing schemas/)', () => {
    expect(readdirSync(CONTRACTS_DIR).sort()).toEqual([...generated.keys()].sort());
    for (const [name, text] of generated) expect(readFileSync(join(CONTRACTS_DIR, name), 'utf8'), name).toBe(text);
  });

  it.each([...generated.keys()].filter((name) => name.endsWith('.json')))('%s is a valid OpenAPI 3.1 document with a schema for every request and answer', async (name) => {
    const doc = JSON.parse(generated.get(name)!) as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>> };
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.values(doc.paths).flatMap((path) => Object.values(path));
    expect(operations.length).toBeGreaterThan(0);
    // Each operation answers something the service reads: a body schema, or a 2xx it acknowledges.
    for (const op of operations) expect(Object.keys(op.responses).some((status) => status.startsWith('2'))).toBe(true);
  });

  it('the GraphQL SDL is a valid schema, and the reference store implements every type and mutation of it as published', () => {
    const sdl = generated.get('graphql-store.graphql')!;
    // A schema needs a query root; the contract leaves queries to the store.
    const contract = buildSchema(`${sdl}\ntype Query { ping: Boolean }`);
    expect(validateSchema(contract)).toEqual([]);
    const local = buildSchema(LOCAL_STORE_SDL);
    const contractTypes = Object.keys(contract.getTypeMap()).filter((name) => !name.startsWith('__') && name !== 'Query' && !['String', 'Boolean', 'ID'].includes(name));
    expect(contractTypes.sort()).toEqual(['CreateServiceMessageInput', 'MessageRole', 'Mutation', 'ServiceConversation', 'ServiceMessage', 'UpdateServiceConversationInput']);
    for (const name of contractTypes) expect(members(local.getType(name)), name).toEqual(members(contract.getType(name)));
  });

  it('the handoff receiver\'s contract names every header a signed delivery carries, in the form the signer makes them', () => {
    const doc = JSON.parse(generated.get('handoff-receiver.openapi.json')!) as { paths: { '/handoff': { post: { parameters: { name: string; required: boolean; schema: { pattern?: string } }[] } } } };
    const parameters = doc.paths['/handoff'].post.parameters;
    const secrets = [`whsec_${Buffer.alloc(32, 1).toString('base64')}`, `whsec_${Buffer.alloc(24, 2).toString('base64')}`];
    const sent = createHandoffSigner(secrets, { legacy: true })!.headers('8c5e3b2a-0f4e-4a57-9a0c-2f0b7a3f9e10', '{"a":1}', Date.now());
    expect(parameters.map((p) => p.name.toLowerCase())).toEqual(expect.arrayContaining([...Object.keys(sent), 'idempotency-key']));
    for (const p of parameters) {
      const value = sent[p.name.toLowerCase()];
      if (value !== undefined && p.schema.pattern !== undefined) expect(value, p.name).toMatch(new RegExp(p.schema.pattern));
    }
    expect(parameters.find((p) => p.name === 'webhook-id')?.required).toBe(true);
  });

  it('the engine\'s contract has the event-stream answer beside the JSON one, its done event holding every answer member but response', () => {
    const doc = JSON.parse(generated.get('engine.openapi.json')!) as { paths: { '/query': { post: { responses: { 200: { content: Record<string, Record<string, unknown>> } } } } } };
    const content = doc.paths['/query'].post.responses[200].content;
    expect(Object.keys(content)).toEqual(['application/json', 'text/event-stream']);
    const events = (content['text/event-stream']!['x-event-data'] as { oneOf: { title: string; properties: Record<string, unknown>; required: string[] }[] }).oneOf;
    expect(events.map((e) => e.title)).toEqual(['delta', 'done']);
    expect(events[0]!.required).toEqual(['delta']);
    const answerMembers = Object.keys(EngineReplySchema.properties).filter((name) => name !== 'response');
    expect(Object.keys(events[1]!.properties).sort()).toEqual(['done', ...answerMembers].sort());
  });
});
