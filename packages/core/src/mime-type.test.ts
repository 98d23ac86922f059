import { describe, expect, it } from 'vitest';
import { isTextualMimeType, mimeEssence, TEXTUAL_APPLICATION_TYPES } from './mime-type.ts';

describe('textual MIME types', () => {
  it.each([
    ['text/plain', true],
    ['text/csv', true],
    ['Text/HTML; charset=utf-8', true],
    ['application/json', true],
    ['application/ld+json', true],
    ['application/atom+xml', true],
    ['application/vnd.api+yaml', true],
    ['application/javascript', true],
    ['application/x-yaml', true],
    ['application/toml', true],
    ['application/x-sh', true],
    ['application/pdf', false],
    ['image/png', false],
    ['image/svg', false],
    ['application/octet-stream', false],
    [undefined, false],
  ])('isTextualMimeType(%s) is %s', (mimeType, textual) => {
    expect(isTextualMimeType(mimeType)).toBe(textual);
  });

  it('lists only application/ types, lower-cased essences', () => {
    for (const type of TEXTUAL_APPLICATION_TYPES) expect(mimeEssence(type)).toBe(type);
    expect([...TEXTUAL_APPLICATION_TYPES].every((type) => type.startsWith('application/'))).toBe(true);
  });

  it('takes the essence: no parameters, trimmed, lower case', () => {
    expect(mimeEssence(' Application/JSON ; charset=UTF-8')).toBe('application/json');
    expect(mimeEssence(undefined)).toBe('');
  });
});
