import { describe, expect, it } from 'vitest';
import { findName } from '../../src/contacts/name.ts';

describe('the writer\'s name as visitors write it (issue 27)', () => {
  it.each([
    ['its Kayla from 12B the ac is leaking', 'Kayla'],
    ['Im Derek, need someone to call me', 'Derek'],
    ['hola, le habla ricardo vega, llamenme', 'Ricardo Vega'],
    ['Aquí Marta Salinas, necesito un agente', 'Marta Salinas'],
    ['quien escribe es Rosa Diaz, inquilina del 2B', 'Rosa Diaz'],
    ['can an agent email me about the lease? xoxo Jenny', 'Jenny'],
    ['the hallway light is out again. - Brenda', 'Brenda'],
    ['Keisha Brown, 404 718 2296, keisha.b@gmail.com', 'Keisha Brown'],
    ['me llamo juan de la rosa, 713 330 2281', 'Juan de la Rosa'],
    ['my name is Sarah Johnson-Smith', 'Sarah Johnson-Smith'],
    ['My name is John R. Miller, water heater is out', 'John R. Miller'],
    ['soy Carmen de Monterrey, busco un depa', 'Carmen'],
    ['Hey Nick here, need a call back', 'Nick'],
    ['Tomas Banderas aqui, necesito que me llamen', 'Tomas Banderas'],
    ['Can I talk to Jennifer Lopez the manager? I\'m Rob', 'Rob'],
  ])('%j -> %j', (text, name) => {
    expect(findName(text)).toBe(name);
  });

  it.each([
    "I'm Section 8 approved, can someone call me?",
    'soy Section 8 aprobada, me pueden llamar?',
    'Torre Carlos Slim depto 804, se inundo el baño',
    'Walter Payton Court building B, the elevator is stuck',
    'my neighbor Dave Collins keeps parking in my spot',
    'i spoke with Kevin Brooks from maintenance yesterday',
    'its raining inside my apartment!!',
    'aqui no hay agua desde ayer',
    'Water Leak, kitchen, urgent',
  ])('no writer\'s name in %j', (text) => {
    expect(findName(text)).toBeNull();
  });
});
