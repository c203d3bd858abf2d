/**
 * Three service instances behind the round-robin proxy on a Redis Cluster (3 primaries, 3
 * replicas) and on a Sentinel set (primary, replica, three sentinels), while sessions chat: the
 * primary that owns the busy sessions' slots (and the handoff queue's) is killed with SIGKILL.
 * Every chat is answered 200, every turn is stored exactly once and in order, no handoff is lost,
 * no Idempotency-Key is answered twice, no chat meets CROSSSLOT or MOVED, and the sessions are
 * shared through Redis again within 2 s of the promotion. `REDIS_FLAVOUR=valkey` runs it on Valkey.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, newSessionId } from '../../helpers/fixtures.ts';
import { startTestRedisCluster, type TestRedisCluster } from '../../helpers/redis-cluster.ts';
import { startTestRedisSentinel, type TestRedisSentinel } from '../../helpers/redis-sentinel.ts';
import { redisPrograms } from '../../helpers/redis-programs.ts';
import { metricValue } from '../../helpers/metric-value.ts';
import { turnQueueKeyOf } from '../../helpers/turn-calls.ts';
import type { SessionOf } from '../../../src/pipeline/session-key.ts';
import { startClusterOn, until, type ChatAnswer, type ServiceCluster } from '../cluster.ts';
import { percentile, record } from '../figures.ts';
import { answerTo, HANDOFF_WORDS } from '../stub-parties.ts';

const SESSIONS = 6;
/** The visitors here send as fast as they are answered: the session limit is not what is tested. */
const LIMITS = { RATE_LIMIT_SESSION_PER_MIN: '10000' };
const FALLBACKS = 'chat_adapter_shared_state_fallbacks_total{feature="turns"}';

interface Topology {
  readonly name: string;
  start(): Promise<{ services: ServiceCluster; kill(): Promise<{ promotedAt: () => Promise<number> }>; sessionIds(count: number): Promise<string[]> }>;
}

const { orgId, propertyId } = chatRequest() as { orgId: string; propertyId: string };
const turnsKey = (sessionId: string) => turnQueueKeyOf({ orgId, propertyId, session_id: sessionId, conversation_id: '' } as SessionOf, 'turns');

const clusterTopology: Topology = {
  name: 'Redis Cluster',
  async start() {
    const redis: TestRedisCluster = await startTestRedisCluster({ primaries: 3, replicasPerPrimary: 1, nodeTimeoutMs: 1000 });
    const services = await startClusterOn({ env: { REDIS_CLUSTER_NODES: redis.addresses.join(','), ...LIMITS }, close: () => redis.stop() });
    // The handoff queue's slot: the busy sessions are chosen on the same primary, so one kill takes both.
    const victim = await redis.primaryForKey('{chat-adapter}:handoffs:id');
    return {
      services,
      async sessionIds(count) {
        const ids: string[] = [];
        while (ids.length < count) {
          const id = newSessionId();
          if ((await redis.primaryForKey(turnsKey(id))) === victim) ids.push(id);
        }
        return ids;
      },
      async kill() {
        await redis.killNode(victim);
        return { promotedAt: async () => (await redis.waitForPromotion(victim, 30_000)).at };
      },
    };
  },
};

const sentinelTopology: Topology = {
  name: 'Redis Sentinel',
  async start() {
    const redis: TestRedisSentinel = await startTestRedisSentinel({ downAfterMs: 1000, failoverTimeoutMs: 3000 });
    const services = await startClusterOn({
      env: { REDIS_SENTINELS: redis.sentinelAddresses.join(','), REDIS_SENTINEL_NAME: redis.name, ...LIMITS },
      close: () => redis.stop(),
    });
    return {
      services,
      sessionIds: async (count) => Array.from({ length: count }, () => newSessionId()),
      async kill() {
        await redis.killPrimary();
        return { promotedAt: async () => (await redis.waitForFailover(30_000)).at };
      },
    };
  },
};

/** A JSON log line's time (ms since the epoch); 0 for another line. */
const logTime = (line: string): number => Date.parse(/"time":"([^"]+)"/.exec(line)?.[1] ?? '') || 0;

/** The sum of a series over every live instance's /metrics. */
async function summed(services: ServiceCluster, series: string): Promise<number> {
  const scrapes = await Promise.all(services.instances.map(async (i) => (await fetch(`${i.url}/metrics`)).text()));
  return scrapes.reduce((sum, scrape) => sum + metricValue(scrape, series), 0);
}

