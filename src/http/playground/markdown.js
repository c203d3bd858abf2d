// A tiny, safe Markdown renderer for chat replies, as a front-end would show them: paragraphs,
// line breaks, bullet and numbered lists, **bold**. Everything is HTML-escaped first, so no markup
// in a reply can become an element, an attribute or a script.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** @param {string} text */
export function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[/** @type {keyof typeof ESCAPES} */ (c)]);
}

/** @param {string} escaped an already escaped line */
function inline(escaped) {
  return escaped.replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, '<strong>$1</strong>').replace(/__(?=\S)(.+?)(?<=\S)__/g, '<strong>$1</strong>');
}

const BULLET = /^\s*[-*•+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,3}[.)]\s+(.*)$/;

/**
 * @param {string} markdown
 * @returns {string} HTML
 */
export function renderMarkdown(markdown) {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  /** @type {string[]} */
  const out = [];
  /** @type {string[]} */
  let paragraph = [];
  /** @type {{ tag: 'ul' | 'ol', items: string[] } | undefined} */
  let list;
  const flush = () => {
    if (paragraph.length > 0) out.push(`<p>${paragraph.map((l) => inline(escapeHtml(l.trim()))).join('<br>')}</p>`);
    paragraph = [];
    if (list !== undefined) out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(escapeHtml(i.trim()))}</li>`).join('')}</${list.tag}>`);
    list = undefined;
  };
  for (const line of lines) {
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      const tag = bullet ? 'ul' : 'ol';
      if (paragraph.length > 0 || (list !== undefined && list.tag !== tag)) flush();
      list ??= { tag, items: [] };
      list.items.push(item[1] ?? '');
    } else if (line.trim() === '') {
      flush();
    } else {
      if (list !== undefined) flush();
      paragraph.push(line);
    }
  }
  flush();
  return out.join('');
}
