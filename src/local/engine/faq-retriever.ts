import { TfIdf } from '../natural-parts.ts';
import type { FaqDoc, FaqTopic, Property } from '../knowledge/knowledge.schema.ts';
import { stems } from './features.ts';

export interface Retrieved {
  readonly doc: FaqDoc;
  /** TF-IDF score of the best document; 0 means no word matched and the topic's first document was used. */
  readonly score: number;
}

export interface FaqRetriever {
  retrieve(property: Property, topic: FaqTopic, question: string): Retrieved;
}

/**
 * `rag` retrieval: one TF-IDF index (natural's TfIdf) per property and topic over the short FAQ
 * documents. A document is indexed with its English and Spanish text, so a question in either
 * language finds it; the answer itself is always the English text.
 */
export function createFaqRetriever(properties: readonly Property[]): FaqRetriever {
  const indexes = new Map<string, { docs: FaqDoc[]; tfidf: TfIdf }>();
  for (const p of properties) {
    for (const doc of p.faq) {
      const key = `${p.propertyId}:${doc.topic}`;
      const index = indexes.get(key) ?? { docs: [], tfidf: new TfIdf() };
      index.tfidf.addDocument(stems(doc.text.map((s) => `${s.en} ${s.es}`).join(' ')));
      index.docs.push(doc);
      indexes.set(key, index);
    }
  }

  return {
    retrieve(property, topic, question) {
      const index = indexes.get(`${property.propertyId}:${topic}`);
      const first = index?.docs[0];
      if (!index || !first) throw new Error(`no ${topic} documents for property ${property.propertyId}`);
      const scores = index.tfidf.tfidfs(stems(question));
      let best = 0;
      scores.forEach((s, i) => { if (s > (scores[best] ?? 0)) best = i; });
      const score = scores[best] ?? 0;
      return { doc: score > 0 ? (index.docs[best] ?? first) : first, score };
    },
  };
}
