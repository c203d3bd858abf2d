import QuickLRU from 'quick-lru';
import { serverTiming, latencyFrom } from './src/pipeline/latency.ts';
import { concise } from './src/reply/reply-styles.ts';
import { chatSteps } from './steps/chat-pipeline.ts';
const bench = (name: string, fn: (i: number) => unknown, n = 200000) => {
  for (let i = 0; i < 20000; i++) fn(i);
  const t0 = performance.now(); let s = 0;
  for (let i = 0; i < n; i++) { const r = fn(i); if (r) s++; }
  console.log(name.padEnd(24), ((performance.now() - t0) * 1000 / n).toFixed(3), 'µs');
};
const lru = new QuickLRU<string, object>({ maxSize: 10000, maxAge: 3600_000 });
let k = 0;
const key = () => JSON.stringify(['org-123456', 'property-98765', `session-${k++}-abcdef0123456789`]);
bench('sessionKeyString', () => key());
bench('lru get miss', () => lru.get(key()));
bench('lru get miss+set', () => { const id = key(); lru.get(id); lru.get(id); lru.set(id, { a: 1 }); return 1; });
const timings = chatSteps.map((s) => ({ name: s.name, ms: Math.random() * 3, ok: true }));
bench('latencyFrom', () => latencyFrom(timings, 12.3456789, false));
const lat = latencyFrom(timings, 12.3456789, false);
bench('serverTiming', () => serverTiming(lat));
const reply = 'Our leasing office is open **Monday to Friday** from 9 AM to 6 PM, and Saturday from 10 AM to 4 PM.';
bench('concise reply', () => concise(reply));
bench('concise follow', () => concise('Would you like to schedule a tour?'));
const msg = 'When is the leasing office open on Saturday? I would like to visit next week.';
bench('spread length', () => [...msg].length);
