import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineReplySchema } from '../../schemas/engine.schema.ts';
import { engineRequest, postJson, startTestStack, url, type TestStack } from '../local/helpers.ts';
import { PROTOTYPE_NAMES } from './hostile-text.ts';

/*
 * The reference parties of ENVIRONMENT=local run in the service's own process, so a visitor's
 * words reach their tables too: Object.prototype names are ordinary words to the engine (intent
 * classifier, FAQ retrieval, keyword extraction) and to the translator.
 */

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack(new Set(['engine', 'translate']));
});
afterAll(async () => {
  await stack.dispose();
});

describe('reference parties and prototype names', () => {
  it.each(PROTOTYPE_NAMES)('the engine answers "%s" within its contract', async (name) => {
    for (const message of [name, `${name} ${name}`, `is the ${name} 2 bedroom allowed?`]) {
      const res = await postJson(`${url(stack, 'engine')}/query`, engineRequest(message));
      expect(res.status, `${message}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(Value.Check(EngineReplySchema, res.body)).toBe(true);
    }
  });

  it.each(PROTOTYPE_NAMES)('the translator passes "%s" through', async (name) => {
    for (const text of [name, `- **${name}**: ${name}: ${name}, rent: 5`, `# ${name}`]) {
      const res = await postJson(`${url(stack, 'translate')}/translate`, { text, source: 'en', target: 'es' });
      expect(res.status, `${text}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(typeof res.body.translated_text).toBe('string');
    }
  });
});
