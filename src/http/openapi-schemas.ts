/**
 * Rewrites that make @fastify/swagger's output read as OpenAPI 3.1 (JSON Schema 2020-12) rather than
 * 3.0 with a 3.1 label: a nullable member becomes `type: [T, "null"]` (reference pages otherwise
 * show "Unknown Type: null" for the lone `{type: "null"}` branch), and a union of literals becomes one
 * `enum`. Pure: the document is rewritten as a copy.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNullType = (schema: Json): boolean => isObject(schema) && schema['type'] === 'null' && Object.keys(schema).length === 1;

/** `anyOf: [X, {type: "null"}]` -> X with `null` added to its type (and to its enum, if any). */
function mergeNullable(schema: JsonObject, anyOf: Json[]): JsonObject | undefined {
  if (anyOf.length !== 2 || !anyOf.some(isNullType)) return undefined;
  const other = anyOf.find((s) => !isNullType(s));
  if (!isObject(other) || typeof other['type'] !== 'string') return undefined;
  const { anyOf: _dropped, ...rest } = schema;
  const merged: JsonObject = { ...other, ...rest, type: [other['type'], 'null'] };
  if (Array.isArray(other['enum'])) merged['enum'] = [...other['enum'], null];
  return merged;
}

/** `anyOf` of single-value enums of one type -> one `enum` (TypeBox writes literal unions so). */
function mergeLiterals(schema: JsonObject, anyOf: Json[]): JsonObject | undefined {
  const type = isObject(anyOf[0]) ? anyOf[0]['type'] : undefined;
  if (typeof type !== 'string') return undefined;
  const values: Json[] = [];
  for (const branch of anyOf) {
    if (!isObject(branch) || branch['type'] !== type || Object.keys(branch).length !== 2) return undefined;
    const only = branch['enum'];
    if (!Array.isArray(only) || only.length !== 1) return undefined;
    values.push(only[0] as Json);
  }
  const { anyOf: _dropped, ...rest } = schema;
  return { ...rest, type, enum: values };
}

export function simplifySchemas<T>(document: T): T {
  const walk = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    const copy: JsonObject = {};
    // Examples are data, not schemas: left as they are.
    for (const [key, value] of Object.entries(node)) copy[key] = key === 'example' || key === 'examples' ? value : walk(value);
    const anyOf = copy['anyOf'];
    if (!Array.isArray(anyOf)) return copy;
    return mergeNullable(copy, anyOf) ?? mergeLiterals(copy, anyOf) ?? copy;
  };
  return walk(document as Json) as T;
}
