/**
 * `npm run docs:contracts`: the machine-readable contracts of the downstream parties, generated from
 * the TypeBox schemas in schemas/ that the service itself validates against, so that the published
 * contract cannot drift from the code (test/docs/contracts-files.test.ts compares the committed
 * files with what this script generates). docs/contracts.md explains them.
 *
 *   docs/contracts/engine.openapi.json            POST {ENGINE_URL}/query
 *   docs/contracts/translator.openapi.json        POST {TRANSLATE_URL}/translate
 *   docs/contracts/handoff-receiver.openapi.json  POST {HANDOFF_URL}/handoff
 *   docs/contracts/property-api.openapi.json      {PROPERTY_API_URL}/api/v1/...
 *   docs/contracts/graphql-store.graphql          the GraphQL store's SDL
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { graphqlSdl } from './docs-contracts/graphql-sdl.ts';
import { partyDocuments } from './docs-contracts/party-openapi.ts';

export const CONTRACTS_DIR = resolve(import.meta.dirname, '../docs/contracts');

/** File name (in docs/contracts/) -> its text. */
export function contractFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [name, document] of partyDocuments()) files.set(`${name}.openapi.json`, `${JSON.stringify(document, null, 2)}\n`);
  files.set('graphql-store.graphql', graphqlSdl());
  return files;
}

if (import.meta.main) {
  mkdirSync(CONTRACTS_DIR, { recursive: true });
  for (const [name, text] of contractFiles()) writeFileSync(resolve(CONTRACTS_DIR, name), text);
  console.log(`wrote ${[...contractFiles().keys()].map((name) => `docs/contracts/${name}`).join(', ')}`);
}
