import { describe, expect, it } from 'vitest';
import { extractFeatures, stems } from '../../src/local/engine/features.ts';
import { words } from '../../src/local/knowledge/words.ts';

describe('Spanish text is tokenised with its accents', () => {
  it('keeps accented words whole (natural\'s WordTokenizer would split "Pérez" into "P", "rez")', () => {
    expect(words('¿Cuánto cuesta la recámara de Pérez? ¡Mañana!')).toEqual(['cuánto', 'cuesta', 'la', 'recámara', 'de', 'pérez', 'mañana']);
  });

  it('gives a word written with or without its accents the same features', () => {
    expect(stems('recámaras')).toEqual(stems('recamaras'));
    expect(extractFeatures('¿Dónde está la piscina?').features).toEqual(extractFeatures('donde esta la piscina').features);
  });

  it('maps Spanish and English words of one concept to the same concept feature', () => {
    const concepts = (text: string) => extractFeatures(text).features.filter((f) => f.startsWith('c:'));
    expect(concepts('¿Aceptan perros?')).toEqual(['c:pet', 'c:pet#2']);
    expect(concepts('Do you accept dogs?')).toEqual(['c:pet', 'c:pet#2']);
  });
});
