import { describe, expect, it } from 'vitest';
import { loadLabelledExamples } from '../../src/local/engine/intent-classifier.ts';
import { loadKnowledge } from '../../src/local/knowledge/load-knowledge.ts';

describe('shipped data', () => {
  const examples = loadLabelledExamples();
  const labels = [...new Set(examples.map((e) => e.label))];

  it('labels at least 16 intents with 25+ English and 15+ Spanish messages each, no duplicates', () => {
    expect(labels.length).toBeGreaterThanOrEqual(16);
    for (const label of labels) {
      const of = (language: string) => examples.filter((e) => e.label === label && e.language === language);
      expect(of('en').length, label).toBeGreaterThanOrEqual(25);
      expect(of('es').length, label).toBeGreaterThanOrEqual(15);
    }
    expect(new Set(examples.map((e) => e.text.toLowerCase())).size).toBe(examples.length);
    expect(labels).toEqual(expect.arrayContaining(['emergency_maintenance', 'complaint_filing', 'customer_info', 'contact', 'agent_hand_off', 'greeting', 'fallback']));
  });

  it('describes two properties with 19-digit ids and FAQ documents for every rag topic', () => {
    const { properties } = loadKnowledge();
    expect(properties.map((p) => p.propertyId)).toEqual(['1234567890123456789', '9876543210987654321']);
    for (const p of properties) {
      expect(new Set(p.faq.map((d) => d.topic))).toEqual(new Set(['pricing', 'maintenance']));
    }
  });
});
