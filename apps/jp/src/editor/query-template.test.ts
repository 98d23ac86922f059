import { describe, expect, it } from 'vitest';
import { queryFromTemplate, renderTemplate, SCISSORS, type TemplateContext } from './query-template.ts';

const context: TemplateContext = {
  conversation: { id: 'abc', title: 'A title' },
  model: 'echo',
  attachments: ['file:///w/src/main.rs', 'src/'],
  notices: ['src/main.rs changed since it was attached in turn 0'],
  lastAnswer: 'The answer\nin two lines',
};

describe('query template', () => {
  it('puts the query above the scissors and the context below it', () => {
    const text = renderTemplate('why?', context);
    const [above, below] = text.split(SCISSORS) as [string, string];
    expect(above).toBe('why?\n\n');
    expect(below).toContain('Conversation: abc (A title)');
    expect(below).toContain('Model: echo');
    expect(below).toContain('- file:///w/src/main.rs');
    expect(below).toContain('- src/main.rs changed since it was attached in turn 0');
    expect(below).toContain('The answer\nin two lines');
  });

  it('starts an empty template with the cursor line empty', () => {
    expect(renderTemplate('', context).startsWith(`\n${SCISSORS}\n`)).toBe(true);
  });

  it('gives back exactly what was written above the scissors, Markdown headings included', () => {
    const written = renderTemplate('', context).replace(/^/, '# Heading\n\nbody with `code`\n');
    expect(queryFromTemplate(written)).toBe('# Heading\n\nbody with `code`');
  });

  it('drops everything under the scissors, even text the user added there', () => {
    const written = `question\n${SCISSORS}\nnot sent\n`;
    expect(queryFromTemplate(written)).toBe('question');
  });

  it('reads a file without scissors whole, and CRLF line ends as LF', () => {
    expect(queryFromTemplate('a\r\nb\r\n\r\n')).toBe('a\nb');
  });

  it('reads only whitespace above the scissors as an empty query', () => {
    expect(queryFromTemplate(`  \n\t\n${SCISSORS}\nx`)).toBe('');
  });

  it('round-trips a draft: the query read back renders to the same template', () => {
    const first = renderTemplate('line one\n\n## two', context);
    const again = renderTemplate(queryFromTemplate(first), context);
    expect(again).toBe(first);
  });

  it('makes control characters in the context visible and keeps the last 200 lines of a long answer', () => {
    const long = Array.from({ length: 250 }, (_, i) => `line ${i}`).join('\n');
    const text = renderTemplate('', { ...context, lastAnswer: `\u001b]52;c;AAAA\u0007${long}`, conversation: { id: 'x', title: '\u001b[2J' } });
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(text).toContain('\\x1b[2J');
    expect(text).toContain('[… 50 earlier lines]');
    expect(text).toContain('line 249');
    expect(text).not.toContain('line 49\n');
  });
});
