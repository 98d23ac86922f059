import { describe, expect, it } from 'vitest';
import { formatResource } from './format-resource.ts';

describe('formatResource', () => {
  it('fences text with the language of its MIME type', () => {
    expect(formatResource({ uri: 'file:///p/src/main.rs', mimeType: 'text/x-rust', text: 'fn main() {}\n' })).toBe(
      '```rust\nfn main() {}\n```',
    );
    expect(formatResource({ uri: 'file:///p/a.json', mimeType: 'application/json', text: '{"a":1}' })).toBe(
      '```json\n{"a":1}\n```',
    );
    expect(formatResource({ uri: 'file:///p/README.md', mimeType: 'text/markdown; charset=utf-8', text: '# Title\n' })).toBe(
      '```markdown\n# Title\n```',
    );
  });

  it('uses a bare fence for text/plain and for no MIME type', () => {
    expect(formatResource({ uri: 'file:///p/notes.txt', mimeType: 'text/plain', text: 'hello' })).toBe('```\nhello\n```');
    expect(formatResource({ uri: 'cmd://date', text: 'Mon' })).toBe('```\nMon\n```');
  });

  it('adds exactly one newline before the closing fence', () => {
    expect(formatResource({ uri: 'u', text: 'a' })).toBe('```\na\n```');
    expect(formatResource({ uri: 'u', text: 'a\n' })).toBe('```\na\n```');
    expect(formatResource({ uri: 'u', text: 'a\n\n' })).toBe('```\na\n\n```');
    expect(formatResource({ uri: 'u', text: '' })).toBe('```\n\n```');
  });

  it('uses a fence longer than any run of backticks in the text', () => {
    const markdown = 'Example:\n\n```rust\nfn x() {}\n```\n\nand ````` five.\n';
    const out = formatResource({ uri: 'file:///p/doc.md', mimeType: 'text/markdown', text: markdown });
    expect(out).toBe(`\`\`\`\`\`\`markdown\n${markdown}\`\`\`\`\`\``);
    // The closing fence is the first line that is only backticks at least as long as the opener.
    const lines = out.split('\n');
    const opener = /^`+/.exec(lines[0] ?? '')?.[0] ?? '';
    const closerIndex = lines.findIndex((line, i) => i > 0 && /^`+$/.test(line) && line.length >= opener.length);
    expect(closerIndex).toBe(lines.length - 1);
  });

  it('keeps three backticks when the text has only shorter runs', () => {
    expect(formatResource({ uri: 'u', mimeType: 'text/x-sh', text: 'echo `date` ``x``' })).toBe(
      '```sh\necho `date` ``x``\n```',
    );
  });

  it('returns formatted verbatim, whatever the content', () => {
    const formatted = '<document uri="file:///p/a.rs">\nfn a() {}\n</document>';
    expect(formatResource({ uri: 'file:///p/a.rs', mimeType: 'text/x-rust', text: 'fn a() {}', formatted })).toBe(formatted);
    expect(formatResource({ uri: 'file:///p/a.png', blob: new Uint8Array([1]), formatted: '[a diagram]' })).toBe('[a diagram]');
    expect(formatResource({ uri: 'u', text: 'x', formatted: '' })).toBe('');
  });

  it('gives binary content a one-line placeholder with uri, type and size', () => {
    const out = formatResource({ uri: 'file:///p/logo.png', mimeType: 'image/png', blob: new Uint8Array(1234) });
    expect(out).toBe('[binary resource file:///p/logo.png: image/png, 1234 bytes]');
    expect(out).not.toContain('\n');
    expect(formatResource({ uri: 'mem:x', blob: new Uint8Array(0) })).toBe(
      '[binary resource mem:x: application/octet-stream, 0 bytes]',
    );
  });
});
