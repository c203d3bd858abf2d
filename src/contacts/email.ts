/**
 * Email addresses in free text. The local part keeps the case it was written in (some mail servers
 * honour it); the domain is lower-cased (domains are case-insensitive). Trailing punctuation such as
 * the full stop in "mail me at a.b@x.com." is never part of the address.
 */

// Dot-atom local part (RFC 5322 atext, single dots between runs), then a host name with at least one
// dot and an alphabetic top-level label. Lookarounds stop a match from being the tail or head of a
// longer malformed token ("kate@@x.com", "a@b..com", "x@host.com-foo").
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const EMAIL_PATTERN = new RegExp(
  `(?<![A-Za-z0-9!#$%&'*+/=?^_\`{|}~.@-])(${ATEXT}+(?:\\.${ATEXT}+)*)@((?:${LABEL}\\.)+[A-Za-z]{2,63})(?![A-Za-z0-9@_-]|\\.[A-Za-z0-9-])`,
  'g',
);

export interface EmailMatch { email: string; start: number; end: number }

/** Every well-formed address in the text, in order, normalised (domain lower-cased). */
export function findEmails(text: string): EmailMatch[] {
  const found: EmailMatch[] = [];
  for (const m of text.matchAll(EMAIL_PATTERN)) {
    // A quote or backtick written around the address is not part of it ("'kim@x.com'").
    const quotes = /^['`]+/.exec(m[1]!)?.[0].length ?? 0;
    const local = m[1]!.slice(quotes);
    if (local === '') continue;
    const domain = m[2]!.toLowerCase();
    if (local.length > 64 || local.length + domain.length + 1 > 254) continue;
    found.push({ email: `${local}@${domain}`, start: m.index + quotes, end: m.index + m[0].length });
  }
  return found;
}

/** The first email address in the text, or null. */
export function findEmail(text: string): string | null {
  return findEmails(text)[0]?.email ?? null;
}
