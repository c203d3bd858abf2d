import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import type { TSchema, Static } from '@sinclair/typebox';
import {
  PropertiesFileSchema, RepliesFileSchema,
  type Bi, type FollowUp, type Property, type ReplyTemplate, type Sentences,
} from './knowledge.schema.ts';

export interface Knowledge {
  readonly properties: readonly Property[];
  /** The request's propertyId selects a property; an unknown id falls back to the first one. */
  propertyFor(propertyId: string): Property;
  /** Exact lookup, for the property API (unknown ids are a 404 there). */
  findProperty(propertyId: string): Property | undefined;
  /** A shared reply template with the property's placeholders filled in, in both languages. */
  template(name: ReplyTemplate, property: Property): Sentences;
  followUp(name: FollowUp): Bi;
  /** Every follow-up, by name. */
  readonly followUps: Readonly<Record<FollowUp, Bi>>;
  /** Field names of data items (Markdown list keys), English -> Spanish. */
  readonly glossary: Readonly<Record<string, string>>;
  /** First words of unit names, English -> Spanish ("Unit" -> "Unidad"). */
  readonly namePrefixes: Readonly<Record<string, string>>;
}

const DATA_DIR = new URL('../data/', import.meta.url);

function readChecked<S extends TSchema>(file: string, schema: S): Static<S> {
  const parsed: unknown = JSON.parse(readFileSync(new URL(file, DATA_DIR), 'utf8'));
  const error = Value.Errors(schema, parsed).First();
  if (error) throw new Error(`src/local/data/${file}: ${error.path || '/'} ${error.message}`);
  return parsed as Static<S>;
}

function fill(text: string, p: Property): string {
  const values = new Map(Object.entries({
    name: p.name, phone: p.phone, emergencyPhone: p.emergencyPhone, email: p.email, address: p.address,
  }));
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => values.get(key) ?? whole);
}

/** Loads and checks src/local/data/properties.json and replies.json (fails fast on a bad edit). */
export function loadKnowledge(): Knowledge {
  const { properties } = readChecked('properties.json', PropertiesFileSchema);
  const replies = readChecked('replies.json', RepliesFileSchema);
  const byId = new Map(properties.map((p) => [p.propertyId, p]));
  const first = properties[0];
  if (!first) throw new Error('src/local/data/properties.json: no property');
  return {
    properties,
    propertyFor: (id) => byId.get(id) ?? first,
    findProperty: (id) => byId.get(id),
    template: (name, p) => replies.replies[name].map((s) => ({ en: fill(s.en, p), es: fill(s.es, p) })),
    followUp: (name) => replies.follow_ups[name],
    followUps: replies.follow_ups,
    glossary: replies.glossary.terms,
    namePrefixes: replies.glossary.name_prefixes,
  };
}

/** English text of sentences, joined as one paragraph. */
export function english(sentences: Sentences): string {
  return sentences.map((s) => s.en).join(' ');
}
