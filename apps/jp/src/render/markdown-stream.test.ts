import { describe, expect, it } from 'vitest';
import { MarkdownStream } from './markdown-stream.ts';
import { PLAIN_RENDER, renderStyles } from './render-styles.ts';
import { visibleWidth } from './wrap-styled.ts';

/** Renders `text` fed in chunks of `chunk` characters; returns what was written. */
function render(text: string, options: { width?: number; color?: boolean; chunk?: number } = {}): string {
  let out = '';
  const stream = new MarkdownStream((part) => (out += part), { width: options.width ?? 80, styles: options.color ? renderStyles(true) : PLAIN_RENDER });
  const chunk = options.chunk ?? 3;
  for (let i = 0; i < text.length; i += chunk) stream.push(text.slice(i, i + chunk));
  stream.end();
  return out;
}

const SGR = /\u001b\[[0-9;]*m/g;
const plain = (text: string) => text.replace(SGR, '');

describe('MarkdownStream, one element at a time', () => {
  it('headings keep their level marks and are bold with colour', () => {
    expect(render('# Top\n### Third\n')).toBe('# Top\n### Third\n');
    expect(render('# Top\n', { color: true })).toMatch(/^\u001b\[1m.*# Top.*\n$/);
  });

  it('emphasis, strong, strike and inline code lose their marks and keep their text', () => {
    expect(render('a *b* **c** ~~d~~ `e`\n')).toBe('a b c d e\n');
    const colored = render('**c** and `e`\n', { color: true });
    expect(colored).toContain('\u001b[1mc\u001b[22m');
    expect(colored).toContain('\u001b[36me\u001b[39m');
  });

  it('links print their text and then their URL, as text: no OSC 8', () => {
    const out = render('see [the docs](https://example.test/a?b=1) and <https://example.test/z>\n', { color: true });
    expect(plain(out)).toBe('see the docs (https://example.test/a?b=1) and https://example.test/z\n');
    expect(out).not.toContain('\u001b]');
  });

  it('lists, nested, with bullets and numbers and hanging indents', () => {
    const out = render('- one\n  - two\n    - three\n1. first\n2) second\n', { width: 40 });
    expect(out).toBe('• one\n  • two\n    • three\n1. first\n2) second\n');
    const wrapped = render(`- ${'word '.repeat(20)}\n`, { width: 30 });
    expect(wrapped.split('\n').slice(1, -1).every((line) => line.startsWith('  word'))).toBe(true);
  });

  it('lists nested ten deep stay within the width', () => {
    const deep = Array.from({ length: 10 }, (_, depth) => `${'  '.repeat(depth)}- level ${depth} ${'x '.repeat(10)}`).join('\n');
    const out = render(`${deep}\n`, { width: 30 });
    expect(out.split('\n').filter(Boolean).every((line) => visibleWidth(line) <= 30)).toBe(true);
    expect(out).toContain('level 9');
  });

  it('block quotes get a bar on every wrapped line', () => {
    const out = render(`> ${'quoted words '.repeat(10)}\n`, { width: 40 });
    const lines = out.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((line) => line.startsWith('│ '))).toBe(true);
  });

  it('a horizontal rule spans the width (at most 80)', () => {
    expect(render('---\n', { width: 20 })).toBe(`${'─'.repeat(20)}\n`);
    expect(render('***\n', { width: 200 })).toBe(`${'─'.repeat(80)}\n`);
  });

  it('tables are drawn with borders when they end', () => {
    expect(render('| a | b |\n|---|:-:|\n| 1 | two |\n\nafter\n')).toBe(
      ['┌───┬─────┐', '│ a │ b   │', '├───┼─────┤', '│ 1 │ two │', '└───┴─────┘', '', 'after', ''].join('\n'),
    );
  });

  it('a table wider than the terminal is fitted to it, its cells wrapped', () => {
    const row = `| ${'long cell text '.repeat(6)} | ${'other '.repeat(8)} |`;
    const out = render(`| h1 | h2 |\n|---|---|\n${row}\n`, { width: 50 });
    const lines = out.split('\n').filter(Boolean);
    expect(lines.every((line) => visibleWidth(line) <= 50)).toBe(true);
    expect(lines.length).toBeGreaterThan(6);
  });

  it('rows without a delimiter row are not a table: they print as text', () => {
    expect(render('| not | a table |\n')).toBe('| not | a table |\n');
  });

  it('fenced code keeps its lines exactly: not wrapped, not re-indented', () => {
    const code = `    indented();\n${'x'.repeat(150)}\n`;
    expect(render(`\`\`\`\n${code}\`\`\`\n`, { width: 40 })).toBe(`\`\`\`\n${code}\`\`\`\n`);
  });

  it('fenced code is highlighted by its language, a multi-line string coloured on each line', () => {
    const out = render('```python\ndef f():\n    s = """a\nb"""\n```\n', { color: true });
    expect(plain(out)).toBe('```python\ndef f():\n    s = """a\nb"""\n```\n');
    expect(out).toContain('\u001b[35mdef\u001b[39m');
    expect(out).toContain('\u001b[32mb"""\u001b[39m');
  });

  it('an unknown language prints the code plain', () => {
    expect(render('```klingon\nqapla\n```\n', { color: true })).toBe('\u001b[2m```klingon\u001b[22m\nqapla\n\u001b[2m```\u001b[22m\n');
  });

  it('renders each line as it completes, and nothing is rewritten', () => {
    const writes: string[] = [];
    const stream = new MarkdownStream((part) => writes.push(part), { width: 80, styles: PLAIN_RENDER });
    stream.push('# Head');
    expect(writes).toEqual([]);
    stream.push('ing\nbody');
    expect(writes).toEqual(['# Heading\n']);
    stream.push(' text\n```js\nlet a');
    expect(writes).toEqual(['# Heading\n', 'body text\n', '```js\n']);
    stream.push(' = 1;\n');
    expect(writes.at(-1)).toBe('let a = 1;\n');
    stream.end();
    expect(writes.join('')).toBe('# Heading\nbody text\n```js\nlet a = 1;\n');
    expect(writes.join('')).not.toMatch(/\u001b\[[0-9]*[ABJK]|\r/);
  });
});

describe('MarkdownStream, hostile answers', () => {
  const hostile = ['\u001b]52;c;AAAA\u0007', '\u001b[2J', '\u009b31m', '\u202e', '\u001b]8;;http://evil\u0007x\u001b]8;;\u0007', '\r', '\b'];

  it('makes escape sequences visible everywhere, inside code blocks and tables too', () => {
    for (const evil of hostile) {
      const answer = `# h ${evil}\ntext ${evil}\n- item ${evil}\n> q ${evil}\n| a | ${evil} |\n|---|---|\n| ${evil} | b |\n\`\`\`js\nlet a = "${evil}";\n\`\`\`\n\`\`\`\n${evil}\n\`\`\`\n`;
      for (const color of [false, true]) {
        const out = render(answer, { color }).replace(SGR, '');
        expect(out, JSON.stringify(evil)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      }
    }
  });

  it('with colour on, the only escapes are SGR codes', () => {
    const out = render(`**b** \`c\` [l](u)\n\`\`\`ts\nconst x: number = 1; // c\n\`\`\`\n| a |\n|---|\n| b |\n`, { color: true });
    expect(out.replace(SGR, '')).not.toContain('\u001b');
  });

  it('a fence that never closes prints its lines and ends', () => {
    expect(render('```js\nlet a = 1;\nlet b', { color: false })).toBe('```js\nlet a = 1;\nlet b\n');
  });

  it('a 10 000-column line is wrapped to the width without losing a character', () => {
    const word = 'y'.repeat(10_000);
    const out = render(`${word}\n`, { width: 80 });
    const lines = out.split('\n').filter(Boolean);
    expect(lines.every((line) => line.length <= 80)).toBe(true);
    expect(lines.join('')).toBe(word);
  });

  it('lays text out with colour off: list markers, borders and wrapping, no escapes', () => {
    const out = render('- a\n\n| x |\n|---|\n| y |\n', { color: false });
    expect(out).toBe('• a\n\n┌───┐\n│ x │\n├───┤\n│ y │\n└───┘\n');
  });
});
