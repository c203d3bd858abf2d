import { describe, expect, it } from 'vitest';
import { findEmail } from '../../src/contacts/email.ts';

const email = (text: string): string | null => findEmail(text);

describe('email extraction', () => {
  it.each([
    ['Please email me at a.b@x.com.', 'a.b@x.com'],
    ['(email: anna.k@outlook.com)', 'anna.k@outlook.com'],
    ['My email is <bob.miller@example.org>, thanks', 'bob.miller@example.org'],
    ['reach me at tom+apartments@mail.example.io; free after 5', 'tom+apartments@mail.example.io'],
    ['mi correo: pedro_ramos92@hotmail.com.', 'pedro_ramos92@hotmail.com'],
    ['"priya.patel@company.co.uk"!', 'priya.patel@company.co.uk'],
    ['¿es fernanda@yahoo.com.mx?', 'fernanda@yahoo.com.mx'],
    ['mailto:o\'neil@example.com', "o'neil@example.com"],
  ])('finds the address in %j without surrounding punctuation', (text, expected) => {
    expect(email(text)).toBe(expected);
  });

  it('lower-cases the domain and keeps the local part as written', () => {
    expect(email('email me: JANE.DOE@EXAMPLE.COM!')).toBe('JANE.DOE@example.com');
    expect(email('jl.martinez@Gmail.com')).toBe('jl.martinez@gmail.com');
  });

  it('reports the first address when there are several', () => {
    expect(email('first@a.com, then second@b.com')).toBe('first@a.com');
  });

  it.each([
    'My email is kate@@gmail.com',
    'kate.m@gmail..com',
    'my insta is @maria_l, dm me',
    'user@localhost please',
    'email me at john at gmail dot com',
    'a.@x.com',
    '.a@x.com',
    'x@-bad.com',
    'no address here',
  ])('finds no address in %j', (text) => {
    expect(email(text)).toBeNull();
  });
});
