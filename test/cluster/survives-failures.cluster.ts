/**
 * Issue 13, with real processes: three instances on one Redis losing parts. An instance killed with
 * SIGKILL while its handoffs wait for a receiver that is down; Redis restarted while chats flow; an
 * instance stopped with SIGTERM mid-chat (a rolling restart). `npm run test:cluster` prints the figures.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSessionId } from '../helpers/fixtures.ts';
import { ADMIN_KEY, INSTANCES, startCluster, until, type ChatAnswer, type Cluster } from './cluster.ts';
import { logLines, readyStatus, type Instance } from './service-instance.ts';
import { percentile, record, spread } from './figures.ts';
import { HANDOFF_WORDS } from './stub-parties.ts';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
}, 120_000);
afterAll(async () => cluster?.close(), 60_000);

const handoffChat = (n: number) => cluster.chat({ message: `Handoff ${n}: the kitchen is ${HANDOFF_WORDS}, water is everywhere` });

/** The handoff_id an instance logged for the chat with `traceId`, from the line `msg`. */
function handoffLine(instances: readonly Instance[], msg: string, traceId: unknown): { id: string; store: string; slot: number } | undefined {
  for (const instance of instances) {
    const line = logLines(instance, msg).find((l) => l['trace_id'] === traceId);
    if (line !== undefined) return { id: String(line['handoff_id']), store: String(line['store']), slot: instance.slot };
  }
  return undefined;
}

