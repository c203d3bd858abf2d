import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../src/config/env-parsers.ts';
import { loadConfig } from '../../src/config/load-config.ts';

const CONFIG_DIR = resolve(import.meta.dirname, '../../config');
const QA = { ENVIRONMENT: 'qa', GRAPHQL_AUTHORIZATION: 'Bearer a', GRAPHQL_API_KEY: 'k' };

describe('PLAYGROUND', () => {
  it('is on in local and off elsewhere unless set', () => {
    expect(loadConfig({}, CONFIG_DIR).playground).toBe(true);
    expect(loadConfig(QA, CONFIG_DIR).playground).toBe(false);
    expect(loadConfig({ ...QA, PLAYGROUND: 'true' }, CONFIG_DIR).playground).toBe(true);
    expect(loadConfig({ PLAYGROUND: 'false' }, CONFIG_DIR).playground).toBe(false);
  });

  it('refuses anything but true or false, naming the variable', () => {
    expect(() => loadConfig({ PLAYGROUND: 'yes' }, CONFIG_DIR)).toThrow(InvalidConfigError);
    expect(() => loadConfig({ PLAYGROUND: 'yes' }, CONFIG_DIR)).toThrow(/PLAYGROUND/);
  });
});
