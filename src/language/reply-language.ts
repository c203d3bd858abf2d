import { detectLanguage } from './detect-language.ts';

/**
 * Reply language per docs/api.md#reply-language: 'es' whenever `spanishToggle` is on; otherwise 'es' only when
 * Spanish support is enabled and the message is Spanish. A message without language evidence keeps
 * the session's language (default 'en'); with Spanish support off (and no toggle) it is always 'en'.
 */
export function chooseReplyLanguage(input: {
  message: string;
  spanishToggle: boolean;
  spanishSupportEnabled: boolean;
  sessionLanguage?: 'en' | 'es' | undefined;
}): 'en' | 'es' {
  if (input.spanishToggle) return 'es';
  if (!input.spanishSupportEnabled) return 'en';
  const detected = detectLanguage(input.message);
  if (detected === 'unknown') return input.sessionLanguage ?? 'en';
  return detected;
}
