/**
 * warmUpContacts (src/contacts/find-contact.ts): loads the name and phone finders ahead of the first
 * contact chat, never rejects, and a load that failed is tried again by the next caller.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const NAME_MODULE = '../../src/contacts/name.ts';

afterEach(() => {
  vi.doUnmock(NAME_MODULE);
  vi.resetModules();
});

describe('warming up the contact finders', () => {
  it('answers true once the finders are loaded, and they then serve a chat', async () => {
    const { extractContact, warmUpContacts } = await import('../../src/contacts/find-contact.ts');
    expect(await warmUpContacts()).toBe(true);
    expect(await extractContact("I'm Maria Lopez, 305-482-7719", { defaultRegion: 'US' })).toEqual({ name: 'Maria Lopez', phone: '+13054827719', email: null });
  });

  it('answers false without rejecting when the load fails, and the next caller loads them again', async () => {
    vi.resetModules();
    vi.doMock(NAME_MODULE, () => {
      throw new Error('simulated load failure');
    });
    const { extractContact, warmUpContacts } = await import('../../src/contacts/find-contact.ts');
    expect(await warmUpContacts()).toBe(false);
    await expect(extractContact('hi', { defaultRegion: 'US' })).rejects.toThrow();
    vi.doUnmock(NAME_MODULE);
    expect(await warmUpContacts()).toBe(true);
    expect((await extractContact("I'm Maria Lopez", { defaultRegion: 'US' })).name).toBe('Maria Lopez');
  });
});
