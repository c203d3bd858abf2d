/**
 * What a caller may see of the contact found in its message (the chat response's `contact_found`):
 * enough to tell what was understood, not the details themselves, since chat answers are kept by
 * browsers, proxies and logs the service does not control.
 * "Maria Lopez" -> "M••• L•••", "+14155550134" -> "•••• 0134", "juan.perez@gmail.com" -> "j•••@gmail.com".
 */
import type { Contact } from '../../schemas/handoff.schema.ts';

const DOTS = '•••';

export function maskName(name: string): string {
  return name.split(/\s+/).filter((w) => w !== '').map((w) => `${Array.from(w)[0] ?? ''}${DOTS}`).join(' ');
}

export function maskPhone(phone: string): string {
  return `•••• ${phone.replace(/\D/g, '').slice(-4)}`;
}

export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${Array.from(email.slice(0, at))[0] ?? ''}${DOTS}${email.slice(at)}`;
}

export function maskContact(contact: Contact): Contact {
  return {
    name: contact.name === null ? null : maskName(contact.name),
    phone: contact.phone === null ? null : maskPhone(contact.phone),
    email: contact.email === null ? null : maskEmail(contact.email),
  };
}
