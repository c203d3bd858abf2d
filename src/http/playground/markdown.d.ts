/** Types of markdown.js (plain JavaScript, so the browser loads it as is, with no build step). */
export function escapeHtml(text: string): string;
export function renderMarkdown(markdown: string): string;
