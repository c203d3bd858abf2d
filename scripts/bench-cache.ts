/**
 * Memory and lookup cost of the in-process session cache.
 *   npx node --expose-gc scripts/bench-cache.ts [sessions=100000]
 * Fills the cache with N sessions of 8 messages (4 turns: questions of 40-120 characters, answers
 * of 200-500 characters, engine replies with their usual members), prints resident memory and heap
 * before and after, the cost of one lookup (get + findReusableAnswer) and shows that a smaller
 * bound holds: the cache never keeps more sessions than maxSessions.
 */
import { createMemoryCache } from '../src/cache/memory-cache.ts';
import type { SessionKey, Turn } from '../src/cache/session-cache.ts';
import { findReusableAnswer } from '../src/cache/reuse-policy.ts';
import { SIMILARITY_THRESHOLD } from '../src/cache/similarity.ts';

const SESSIONS = Number(process.argv[2] ?? 100_000);
const WORDS = ('apartment lease rent parking pool gym pets dogs cats deposit utilities water trash internet tour ' +
  'available move balcony laundry washer dryer office hours maintenance application fee income package locker ' +
  'community garage storage floor plan bedroom bathroom kitchen appliances renovated quiet neighborhood school').split(' ');

let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
function text(minChars: number, maxChars: number, tag: string): string {
  const target = minChars + Math.floor(random() * (maxChars - minChars));
  let out = tag;
  while (out.length < target) out += ` ${WORDS[Math.floor(random() * WORDS.length)]}`;
  return out;
}

function makeTurn(session: number, n: number): Turn {
  const question = `${text(40, 120, 'Could you tell me about the')}?`; // no digits: guards do not cut misses short
  const answer = `${text(200, 500, `Thanks for asking (${session}/${n}).`)}.`;
  return {
    question,
    answer,
    language: 'en',
    reply: {
      response: answer.replace('Thanks', 'Thank you'), intent: 'faq', sub_intent: 'amenities', retrieval_type: 'rag',
      orchestrator_level1_details: { intent: 'faq', confidence: 0.93 }, orchestrator_level2_details: { sub_intent: 'amenities' },
      keyword_cache: { bedrooms: 2 }, not_available: [], context: null, follow_up: 'Would you like to schedule a tour?',
      memory: null, agent_handoff: null,
    },
  };
}

const keyOf = (i: number): SessionKey => ({
  orgId: String(1_000_000_000_000_000_000n + BigInt(i % 50)), propertyId: String(2_000_000_000_000_000_000n + BigInt(i % 500)),
  sessionId: `${i.toString(16).padStart(8, '0')}-aaaa-4bbb-8ccc-${'d'.repeat(12)}`,
});

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
function memory() {
  gc?.();
  gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}
if (!gc) console.log('note: run with --expose-gc for stable memory figures');

// 1. Fill: every session must be kept (the bound is set well above the sessions filled in).
const cache = createMemoryCache({ maxSessions: 2 * SESSIONS, ttlSeconds: 7200 });
const before = memory();
let fillMs = 0;
for (let i = 0; i < SESSIONS; i += 1) {
  for (let n = 0; n < 4; n += 1) {
    const t = makeTurn(i, n); // generated outside the timing; afterwards only the cache holds it
    const t0 = performance.now();
    await cache.recordTurn(keyOf(i), t);
    fillMs += performance.now() - t0;
  }
}
const after = memory();
console.log(`sessions held: ${cache.countSessions()} of ${SESSIONS} (8 messages + 4 answers each)`);
console.log(`rss ${mb(before.rss)} MB -> ${mb(after.rss)} MB; heap ${mb(before.heapUsed)} MB -> ${mb(after.heapUsed)} MB`);
console.log(`heap per session: ${((after.heapUsed - before.heapUsed) / SESSIONS / 1024).toFixed(2)} KB`);
console.log(`recordTurn: ${((fillMs * 1000) / (SESSIONS * 4)).toFixed(2)} µs per turn`);

// 2. Lookups: get + findReusableAnswer, for a repeated question (hit) and a new one (miss).
async function lookups(label: string, question: (i: number, entryQuestion: string) => string) {
  const samples: number[] = [];
  let hits = 0;
  for (let k = 0; k < 20_000; k += 1) {
    const i = Math.floor(random() * SESSIONS);
    const t0 = performance.now();
    const entry = await cache.get(keyOf(i));
    const q = question(i, entry?.answers[1]?.question ?? '');
    if (findReusableAnswer(entry, q, SIMILARITY_THRESHOLD)) hits += 1;
    samples.push((performance.now() - t0) * 1000);
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  const p = (q: number) => samples[Math.floor(q * (samples.length - 1))]!.toFixed(1);
  console.log(`lookup (${label}): mean ${mean.toFixed(1)} µs, p50 ${p(0.5)} µs, p99 ${p(0.99)} µs, hits ${hits}/20000`);
}
await lookups('repeated question, hit', (_, earlier) => earlier.toUpperCase());
await lookups('new question, miss', () => 'Is there covered parking for residents and their guests at the community?');

// 3. A smaller bound holds: 10,000 sessions configured, 100,000 written.
const bound = 10_000;
const small = createMemoryCache({ maxSessions: bound, ttlSeconds: 7200 });
let peak = 0;
const beforeSmall = memory();
const started = performance.now();
for (let i = 0; i < 100_000; i += 1) {
  for (let n = 0; n < 4; n += 1) await small.recordTurn(keyOf(i), makeTurn(i, n));
  if (i % 500 === 0) peak = Math.max(peak, small.countSessions());
}
const afterSmall = memory();
console.log(`bound ${bound}: wrote 100000 sessions, peak held ${peak}, held now ${small.countSessions()}, ` +
  `heap +${mb(afterSmall.heapUsed - beforeSmall.heapUsed)} MB (${((performance.now() - started) / 1000).toFixed(1)} s)`);
await cache.close();
await small.close();
