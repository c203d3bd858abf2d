/**
 * The GraphQL store's SDL from the TypeBox schemas of schemas/graphql.schema.ts: each object or
 * enum is named by its `title`, a member marked `graphqlType: 'ID'` is an `ID`, a required member
 * that cannot be null is non-null (`!`), and `description`s become SDL descriptions.
 */
import type { TSchema } from '@sinclair/typebox';
import { GRAPHQL_MUTATIONS } from '../../schemas/graphql.schema.ts';

type Json = Record<string, unknown>;

const plain = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema)) as Json;

function described(text: unknown, indent: string): string {
  return typeof text === 'string' ? `${indent}"${text.replace(/"/g, '\\"')}"\n` : '';
}

/** The GraphQL type of one member, and the named types it refers to. */
function fieldType(schema: Json, required: boolean, named: Map<string, Json>): string {
  const anyOf = schema['anyOf'] as Json[] | undefined;
  const nullable = anyOf?.some((s) => s['type'] === 'null') ?? false;
  const inner = anyOf?.filter((s) => s['type'] !== 'null') ?? [schema];
  let type: string;
  if (typeof schema['title'] === 'string') {
    named.set(schema['title'], schema);
    type = schema['title'];
  } else if (inner.length === 1 && inner[0]!['type'] === 'boolean') type = 'Boolean';
  else if (inner.length === 1 && inner[0]!['type'] === 'string') type = inner[0]!['graphqlType'] === 'ID' ? 'ID' : 'String';
  else throw new Error(`no GraphQL type for ${JSON.stringify(schema)}`);
  return required && !nullable ? `${type}!` : type;
}

function definition(keyword: 'input' | 'type', schema: Json, named: Map<string, Json>): string {
  const required = new Set((schema['required'] as string[] | undefined) ?? []);
  const properties = Object.entries(schema['properties'] as Record<string, Json>);
  const fields = properties.map(([name, member]) => `${described(member['description'], '  ')}  ${name}: ${fieldType(member, required.has(name), named)}`);
  return `${described(schema['description'], '')}${keyword} ${String(schema['title'])} {\n${fields.join('\n')}\n}\n`;
}

function enumDefinition(schema: Json): string {
  const values = (schema['anyOf'] as Json[]).map((s) => `  ${String(s['const'])}`);
  return `enum ${String(schema['title'])} {\n${values.join('\n')}\n}\n`;
}

export function graphqlSdl(): string {
  const enums = new Map<string, Json>();
  const inputs: string[] = [];
  const outputs: string[] = [];
  const mutationFields: string[] = [];
  for (const mutation of GRAPHQL_MUTATIONS) {
    const input = plain(mutation.input);
    const returns = plain(mutation.returns);
    inputs.push(definition('input', input, enums));
    outputs.push(definition('type', returns, enums));
    mutationFields.push(`${described(mutation.description, '  ')}  ${mutation.name}(input: ${String(input['title'])}!): ${String(returns['title'])}!`);
  }
  const header = [
    '# The GraphQL store the chat adapter calls (docs/contracts.md#graphql-store).',
    '# Generated from schemas/graphql.schema.ts by `npm run docs:contracts`: do not edit by hand.',
    '# A store may offer more (queries, other fields); the service needs exactly this.',
  ].join('\n');
  const enumTexts = [...enums.values()].filter((s) => Array.isArray(s['anyOf'])).map(enumDefinition);
  return `${header}\n\n${[...new Set(enumTexts), ...inputs, ...outputs, `type Mutation {\n${mutationFields.join('\n')}\n}\n`].join('\n')}`;
}
