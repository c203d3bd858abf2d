import { describe, expect, it } from 'vitest';
import { maskContact } from '../../src/contacts/mask.ts';
import { assembleResponse } from '../../steps/assemble-response.ts';
import { answeredContext } from '../steps/step-context.ts';

describe('what a caller sees of the contact found (contact_found)', () => {
  it('masks every detail: initials, the last four digits, the first letter and the domain', () => {
    expect(maskContact({ name: 'María José López', phone: '+14155550134', email: 'juan.perez@gmail.com' })).toEqual({
      name: 'M••• J••• L•••',
      phone: '•••• 0134',
      email: 'j•••@gmail.com',
    });
    expect(maskContact({ name: null, phone: '+525541723380', email: null })).toEqual({ name: null, phone: '•••• 3380', email: null });
  });

  it('is in the chat response only when a contact was found, masked', () => {
    const found = assembleResponse({ ...answeredContext(), answerId: 'a-1', contact: { name: 'Dana Kim', phone: '+13128472290', email: null } });
    expect(found.response?.contact_found).toEqual({ name: 'D••• K•••', phone: '•••• 2290', email: null });
    expect(JSON.stringify(found.response)).not.toContain('3128472290');
    const none = assembleResponse({ ...answeredContext(), answerId: 'a-1', contact: null });
    expect(none.response).not.toHaveProperty('contact_found');
  });
});
