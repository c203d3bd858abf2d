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

describe('PLAYGROUND_PORT', () => {
  it('in local is 6080 by default, and gives way when busy (not asked for)', () => {
    expect(loadConfig({}, CONFIG_DIR).playgroundListener).toEqual({ port: 6080, required: false });
  });

  it('is off outside local unless set, and a port that was set must be free', () => {
    expect(loadConfig(QA, CONFIG_DIR).playgroundListener).toBeUndefined();
    expect(loadConfig({ ...QA, PLAYGROUND_PORT: '8081' }, CONFIG_DIR).playgroundListener).toEqual({ port: 8081, required: true });
    expect(loadConfig({ PLAYGROUND_PORT: '6080' }, CONFIG_DIR).playgroundListener).toEqual({ port: 6080, required: true });
  });

  it('is off with 0, and when it is the API port itself', () => {
    expect(loadConfig({ PLAYGROUND_PORT: '0' }, CONFIG_DIR).playgroundListener).toBeUndefined();
    expect(loadConfig({ PORT: '8080', PLAYGROUND_PORT: '8080' }, CONFIG_DIR).playgroundListener).toBeUndefined();
    expect(loadConfig({ PORT: '6080' }, CONFIG_DIR).playgroundListener).toBeUndefined();
  });

  it('refuses anything but a port number, naming the variable', () => {
    for (const value of ['web', '65536', '-1', '80.5']) {
      expect(() => loadConfig({ PLAYGROUND_PORT: value }, CONFIG_DIR), value).toThrow(/PLAYGROUND_PORT/);
    }
  });
});
