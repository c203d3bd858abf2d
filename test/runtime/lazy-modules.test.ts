import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** In a fresh process: composes the qa service with `env` and says which of the optional packages got loaded. */
async function loadedPackages(env: Record<string, string>): Promise<string[]> {
  const script = `
    const { createRequire } = await import('node:module');
    const { loadConfig } = await import(${JSON.stringify(`${ROOT}/src/config/load-config.ts`)});
    const { composeService } = await import(${JSON.stringify(`${ROOT}/src/compose.ts`)});
    const { createLogger } = await import(${JSON.stringify(`${ROOT}/src/telemetry/logger.ts`)});
    const stub = 'http://127.0.0.1:9';
    const config = loadConfig({ ENVIRONMENT: 'qa', ENGINE_URL: stub, TRANSLATE_URL: stub, HANDOFF_URL: stub, PROPERTY_API_URL: stub,
      GRAPHQL_URL: stub + '/graphql', GRAPHQL_AUTHORIZATION: 'a', GRAPHQL_API_KEY: 'b', ...${JSON.stringify(env)} });
    const service = await composeService(config, createLogger('silent'));
    await service.app.ready();
    await new Promise((r) => setTimeout(r, 100));
    const loaded = Object.keys(createRequire(${JSON.stringify(`${ROOT}/package.json`)}).cache);
    const names = ['ioredis', '@opentelemetry/exporter-trace-otlp-http'].filter((name) => loaded.some((p) => p.includes('/node_modules/' + name + '/')));
    await service.close();
    process.stdout.write(JSON.stringify(names));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, timeout: 20_000 });
  return JSON.parse(stdout) as string[];
}

describe('optional packages are loaded only when configured (memory at idle)', () => {
  it('loads neither ioredis nor the OTLP exporter without REDIS_URL and OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    expect(await loadedPackages({})).toEqual([]);
  });

  it('loads each when its variable is set', async () => {
    expect(await loadedPackages({ REDIS_URL: 'redis://127.0.0.1:9', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })).toEqual([
      'ioredis',
      '@opentelemetry/exporter-trace-otlp-http',
    ]);
  });
});
