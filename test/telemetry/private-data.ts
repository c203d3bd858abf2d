import { CALLER_API_KEY } from '../helpers/fixtures.ts';
import { GRAPHQL_AUTHORIZATION, GRAPHQL_ENV_API_KEY } from '../helpers/stubbed-service.ts';

/** A visitor leaving contact details; every part of it is personal data. */
export const CONTACT_MESSAGE = 'Hello, my name is Maria Lopez, please call me at (415) 555-2671 or write to maria.lopez@example.com about the leak';

/** Plain message text that must stay out of spans and logs too. */
export const PLAIN_MESSAGE = 'Is the rooftop terrace open on weekends for residents?';

/** Strings that must never appear in a span or a log line (by default). */
export const NEVER_RECORDED: readonly string[] = [
  CALLER_API_KEY,
  GRAPHQL_AUTHORIZATION,
  // The bearer value alone, in case a header is logged without its scheme.
  GRAPHQL_AUTHORIZATION.replace('Bearer ', ''),
  GRAPHQL_ENV_API_KEY,
  'Maria',
  'Lopez',
  '555-2671',
  '5552671',
  'maria.lopez',
  'example.com',
  'rooftop terrace',
  'about the leak',
];

/** The members of `text` that are in NEVER_RECORDED (empty when it is clean). */
export function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  return NEVER_RECORDED.filter((secret) => lower.includes(secret.toLowerCase()));
}
