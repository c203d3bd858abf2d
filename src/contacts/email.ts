/**
 * Email addresses in free text. The local part keeps the case it was written in (some mail servers
 * honour it); the domain is lower-cased (domains are case-insensitive). Trailing punctuation such as
 * the full stop in "mail me at a.b@x.com." is never part of the address.
 */

// Dot-atom local part (RFC 5322 atext, single dots between runs) whose letters and digits may be any
// script's (RFC 6531: "josé.pérez", "王伟"), then a host name with at least one dot and an alphabetic
// top-level label, also in any script. Lookarounds stop a match from being the tail or head of a
// longer token ("kate@@x.com", "a@b..com", "x@host.com-foo"): every character a local part may hold
// is refused right before it, so an address is found whole or not at all ("josé@x.com" never gives
// "é@x.com"). The text is NFC and free of zero-width characters first (clean-text.ts).
const ATEXT = "[\\p{L}\\p{M}\\p{N}!#$%&'*+/=?^_`{|}~-]";
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]{0,61}[\\p{L}\\p{M}\\p{N}])?';
const EMAIL_PATTERN = new RegExp(
  `(?<![\\p{L}\\p{M}\\p{N}!#$%&'*+/=?^_\`{|}~.@-])(${ATEXT}+(?:\\.${ATEXT}+)*)@((?:${LABEL}\\.)+\\p{L}{2,63})(?![\\p{L}\\p{M}\\p{N}@_-]|\\.[\\p{L}\\p{N}-])`,
  'gu',
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

/**
 * Role addresses (RFC 2142 and their Spanish kin: "leasing@", "info@", "administracion@") belong to
 * an office, not to a person: a visitor who writes one is nearly always quoting the property's.
 */
const ROLE_LOCAL_PARTS = new Set(`
  leasing office info information contact contacts admin administrator administration management manager
  maintenance support help hello frontdesk front-desk reception rentals rent sales noreply no-reply
  postmaster webmaster billing accounts residents service customerservice team
  oficina informes informacion contacto administracion admon gerencia mantenimiento soporte ayuda
  recepcion rentas ventas atencion servicio cobranza
`.trim().split(/\s+/));

export function isRoleAddress(email: string): boolean {
  const local = email.slice(0, email.lastIndexOf('@')).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return ROLE_LOCAL_PARTS.has(local);
}
