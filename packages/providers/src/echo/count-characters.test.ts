import { describe, expect, it } from 'vitest';
import { countCharacters } from './count-characters.ts';

describe('countCharacters', () => {
  it('counts code points exactly as spreading the string does, lone surrogates included', () => {
    const samples = ['', 'plain ascii', 'Título — 日本語', '🦀 crab', '🦀🦀', 'a\uD800b', '\uDC00\uD800', 'x\uD83E', '\uD83E\uDD80\uDD80', 'é\u0301'];
    for (const text of samples) expect(countCharacters(text), JSON.stringify(text)).toBe([...text].length);
  });
});
