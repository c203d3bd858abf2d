import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';

const CONFIG_DIR = join(import.meta.dirname, '../../config');
const scratch = mkdtempSync(join(tmpdir(), 'config-file-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SECRETS = { GRAPHQL_AUTHORIZATION: 'Bearer x', GRAPHQL_API_KEY: 'k' };
const qa = JSON.parse(readFileSync(join(CONFIG_DIR, 'qa.json'), 'utf8')) as Record<string, unknown>;

/** The start-up error for config/qa.json written as `text` (undefined: it starts). */
function startError(text: string): string | undefined {
  writeFileSync(join(scratch, 'qa.json'), text);
  try {
    loadConfig({ ENVIRONMENT: 'qa', ...SECRETS }, scratch);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('config/<ENVIRONMENT>.json', () => {
  it('as shipped, starts', () => {
    expect(startError(JSON.stringify(qa))).toBeUndefined();
  });

  it('with a setting that is an environment variable: says where it goes, naming the variable it probably means', () => {
    const message = startError(JSON.stringify({ ...qa, requestTimeoutMs: 30000 }));
    expect(message).toContain(`ENVIRONMENT: ${join(scratch, 'qa.json')}: unknown setting "requestTimeoutMs": a config file holds only environment, engineUrl, translateUrl, handoffUrl, graphqlUrl, propertyApiUrl, localDataDir`);
    expect(message).toContain('set anything else as an environment variable (REQUEST_TIMEOUT_MS?) per environment in the deployment');
    expect(message).toContain('docs/configuration.md, "Where per-environment settings live"');
    expect(message).not.toContain('\n');
  });

  it('names the section of docs/configuration.md it points to', () => {
    expect(readFileSync(join(import.meta.dirname, '../../docs/configuration.md'), 'utf8')).toContain('\n## Where per-environment settings live\n');
  });

  it('whatever the unknown member is called (prototype names included), refuses it in one line, its name as data', () => {
    const known = new Set(Object.keys(qa).concat('localDataDir'));
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty'), fc.string({ minLength: 1, maxLength: 80 })), (name) => {
        fc.pre(!known.has(name));
        const text = `{${JSON.stringify(name)}: 1, ${JSON.stringify(qa).slice(1)}`;
        const message = startError(text);
        expect(message).toContain(`unknown setting ${JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}...` : name)}: `);
        expect(message?.split('\n')).toHaveLength(1);
      }),
      { numRuns: 100 },
    );
  });
});
