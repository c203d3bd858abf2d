import { BayesClassifier } from '../natural-parts.ts';
import intentsFile from '../data/intents.json' with { type: 'json' };
import { extractFeatures } from './features.ts';

export const FALLBACK_LABEL = 'fallback';

export interface LabelledExample {
  readonly text: string;
  readonly label: string;
  readonly language: 'en' | 'es';
}

export interface Classification {
  readonly label: string;
  /** The winning label's share of the (normalised) Bayes scores, 0..1. */
  readonly confidence: number;
  /** False when nothing in the message matched the domain lexicon: answered with the fallback. */
  readonly inDomain: boolean;
}

export interface IntentClassifier {
  readonly labels: readonly string[];
  classify(text: string): Classification;
}

/** The shipped labelled data set (src/local/data/intents.json). */
export function loadLabelledExamples(): LabelledExample[] {
  return intentsFile.labels.flatMap((l) => [
    ...l.en.map((text) => ({ text, label: l.label, language: 'en' as const })),
    ...l.es.map((text) => ({ text, label: l.label, language: 'es' as const })),
  ]);
}

/**
 * natural's BayesClassifier over stems + bilingual concepts. Chosen over natural's
 * LogisticRegressionClassifier, which had not finished training on this set after 300 s,
 * while Bayes trains in well under a second (figures: scripts/eval-engine.ts).
 */
export function trainIntentClassifier(examples: readonly LabelledExample[]): IntentClassifier {
  const bayes = new BayesClassifier();
  for (const e of examples) bayes.addDocument(extractFeatures(e.text).features, e.label);
  bayes.train();
  const labels = [...new Set(examples.map((e) => e.label))];

  return {
    labels,
    classify(text: string): Classification {
      const { features, conceptCount } = extractFeatures(text);
      // A message with no domain concept at all (no shape feature either) is off topic: the
      // Bayes scores of unknown words are just the class priors and would pick a random intent.
      if (conceptCount === 0 && !features.some((f) => f.startsWith('s:'))) {
        return { label: FALLBACK_LABEL, confidence: 1, inDomain: false };
      }
      const scores = bayes.getClassifications(features);
      const total = scores.reduce((sum, s) => sum + s.value, 0);
      const best = scores[0];
      if (best === undefined || !(total > 0)) return { label: FALLBACK_LABEL, confidence: 0, inDomain: true };
      return { label: best.label, confidence: best.value / total, inDomain: true };
    },
  };
}
