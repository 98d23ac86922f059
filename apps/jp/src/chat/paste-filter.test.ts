import { describe, expect, it } from 'vitest';
import { PasteFilter, restorePasted } from './paste-filter.ts';

describe('PasteFilter', () => {
  it('keeps a pasted block with line breaks on one line, and restores it on submit', () => {
    const filter = new PasteFilter();
    const seen = filter.push('look: \u001b[200~fn main() {\n\tprintln!();\r\n}\u001b[201~ ok\r');
    expect(seen).toBe('look: fn main() {\u2424\u2409println!();\u2424} ok\r');
    expect(seen.indexOf('\r')).toBe(seen.length - 1);
    expect(restorePasted(seen.slice(0, -1))).toBe('look: fn main() {\n\tprintln!();\n} ok');
  });

  it('passes typed text through untouched, Enter included', () => {
    expect(new PasteFilter().push('hello\r')).toBe('hello\r');
  });

  it('holds a marker split across reads until it completes', () => {
    const filter = new PasteFilter();
    expect(filter.push('a\u001b[20')).toBe('a');
    expect(filter.push('0~x\ny\u001b[2')).toBe('x\u2424y');
    expect(filter.push('01~\r')).toBe('\r');
  });

  it('lets an escape that is not a marker through once it cannot become one', () => {
    const filter = new PasteFilter();
    expect(filter.push('\u001b')).toBe('');
    expect(filter.push('[A')).toBe('\u001b[A');
  });
});
