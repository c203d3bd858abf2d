/**
 * `GET /ready`: readiness, for a load balancer or an orchestrator deciding whether to send traffic.
 * It runs the named checks compose.ts hands in (Redis when REDIS_URL is set; any later store adds
 * its own) and answers 200 when all pass, 503 naming those that do not. `/heartbeat` stays liveness:
 * it checks nothing downstream, so a Redis outage never gets the process restarted.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { NotReadySchema, ReadySchema } from '../../schemas/readiness.schema.ts';

export interface ReadinessCheck {
  /** Short and stable: it is a member name in the answer (`redis`, `outbox`). */
  readonly name: string;
  /** True when the dependency can serve; false or a throw means not ready. */
  check(): Promise<boolean>;
}

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
  return async (app) => {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();
    typed.get(
      '/ready',
      {
        schema: {
          summary: 'Readiness: can this instance serve chats now?',
          description: 'Runs every readiness check (Redis when `REDIS_URL` is set). Needs no key. `GET /heartbeat` is the liveness answer and checks nothing downstream.',
          tags: ['operations'],
          response: { 200: ReadySchema, 503: NotReadySchema },
        },
      },
      async (_request, reply) => {
        const outcomes = await Promise.all(checks.map(async (c) => [c.name, await passes(c, timeoutMs)] as const));
        const failing = outcomes.filter(([, ok]) => !ok).map(([name]) => name);
        const states = Object.fromEntries(outcomes.map(([name, ok]) => [name, ok ? ('ok' as const) : ('unavailable' as const)]));
        if (failing.length === 0) return { ready: true as const, checks: states };
        return reply.code(503).send({ ready: false as const, checks: states, detail: `not ready: ${failing.join(', ')}` });
      },
    );
  };
}
