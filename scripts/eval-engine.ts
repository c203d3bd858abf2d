/**
 * Accuracy of the reference engine's intent classifier on held-out messages.
 *   npx node scripts/eval-engine.ts
 * Split: deterministic, by a fixed hash (FNV-1a, 32 bit) of each message's text: hash % 5 === 0
 * is held out (about 20%), the rest trains. Also prints 5-fold cross-validation over the same
 * hash folds, per-label recall on the held-out split, and training/classification times.
 */
import { loadLabelledExamples, trainIntentClassifier, type LabelledExample } from '../src/local/engine/intent-classifier.ts';

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const ch of text) {
    hash ^= ch.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

interface Result { total: number; correct: number; byLanguage: Record<string, [number, number]>; byLabel: Map<string, [number, number]>; confusions: Map<string, number>; trainMs: number; classifyMs: number }

function evaluate(train: readonly LabelledExample[], test: readonly LabelledExample[]): Result {
  const t0 = performance.now();
  const classifier = trainIntentClassifier(train);
  const t1 = performance.now();
  const r: Result = { total: 0, correct: 0, byLanguage: {}, byLabel: new Map(), confusions: new Map(), trainMs: t1 - t0, classifyMs: 0 };
  for (const e of test) {
    const predicted = classifier.classify(e.text).label;
    const hit = predicted === e.label;
    r.total += 1;
    r.correct += Number(hit);
    const lang = (r.byLanguage[e.language] ??= [0, 0]);
    lang[0] += Number(hit); lang[1] += 1;
    const label = r.byLabel.get(e.label) ?? [0, 0];
    label[0] += Number(hit); label[1] += 1;
    r.byLabel.set(e.label, label);
    if (!hit) r.confusions.set(`${e.label} -> ${predicted}`, (r.confusions.get(`${e.label} -> ${predicted}`) ?? 0) + 1);
  }
  r.classifyMs = (performance.now() - t1) / Math.max(1, test.length);
  return r;
}

const pct = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(3));
const examples = loadLabelledExamples();
const fold = (e: LabelledExample) => fnv1a(e.text) % 5;
const counts = (list: readonly LabelledExample[], lang: string) => list.filter((e) => e.language === lang).length;

console.log(`data set: ${examples.length} messages (${counts(examples, 'en')} en, ${counts(examples, 'es')} es), ${new Set(examples.map((e) => e.label)).size} labels`);

const heldOut = examples.filter((e) => fold(e) === 0);
const r = evaluate(examples.filter((e) => fold(e) !== 0), heldOut);
console.log(`\nheld-out split (hash % 5 === 0): ${heldOut.length} messages, trained on ${examples.length - heldOut.length}`);
console.log(`  accuracy overall ${pct(r.correct, r.total)}   en ${pct(...(r.byLanguage.en ?? [0, 0]))}   es ${pct(...(r.byLanguage.es ?? [0, 0]))}   (target >= 0.9: ${r.correct / r.total >= 0.9 ? 'met' : 'NOT met'})`);
console.log(`  training ${r.trainMs.toFixed(0)} ms, classification ${(r.classifyMs * 1000).toFixed(0)} µs per message`);
console.log('  recall per label:');
for (const [label, [hit, n]] of [...r.byLabel].sort()) console.log(`    ${label.padEnd(22)} ${pct(hit, n)}  (${hit}/${n})`);
const confusions = [...r.confusions].sort((a, b) => b[1] - a[1]);
if (confusions.length > 0) console.log(`  errors: ${confusions.map(([k, n]) => `${k} x${n}`).join('; ')}`);

let correct = 0, total = 0;
const perLanguage: Record<string, [number, number]> = {};
const foldScores: string[] = [];
for (let k = 0; k < 5; k++) {
  const f = evaluate(examples.filter((e) => fold(e) !== k), examples.filter((e) => fold(e) === k));
  correct += f.correct; total += f.total;
  for (const [lang, [hit, n]] of Object.entries(f.byLanguage)) {
    const acc = (perLanguage[lang] ??= [0, 0]);
    acc[0] += hit; acc[1] += n;
  }
  foldScores.push(pct(f.correct, f.total));
}
console.log(`\n5-fold cross-validation (same hash folds): overall ${pct(correct, total)}   en ${pct(...(perLanguage.en ?? [0, 0]))}   es ${pct(...(perLanguage.es ?? [0, 0]))}   folds ${foldScores.join(' ')}`);

const t0 = performance.now();
trainIntentClassifier(examples);
console.log(`\nfull training set: ${(performance.now() - t0).toFixed(0)} ms to train (done at every start-up)`);
