/**
 * Which name src/contacts/name.ts reports when a message gives it without "my name is": first in
 * the text wins, "<Name> here", signatures, form-like lines, and people named as staff.
 */
import { describe, expect, it } from 'vitest';
import { findName } from '../../src/contacts/name.ts';

describe('of two introductions, the one written first is the writer', () => {
  it.each([
    ["I'm Ana Ruiz, my husband's name's Tom", 'Ana Ruiz'],
    ['Soy Lucía Pérez, mi esposo se llama Tomás y mi nombre es importante', 'Lucía Pérez'],
    ['This is Dana Kim writing, my name is on the lease with Name: Joe Kim', 'Dana Kim'],
  ])('%j -> %j', (text, expected) => {
    expect(findName(text)).toBe(expected);
  });
});

describe('"<Name> here"', () => {
  it.each([
    ['Jennifer here, is the 2 bedroom available?', 'Jennifer'],
    ['Hi Nick here', 'Nick'],
    ['Hello Nick here', 'Nick'],
    ['Hey Nick here', 'Nick'],
    ['hey Nick here', 'Nick'],
    ['Hola Nick aquí', 'Nick'],
    ['Hey  Nick here', 'Nick'],
    ['Hey, Nick here', 'Nick'],
    ['Ok.  Nick here', 'Nick'],
    ['ok.Nick here', 'Nick'],
    ['Hi! Priya Patel here', 'Priya Patel'],
    ['Hi! Priya  Patel here', 'Priya Patel'],
  ])('%j -> %j', (text, expected) => {
    expect(findName(text)).toBe(expected);
  });

  it.each(['Thanks. Parking here?', 'Yes, Miami here', 'Hi, Monday here works', 'Riverside Park here, any units left?'])('%j has no name', (text) => {
    expect(findName(text)).toBeNull();
  });
});

describe('a signature ends the message or is followed by contact details', () => {
  it.each([
    ['Thanks, Sarah.', 'Sarah'],
    ['Regards, John!', 'John'],
    ['Thanks, Sarah.\n', 'Sarah'],
    ['Thanks,\nSarah\nsarah@x.com', 'Sarah'],
    ['Thanks,\nSarah\n305-482-7719', 'Sarah'],
    ['Thanks,\nSarah\n(305) 482-7719', 'Sarah'],
    ['Thanks,\nSarah\n+1 305 482 7719', 'Sarah'],
    ['Thanks,\nSarah \n\n  sarah@x.com', 'Sarah'],
    ['Thanks, Sarah, sarah@x.com', 'Sarah'],
    ['Thanks, Sarah,sarah@x.com', 'Sarah'],
    ['Thanks, Sarah,  s.k+a@x.com', 'Sarah'],
    ['Thanks, Sarah - 305-482-7719', 'Sarah'],
    ['Thanks, Sarah - (305) 482-7719', 'Sarah'],
    ['Thanks, Sarah; +1 305 482 7719', 'Sarah'],
  ])('%j -> %j', (text, expected) => {
    expect(findName(text)).toBe(expected);
  });

  it.each(['Thanks, Sarah\nsee you at 5', 'Thanks, Sarah and I can pay: 5', 'Thanks, Sarah, see you Monday', 'Thanks, Sarah wants a call\n305-482-7719', 'Thanks, Sarah told me to ask, 305-482-7719', 'Regards, Sunset Gardens'])('%j has no signature', (text) => {
    expect(findName(text)).toBeNull();
  });
});

describe('a form-like line: a full name first, then a phone or an address', () => {
  it.each([
    ['Xiomara Quispe, 305-482-7719', 'Xiomara Quispe'],
    ['Xiomara Quispe 305-482-7719', 'Xiomara Quispe'],
    ['Xiomara Quispe | (305) 482-7719', 'Xiomara Quispe'],
    ['Xiomara Quispe -  +1 305 482 7719', 'Xiomara Quispe'],
    ['Xiomara Quispe: xq@x.com', 'Xiomara Quispe'],
    ['Xiomara Quispe,xq.12@x.com', 'Xiomara Quispe'],
    ['  Xiomara Quispe, 305-482-7719', 'Xiomara Quispe'],
  ])('%j -> %j', (text, expected) => {
    expect(findName(text)).toBe(expected);
  });

  it.each(['Sarah, 305-482-7719'])('%j has no name', (text) => {
    expect(findName(text)).toBeNull();
  });
});

describe('staff named with their job are not the writer', () => {
  it.each(['Michelle Davis from leasing said to write here', 'José Martínez de mantenimiento no vino'])('%j has no name', (text) => {
    expect(findName(text)).toBeNull();
  });
});
