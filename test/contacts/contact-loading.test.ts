import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// Runs in a fresh Node process that records every module it loads, so what "loaded" means is what
// the process really holds (this test process has the finders loaded by other tests already).
const CHILD = `
import { registerHooks } from 'node:module';
const urls = new Set();
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); urls.add(r.url); return r; } });
const holds = () => ({
  compromise: [...urls].some((u) => u.includes('/node_modules/compromise/')),
  phoneMetadata: [...urls].some((u) => u.includes('/node_modules/libphonenumber-js/')),
});
const { extractContact } = await import(${JSON.stringify(new URL('../../src/contacts/find-contact.ts', import.meta.url).href)});
const atStart = holds();
const text = "Hi, I'm Maria Lopez, call me at 305-482-7719 or maria@example.com";
// Two chats arriving together before anything is loaded: both wait for the same load.
const [first, second] = await Promise.all([extractContact(text, { defaultRegion: 'US' }), extractContact(text, { defaultRegion: 'US' })]);
process.stdout.write(JSON.stringify({ atStart, afterFirstUse: holds(), first, second }));
`;

describe('contact finders are loaded on first use', () => {
  it('are not held by a process that has not extracted a contact yet, and serve the first contact chats', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CHILD], { timeout: 30_000 });
    const report = JSON.parse(stdout) as Record<string, unknown>;
    const expected = { name: 'Maria Lopez', phone: '+13054827719', email: 'maria@example.com' };
    expect(report).toEqual({
      atStart: { compromise: false, phoneMetadata: false },
      afterFirstUse: { compromise: true, phoneMetadata: true },
      first: expected,
      second: expected,
    });
  }, 40_000);
});
