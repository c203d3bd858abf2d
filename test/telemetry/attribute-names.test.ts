import * as semconv from '@opentelemetry/semantic-conventions';
import { describe, expect, it } from 'vitest';
import * as attributes from '../../src/telemetry/attributes.ts';

/** The stable attribute names copied into attributes.ts are the conventions package's own. */
describe('span attribute names', () => {
  it('are the semantic conventions package names wherever the package has the constant', () => {
    const known = semconv as unknown as Record<string, string>;
    const shared = Object.entries(attributes).filter(([name]) => known[name] !== undefined);
    expect(shared.map(([name]) => name)).toEqual(expect.arrayContaining(['ATTR_HTTP_REQUEST_METHOD', 'ATTR_SERVICE_NAME', 'ATTR_URL_FULL']));
    expect(shared.length).toBeGreaterThanOrEqual(11);
    for (const [name, value] of shared) expect(value, name).toBe(known[name]);
  });
});