describe.each([clusterTopology, sentinelTopology])(`three instances on a ${redisPrograms().flavour} $name, its primary killed while sessions chat`, (topology) => {
  let setup: Awaited<ReturnType<Topology['start']>>;
  beforeAll(async () => {
    setup = await topology.start();
  }, 180_000);
  afterAll(async () => setup?.services.close(), 60_000);

  it('answers every chat 200, stores every turn once and in order, loses no handoff, answers no key twice, and shares sessions again within 2 s of the promotion', async ({ task }) => {
    const { services } = setup;
    const sessions = await setup.sessionIds(SESSIONS);
    const answers: ChatAnswer[] = [];
    const sent = new Map<string, string[]>(sessions.map((id) => [id, []]));
    const keyed: { key: string; sessionId: string; message: string }[] = [];
    let chatting = true;
    let n = 0;
    /** One session's visitor: one message after the other, every third with an Idempotency-Key, every fifth asking for a person. */
    const visitor = async (sessionId: string) => {
      while (chatting) {
        n += 1;
        const message = n % 5 === 0 ? `Message ${n}: the bathroom is ${HANDOFF_WORDS}, please send someone` : `Message ${n}: is there a gym in the building?`;
        const headers: Record<string, string> = {};
        if (n % 3 === 0) {
          headers['idempotency-key'] = `failover-${sessionId}-${n}`;
          keyed.push({ key: headers['idempotency-key'], sessionId, message });
        }
        sent.get(sessionId)!.push(message);
        answers.push(await services.chat({ session_id: sessionId, message }, headers));
      }
    };
    await services.parties.receiver.up();
    const visitors = sessions.map((id) => visitor(id));
    let killedAt = 0;
    let promoted = 0;
    let before = 0;
    let sharedAgainAt = 0;
    let answeredAfterPromotion = 0;
    let sharedAgainWall = 0;
    try {
      await until(() => (answers.length >= 30 ? true : undefined), 60_000, '30 chats before the kill');

      killedAt = performance.now();
      const { promotedAt } = await setup.kill();
      promoted = await promotedAt();
      // Shared again: every instance's next chats go through Redis without a fallback.
      before = await summed(services, FALLBACKS);
      sharedAgainAt = await until(async () => {
        const now = await summed(services, FALLBACKS);
        await new Promise((resolve) => setTimeout(resolve, 300));
        return now === (await summed(services, FALLBACKS)) && answers.length > 0 ? performance.now() - 300 : undefined;
      }, 20_000, 'no new fallbacks');
      answeredAfterPromotion = answers.length;
      sharedAgainWall = Date.now();
      await until(() => (answers.length >= answeredAfterPromotion + 30 ? true : undefined), 60_000, '30 chats after the promotion');
    } finally {
      chatting = false;
      await Promise.allSettled(visitors);
    }

    // Every chat answered, none meeting a cross-slot or redirection error.
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.text}`)).toEqual([]);
    expect(answers.some((a) => /CROSSSLOT|MOVED|ASK /.test(a.text))).toBe(false);
    // No script ever spans slots; a redirection is only ever met while the slot changes hands.
    for (const instance of services.instances) {
      const lines = `${instance.process.stdout()}\n${instance.process.stderr()}`.split('\n');
      expect(lines.filter((line) => line.includes('CROSSSLOT'))).toEqual([]);
      expect(lines.filter((line) => line.includes('MOVED') && logTime(line) > sharedAgainWall)).toEqual([]);
    }
    // Every turn stored once, in the order the visitor sent it.
    for (const [sessionId, messages] of sent) {
      expect(services.parties.store.conversation(sessionId)).toEqual(messages.flatMap((m) => [`USER: ${m}`, `ASSISTANT: ${answerTo(m)}`]));
    }
    expect(services.parties.store.conflicts).toEqual([]);
    // A keyed chat sent again after the failover is a replay: never run twice.
    // A key answered in process during the failover reaches Redis once Redis answers again (its write
    // retried with backoff, at most a second apart): a retry is a replay from then on.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // As a client retries: a 409 (the key's first chat still settling on Redis) is sent again after its Retry-After.
    const retryKeyed = async (k: (typeof keyed)[number]): Promise<ChatAnswer> => {
      for (let attempt = 0; ; attempt += 1) {
        const answer = await services.chat({ session_id: k.sessionId, message: k.message }, { 'idempotency-key': k.key });
        if (answer.status !== 409 || attempt === 5) return answer;
        await new Promise((resolve) => setTimeout(resolve, 1_000 * Number(answer.headers.get('retry-after') ?? 1)));
      }
    };
    const retried = await Promise.all(keyed.map(retryKeyed));
    expect(retried.map((r) => r.status)).toEqual(retried.map(() => 200));
    expect(retried.filter((r) => r.headers.get('idempotent-replayed') !== 'true')).toHaveLength(0);
    // Every handoff delivered (each handoff_id at least once: delivery is at least once).
    const handoffChats = answers.filter((a) => (a.body['agent_handoff'] as { requested?: boolean } | undefined)?.requested === true);
    expect(handoffChats.length).toBeGreaterThan(0);
    await until(() => {
      const delivered = new Set(services.parties.receiver.accepted.map((r) => String(r.body['trace_id'])));
      return handoffChats.every((a) => delivered.has(String(a.body['trace_id']))) ? true : undefined;
    }, 30_000, 'every handoff delivered');

    const sharedAgainMs = Math.max(0, sharedAgainAt - promoted);
    expect(sharedAgainMs).toBeLessThan(2_000);
    const during = answers.slice(0, answeredAfterPromotion).map((a) => a.ms);
    record(task, `${topology.name} failover (${redisPrograms().flavour})`, {
      chats: answers.length,
      'kill to promotion, ms': Math.round(promoted - killedAt),
      'promotion to sharing again, ms': Math.round(sharedAgainMs),
      'chat p50 / p99 / max up to the promotion, ms': `${percentile(during, 50)} / ${percentile(during, 99)} / ${percentile(during, 100)}`,
      'fallbacks (turns) during the failover': (await summed(services, FALLBACKS)) - before,
      'keyed chats replayed after it': retried.length,
      'handoffs delivered': handoffChats.length,
    });
  }, 240_000);
});
