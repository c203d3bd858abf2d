/**
 * `GET /ready`: readiness, for a load balancer or an orchestrator deciding whether to send traffic.
 * It runs the named checks compose.ts hands in (the handoff outbox; Redis when Redis is configured)
 * and answers 200 when all pass, 503 naming those that do not. `/heartbeat` stays liveness: it
 * checks nothing downstream, so a Redis outage never gets the process restarted.
 *
 * Shared state (Redis) is required only until it has answered once: an instance that never reached
 * it (a wrong address or password, Redis not up yet) is not ready, so a rollout stops there. Once it has, an
 * outage only degrades the instance (docs/api.md#when-a-party-fails: chats go on with in-process state) and it stays
 * ready: Redis is shared, so failing readiness would take every instance out of service at once.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { NotReadySchema, ReadySchema } from '../../schemas/readiness.schema.ts';

export interface ReadinessCheck {
  /** Short and stable: it is a member name in the answer (`redis`, `outbox`). */
  readonly name: string;
  /** True when the dependency can serve; false or a throw means not ready. */
  check(): Promise<boolean>;
  /**
   * Shared state the instance can do without once it has reached it: true when this instance's
   * connection has ever answered, whether or not a readiness probe ran meanwhile. A failing
   * check is then only `degraded`.
   */
  reachedOnce?(): boolean;
}

type CheckState = 'ok' | 'unavailable' | 'degraded';

/** A check that has not answered by then counts as failing, so a probe never hangs. */
export const READINESS_CHECK_TIMEOUT_MS = 1_000;

async function passes(check: ReadinessCheck, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([check.check().catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function readinessRoute(checks: readonly ReadinessCheck[], timeoutMs = READINESS_CHECK_TIMEOUT_MS): FastifyPluginAsync {
  const stateOf = (check: ReadinessCheck, ok: boolean): CheckState => {
    if (ok) return 'ok';
    return check.reachedOnce?.() === true ? 'degraded' : 'unavailable';
  };
  return async (app) => {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();
    typed.get(
      '/ready',
      {
        schema: {
          summary: 'Readiness: can this instance serve chats now?',
          description:
            'Runs every readiness check (the handoff outbox; Redis when it is configured: `REDIS_URL`, `REDIS_SENTINELS` or `REDIS_CLUSTER_NODES`; on a Cluster also `cluster_state:ok` and every primary answering). Redis is required until it has answered once; an outage after that is reported as `degraded` and the instance stays ready (chats go on per instance). Needs no key. `GET /heartbeat` is the liveness answer and checks nothing downstream.',
          tags: ['operations'],
          response: { 200: ReadySchema, 503: NotReadySchema },
        },
      },
      async (_request, reply) => {
        const outcomes = await Promise.all(checks.map(async (c) => [c.name, stateOf(c, await passes(c, timeoutMs))] as const));
        const failing = outcomes.filter(([, state]) => state === 'unavailable').map(([name]) => name);
        const states = Object.fromEntries(outcomes);
        if (failing.length === 0) return { ready: true as const, checks: states };
        return reply.code(503).send({ ready: false as const, checks: states, detail: `not ready: ${failing.join(', ')}` });
      },
    );
  };
}
