import { describe, expect, it } from 'vitest';
import { fenceLanguage } from './mime-language.ts';

describe('fenceLanguage', () => {
  it.each([
    ['text/x-rust', 'rust'],
    ['text/x-python', 'python'],
    ['application/x-python', 'python'],
    ['text/x-go', 'go'],
    ['application/json', 'json'],
    ['application/ld+json', 'json'],
    ['application/vnd.api+json', 'json'],
    ['application/atom+xml', 'xml'],
    ['image/svg+xml', 'xml'],
    ['text/markdown', 'markdown'],
    ['text/x-markdown', 'markdown'],
    ['text/html', 'html'],
    ['text/javascript', 'javascript'],
    ['application/typescript', 'typescript'],
    ['application/toml', 'toml'],
    ['application/yaml', 'yaml'],
    ['text/x-shellscript', 'sh'],
    ['text/x-diff', 'diff'],
    ['text/x-patch', 'diff'],
    ['text/x-c++src', 'cpp'],
    ['text/x-csrc', 'c'],
  ])('%s → %s', (mimeType, language) => {
    expect(fenceLanguage(mimeType)).toBe(language);
  });

  it.each([['text/plain'], ['application/octet-stream'], ['image/png'], ['application/pdf'], ['text/rust'], ['']])(
    '%s has no tag',
    (mimeType) => {
      expect(fenceLanguage(mimeType)).toBe('');
    },
  );

  it('has no tag without a MIME type', () => {
    expect(fenceLanguage(undefined)).toBe('');
  });

  it('ignores parameters, case and surrounding space', () => {
    expect(fenceLanguage('text/x-rust; charset=utf-8')).toBe('rust');
    expect(fenceLanguage('application/json;charset=UTF-8')).toBe('json');
    expect(fenceLanguage('Text/Markdown; charset="utf-8"; variant=GFM')).toBe('markdown');
    expect(fenceLanguage('  TEXT/X-RUST ')).toBe('rust');
    expect(fenceLanguage('text/plain; charset=utf-8')).toBe('');
  });

  it('never returns anything that could break out of a fence info string', () => {
    expect(fenceLanguage('text/x-a`b')).toBe('');
    expect(fenceLanguage('text/x-a b')).toBe('');
    expect(fenceLanguage('text/x-a\nb')).toBe('');
  });
});
