/** Types of progress.js (plain JavaScript, so the browser loads it as is, with no build step). */
export function progressText(step: string): string;
export const PROGRESS_TEXTS: readonly string[];
