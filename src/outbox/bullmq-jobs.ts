/**
 * The shared outbox's jobs as the admin routes and the metrics see them: listed (ids, times and
 * reasons only), counted, and a dead one queued again.
 */
import type { Job, JobType, Queue } from 'bullmq';
import type { Handoff } from '../../schemas/handoff.schema.ts';
import type { Logger } from '../pipeline/ports.ts';
import type { HandoffStatus, OutboxCounts, OutboxEntry, RetryResult } from './outbox.ts';

/** A job's data: the handoff, the chat's trace headers, and its times (epoch ms). */
export interface HandoffJobData {
  readonly handoff: Handoff;
  readonly trace: Record<string, string>;
  readonly createdAt: number;
  /** HANDOFF_MAX_AGE_S counts from here: written, or re-queued by the admin route. */
  readonly queuedAt: number;
}

const WAITING: readonly JobType[] = ['waiting', 'delayed', 'prioritized'];

function toEntry(job: Job<HandoffJobData>, status: HandoffStatus): OutboxEntry {
  return {
    handoff_id: String(job.id),
    created_at: new Date(job.data.createdAt).toISOString(),
    attempts: job.attemptsMade,
    last_error: job.failedReason ? job.failedReason : null,
    status,
  };
}

/** Oldest first, at most `limit`; pending includes the jobs being delivered. */
export async function listJobs(queue: Queue<HandoffJobData>, status: 'pending' | 'dead', limit: number): Promise<OutboxEntry[]> {
  if (status === 'dead') {
    const dead = (await queue.getJobs(['failed'], 0, limit - 1, true)) as Job<HandoffJobData>[];
    return dead.map((job) => toEntry(job, 'dead'));
  }
  // One script reads every state at once, so a job moving between states is never missed; which
  // of them are being delivered is read next (only that label may be a moment late).
  const jobs = (await queue.getJobs(['active', ...WAITING], 0, limit - 1, true)) as Job<HandoffJobData>[];
  const active = new Set(await queue.getRanges(['active'], 0, -1));
  return jobs
    .map((job) => toEntry(job, active.has(String(job.id)) ? 'delivering' : 'pending'))
    .sort((a, b) => a.created_at.localeCompare(b.created_at))
    .slice(0, limit);
}

/** Creation time of the oldest undelivered job, looking at most at the first 200 of each state. */
export async function oldestCreatedAt(queue: Queue<HandoffJobData>): Promise<number | null> {
  const jobs = (await queue.getJobs(['active', ...WAITING], 0, 199, true)) as Job<HandoffJobData>[];
  let oldest: number | null = null;
  for (const job of jobs) oldest = oldest === null ? job.data.createdAt : Math.min(oldest, job.data.createdAt);
  return oldest;
}

/** Depth by state and the oldest undelivered job's age. */
export async function countJobs(queue: Queue<HandoffJobData>, now: () => number): Promise<OutboxCounts> {
  const c = await queue.getJobCounts('active', 'waiting', 'delayed', 'prioritized', 'failed');
  const oldest = await oldestCreatedAt(queue);
  return {
    store: 'shared',
    pending: (c['waiting'] ?? 0) + (c['delayed'] ?? 0) + (c['prioritized'] ?? 0),
    delivering: c['active'] ?? 0,
    dead: c['failed'] ?? 0,
    oldestUndeliveredSeconds: oldest === null ? null : Math.max(0, (now() - oldest) / 1000),
  };
}

/** Queues a dead job again, with a fresh HANDOFF_MAX_AGE_S (counted from now) and attempts from zero. */
export async function retryDeadJob(queue: Queue<HandoffJobData>, handoffId: string, now: () => number, logger: Logger): Promise<RetryResult> {
  const job = await queue.getJob(handoffId);
  if (job === undefined) return 'not_found';
  if ((await job.getState()) !== 'failed') return 'not_dead';
  await job.updateData({ ...job.data, queuedAt: now() });
  try {
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
  } catch {
    // Someone else re-queued it first.
    return 'not_dead';
  }
  logger.info({ handoff_id: handoffId, store: 'shared' }, 'handoff re-queued');
  return 'queued';
}
