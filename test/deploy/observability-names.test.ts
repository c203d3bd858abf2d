/**
 * The alerting rules and the dashboard query metrics by name: a renamed metric would leave an alert
 * that never fires. Every `chat_adapter_*` name they use must be served by the service's /metrics,
 * and the probe paths of the manifests must be served routes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useStubbedService } from '../helpers/stubbed-service.ts';

const deployDir = join(import.meta.dirname, '../../deploy');

/**
 * Metrics the alerts and the dashboard already watch whose recording other work of the same
 * release adds: Redis command latency (the Redis turn) and the party pools' wait (fair shares).
 * Each is allowed to be missing here only until the service serves it; then it is checked like
 * every other name, and the entry should go.
 */
const ADDED_ELSEWHERE: ReadonlySet<string> = new Set(['chat_adapter_redis_command_duration_seconds', 'chat_adapter_party_pool_wait_seconds']);
const referenced = (file: string) =>
  new Set([...readFileSync(join(deployDir, file), 'utf8').matchAll(/\b(chat_adapter_[a-z0-9_]+?)(?:_bucket|_count|_sum)?\b/g)].map((m) => m[1]!));

describe('names used by deploy/ exist in the service', () => {
  const service = useStubbedService();

  it('serves every metric the alerts and the dashboard query', async () => {
    const text = (await service.svc.app.inject({ method: 'GET', url: '/metrics' })).body;
    const served = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
    for (const file of ['prometheus/alerts.yml', 'grafana/chat-adapter-dashboard.json']) {
      const names = referenced(file);
      expect(names.size, file).toBeGreaterThan(3);
      expect([...names].filter((name) => !served.has(name) && !ADDED_ELSEWHERE.has(name)), `${file}: metrics the service does not serve`).toEqual([]);
    }
  });

  it('answers the liveness and readiness probe paths', async () => {
    expect((await service.svc.app.inject({ method: 'GET', url: '/heartbeat' })).statusCode).toBe(200);
    expect((await service.svc.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
  });
});