/** Nothing waiting or being delivered in any live instance's outboxes (local and shared). */
async function outboxesEmpty(instances: readonly Instance[]): Promise<boolean> {
  for (const instance of instances) {
    const res = await fetch(`${instance.url}/admin/handoffs?status=pending`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    if (res.status !== 200 || ((await res.json()) as { handoffs: unknown[] }).handoffs.length > 0) return false;
  }
  return true;
}

describe('three instances, one Redis, losing parts', () => {
  it('delivers the handoffs of an instance killed with SIGKILL from a surviving one, exactly once per handoff_id', async ({ task }) => {
    const { receiver } = cluster.parties;
    const chats: ChatAnswer[] = [];
    for (let n = 1; n <= INSTANCES; n += 1) chats.push(await handoffChat(n));
    expect(chats.map((c) => [c.status, c.body['agent_handoff']])).toEqual(chats.map(() => [200, { requested: true, reason: 'emergency_maintenance' }]));
    const everyone = [...cluster.instances];
    const queued = await until(() => {
      const found = chats.map((c) => handoffLine(everyone, 'handoff queued', c.body['trace_id']));
      return found.every((f) => f !== undefined) ? found.map((f) => f!) : undefined;
    }, 20_000, 'every handoff queued');
    const ids = queued.map((q) => q.id);
    // The receiver is down: each handoff has failed once (an attempt refused) before the kill.
    await until(() => (ids.every((id) => everyone.some((i) => logLines(i, 'handoff delivery failed, will retry').some((l) => l['handoff_id'] === id))) ? true : undefined), 20_000, 'a failed attempt of every handoff');

    const victim = cluster.instances[chats[0]!.servedBy]!;
    expect(queued[0]!.slot).toBe(victim.slot); // it wrote handoff 1 to the shared outbox
    expect(await victim.stop('SIGKILL')).toBeNull();
    const survivors = cluster.instances.filter((i) => i !== victim);
    await receiver.up();
    const upAt = performance.now();
    await until(() => (ids.every((id) => receiver.accepted.some((r) => r.key === id)) ? true : undefined), 60_000, 'every handoff delivered');
    const deliveredAfterMs = performance.now() - upAt;
    // Until nothing is left to deliver anywhere, so that a late second delivery would be seen.
    await until(async () => ((await outboxesEmpty(survivors)) ? true : undefined), 30_000, 'the outboxes to empty');
    // Logged once the receiver's 202 is in, by whichever instance delivered.
    const deliverers = await until(() => {
      const found = chats.map((c) => handoffLine(everyone, 'handoff delivered', c.body['trace_id']));
      return found.every((f) => f !== undefined) ? found.map((f) => f!) : undefined;
    }, 10_000, 'the delivered lines');

    expect(queued.map((q) => q.store)).toEqual(chats.map(() => 'shared'));
    expect(receiver.accepted.map((r) => r.key).sort()).toEqual([...ids].sort());
    expect(new Set(receiver.requests.filter((r) => r.key !== undefined).map((r) => r.key)).size).toBe(ids.length);
    expect(deliverers.filter((d) => d.slot === victim.slot)).toEqual([]);
    const replacedIn = performance.now();
    await cluster.replace(victim.slot);
    await cluster.allReady();
    record(task, 'handoff, SIGKILL', {
      'handoffs accepted (receiver down), by instance': spread(chats.map((c) => c.servedBy)),
      'killed (SIGKILL)': `#${victim.slot}, which accepted handoff 1`,
      'receiver up -> all delivered': `${Math.round(deliveredAfterMs)} ms`,
      'delivered by instance (handoff 1, 2, 3)': deliverers.map((d) => `#${d.slot}`).join(', '),
      'deliveries / distinct Idempotency-Keys at the receiver': `${receiver.accepted.length} / ${new Set(receiver.accepted.map((r) => r.key)).size}`,
      'killed instance replaced (same DATA_DIR), ready in': `${Math.round(performance.now() - replacedIn)} ms`,
    });
  }, 180_000);

  it('keeps answering 200 while Redis restarts, and shares again once it is back', async ({ task }) => {
    const answers: Array<ChatAnswer & { phase: 'before' | 'outage' | 'after' }> = [];
    let phase: 'before' | 'outage' | 'after' = 'before';
    let streaming = true;
    // One chat after another through the proxy, across the restart, each in a new session.
    const failed: string[] = [];
    const stream = (async () => {
      for (let n = 1; streaming; n += 1) {
        const asked = phase;
        try {
          answers.push({ ...(await cluster.chat({ message: `Stream question ${n}: is there a dog park nearby?` })), phase: asked });
        } catch (err) {
          failed.push(`${asked}: ${String(err)}`); // no answer at all: reported below, the stream goes on
        }
      }
    })();
    const count = (p: typeof phase) => answers.filter((a) => a.phase === p).length;
    await until(() => (count('before') >= INSTANCES ? true : undefined), 20_000, 'chats before the restart');

    await cluster.redis.stop();
    const downAt = performance.now();
    phase = 'outage';
    const outageHandoff = await handoffChat(10);
    // Down for 3 s at least (ioredis's reconnect attempts back off to 1 s apart), and 9 chats.
    await until(() => (count('outage') >= 3 * INSTANCES && performance.now() - downAt >= 3_000 ? true : undefined), 30_000, 'chats during the outage');
    const readyDuringOutage = await Promise.all(cluster.instances.map((i) => readyStatus(i.url)));
    await cluster.redis.start();
    const outageMs = performance.now() - downAt;
    phase = 'after';
    await cluster.allReady();
    const readyAfterMs = performance.now() - downAt - outageMs;
    // Sharing is back when a key answered by one instance is replayed by the next one.
    const resumed = await until(async () => {
      const same = { session_id: newSessionId(), message: 'Do you offer short-term leases for students?' };
      const key = randomUUID();
      const first = await cluster.chat(same, { 'idempotency-key': key });
      const again = await cluster.chat(same, { 'idempotency-key': key });
      return again.headers.get('idempotent-replayed') === 'true' && again.servedBy !== first.servedBy ? { first, again } : undefined;
    }, 30_000, 'a replay across instances after the restart');
    const sharedAfterMs = performance.now() - downAt - outageMs;
    // The outbox's own connection reconnects on its own backoff (at most a second apart): the first
    // handoff on an instance whose outbox has not reconnected yet still goes to its local outbox.
    let afterHandoff = await handoffChat(11);
    let shared = await until(() => handoffLine(cluster.instances, 'handoff queued', afterHandoff.body['trace_id']), 20_000, 'the handoff after the restart queued');
    for (let n = 12; shared.store !== 'shared' && n < 40; n += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      afterHandoff = await handoffChat(n);
      const id = afterHandoff.body['trace_id'];
      shared = await until(() => handoffLine(cluster.instances, 'handoff queued', id), 20_000, 'the handoff after the restart queued');
    }
    streaming = false;
    await stream;

    const { receiver } = cluster.parties;
    const local = handoffLine(cluster.instances, 'handoff queued', outageHandoff.body['trace_id']);
    await until(() => (local !== undefined && [local.id, shared.id].every((id) => receiver.accepted.some((r) => r.key === id)) ? true : undefined), 30_000, 'both handoffs delivered');
    expect([...failed, ...answers.filter((a) => a.status !== 200).map((a) => `${a.phase}: ${a.status} ${a.text}`)]).toEqual([]);
    expect([outageHandoff.status, afterHandoff.status]).toEqual([200, 200]);
    expect([local?.store, shared.store]).toEqual(['local', 'shared']);
    expect(resumed.again.text).toBe(resumed.first.text);
    // Redis had answered before: the instances stay ready, degraded (no fleet-wide drop from the load balancer).
    expect(readyDuringOutage).toEqual(cluster.instances.map(() => 200));
    const during = answers.filter((a) => a.phase === 'outage');
    record(task, 'Redis restart', {
      'Redis down (SIGKILL) for': `${Math.round(outageMs)} ms`,
      'chats answered during the outage / 200': `${during.length} / ${during.filter((a) => a.status === 200).length} (p50 ${percentile(during.map((a) => a.ms), 50)} ms, max ${percentile(during.map((a) => a.ms), 100)} ms)`,
      'chats before / after, all 200': `${count('before')} / ${count('after')}`,
      'GET /ready during the outage': readyDuringOutage.join(', '),
      'Redis back -> every instance ready': `${Math.round(readyAfterMs)} ms`,
      'Redis back -> replay across instances again': `${Math.round(sharedAfterMs)} ms (#${resumed.first.servedBy} -> #${resumed.again.servedBy})`,
      'handoff during the outage / after': `local outbox of #${local?.slot} / shared queue, both delivered`,
    });
  }, 180_000);

  it('hands over on SIGTERM: the chat in flight is answered, the instance stops taking connections, the others answer', async ({ task }) => {
    const { engine } = cluster.parties;
    const victim = cluster.instances[0]!;
    const message = 'A slow question asked just before a rolling restart';
    engine.delays.set(message, 2_000);
    const inFlight = cluster.chat({ message }, {}, victim);
    await engine.asked(message);
    const signalledAt = performance.now();
    const exited = victim.stop('SIGTERM');
    const notReady = await until(async () => {
      const status = await readyStatus(victim.url);
      return status === 200 ? undefined : status;
    }, 10_000, 'the closing instance to stop answering /ready');
    const notReadyMs = performance.now() - signalledAt;
    const meanwhile: ChatAnswer[] = [];
    for (let n = 0; n < INSTANCES; n += 1) meanwhile.push(await cluster.chat({ message: `Question ${n + 1} during the restart of one instance` }));
    const answered = await inFlight;
    const code = await exited;

    expect(answered.status).toBe(200);
    expect(code).toBe(0);
    expect(meanwhile.map((a) => a.status)).toEqual(meanwhile.map(() => 200));
    expect(meanwhile.some((a) => a.servedBy === victim.slot)).toBe(false);
    record(task, 'SIGTERM', {
      'chat in flight (engine 2 s) on the stopped instance': `${answered.status} after ${Math.round(answered.ms)} ms`,
      '/ready on the stopped instance': `${notReady === 'refused' ? 'connection refused' : notReady} ${Math.round(notReadyMs)} ms after SIGTERM`,
      'chats meanwhile through the proxy': `${meanwhile.length} x 200, by ${spread(meanwhile.map((a) => a.servedBy))}`,
      'exit code, SIGTERM -> exit': `${code}, ${Math.round(performance.now() - signalledAt)} ms`,
    });
  });
});
