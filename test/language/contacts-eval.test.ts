import { describe, expect, it } from 'vitest';
import { evaluateContacts, loadContactCases } from '../../scripts/eval-contacts.ts';

// Quality gate on the labelled set (not a timing test): the targets of the brief.
describe('contact extraction on the labelled set', () => {
  const cases = loadContactCases();
  const result = evaluateContacts(cases);

  it('has a realistic set of at least 80 messages with every kind of contact', () => {
    expect(cases.length).toBeGreaterThanOrEqual(80);
    for (const field of ['name', 'phone', 'email'] as const) {
      expect(cases.filter((c) => c[field] !== null).length).toBeGreaterThanOrEqual(10);
    }
  });

  it('meets phone and email precision 1.0 and recall >= 0.95', () => {
    expect(result.phone.precision).toBe(1);
    expect(result.phone.recall).toBeGreaterThanOrEqual(0.95);
    expect(result.email.precision).toBe(1);
    expect(result.email.recall).toBeGreaterThanOrEqual(0.95);
  });

  it('meets name precision >= 0.9 and recall >= 0.8', () => {
    expect(result.name.precision).toBeGreaterThanOrEqual(0.9);
    expect(result.name.recall).toBeGreaterThanOrEqual(0.8);
  });

  it('returns null for every field of a message without contact details', () => {
    expect(evaluateContacts([{ text: 'Do you allow pets? Unit 2104, $1,450', name: null, phone: null, email: null }]).misses).toEqual([]);
  });
});
