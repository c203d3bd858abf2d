/**
 * Mutation-testing groups: the modules each group mutates and the tests that are meant to pin them.
 * A group's score is the share of its mutants that one of its own tests kills; a test elsewhere in
 * the suite that happens to notice does not count, because that is not where a reader looks.
 */
export const GROUPS: Record<string, { readonly mutate: readonly string[]; readonly tests: readonly string[] }> = {
  pipeline: {
    mutate: ['src/pipeline/runner.ts', 'src/pipeline/latency.ts'],
    tests: ['test/pipeline/runner.test.ts', 'test/steps/chat-pipeline.test.ts', 'test/steps/assemble-response.test.ts'],
  },
  outbox: {
    mutate: ['src/outbox/delivery-policy.ts', 'src/clients/retry.ts', 'src/clients/backoff.ts'],
    tests: ['test/outbox/delivery-policy.test.ts', 'test/clients/retry.test.ts'],
  },
  idempotency: {
    mutate: ['src/http/idempotency-key-header.ts', 'src/idempotency/request-fingerprint.ts'],
    tests: ['test/idempotency/request-fingerprint.test.ts', 'test/idempotency/idempotency-key-header.test.ts'],
  },
  cache: {
    mutate: ['src/cache/similarity.ts', 'src/cache/question-guards.ts', 'src/cache/normalise-text.ts', 'src/cache/reuse-policy.ts'],
    tests: ['test/cache/similarity.test.ts', 'test/cache/normalised-numbers.test.ts', 'test/cache/guard-tables.test.ts', 'test/cache/reuse-threshold.test.ts'],
  },
  contacts: {
    // The modules that decide which name, phone and email reach the agent.
    mutate: ['src/contacts/phone.ts', 'src/contacts/email.ts', 'src/contacts/name.ts', 'src/contacts/find-contact.ts', 'src/contacts/phone-context.ts', 'src/contacts/preference.ts'],
    tests: ['test/contacts/contact-*.test.ts', 'test/contacts/contacts-*.test.ts', 'test/steps/extract-contact.test.ts'],
  },
};
