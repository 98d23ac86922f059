import { readFileSync } from 'node:fs';
import hljs from 'highlight.js/lib/core';
import { describe, expect, it } from 'vitest';
import { highlightHtml, highlightLines, knownLanguage } from './highlight-code.ts';
import { HighlightStream } from './highlight-stream.ts';
import { renderStyles } from './render-styles.ts';

const styles = renderStyles(true);
const DIM = '\u001b[2m';
const GREEN = '\u001b[32m';

/** `code` fed to a HighlightStream a line at a time, as a streamed answer brings it. */
function streamed(code: string, language: string): string[] {
  const stream = new HighlightStream(language, styles);
  return code.split('\n').map((line) => stream.line(line));
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'" };

/**
 * The second opinion: highlight.js's own HTML for the whole block at once (the page's highlighter),
 * read back span by span into the terminal's styles, the innermost class painting each run.
 */
function wholeBlockFromHtml(code: string, language: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  for (const part of highlightHtml(code, language).split(/(<span class="[^"]*">|<\/span>)/)) {
    if (part.startsWith('<span')) open.push(/class="([^"]*)"/.exec(part)![1]!.split(' ')[0]!.replace(/^hljs-/, ''));
    else if (part === '</span>') open.pop();
    else
      part
        .replace(/&(?:amp|lt|gt|quot|#x27);/g, (entity) => ENTITIES[entity]!)
        .split('\n')
        .forEach((piece, index) => {
          if (index > 0) lines.push(line);
          if (index > 0) line = '';
          if (piece !== '') line += open.length === 0 ? piece : styles.token(open.at(-1)!, piece);
        });
  }
  return [...lines, line];
}

// The bench's four languages (bench/render.ts), each with its bench line and constructs that span lines.
const BLOCKS: Record<string, string> = {
  typescript: [
    'const value1 = compute("input 1", 1 * 2); // keep 1',
    'const t = `first ${a + 1}',
    '  second line',
    'end`; /* a comment',
    '   over lines */ function f<T>(x: T): T { return x; }',
    'class A extends B { @dec m(): void {} }',
    'const e = "say \\"hi\\"\\n";',
  ].join('\n'),
  python: ['const value1 = compute("input 1", 1 * 2); // keep 1', '@decorator', 'def f(a, b=2):', '    """doc', '    string"""', "    e = 'it\\'s\\n'", "    return f'{a!r}' # c"].join('\n'),
  rust: ['const value1 = compute("input 1", 1 * 2); // keep 1', '#[derive(Debug)]', 'fn main() { let s = "multi\\"', 'line"; /* a', ' b */ println!("{}", s); }', "impl<'a, T> Foo for Bar<T> where T: Clone {}"].join('\n'),
  bash: ['const value1 = compute("input 1", 1 * 2); // keep 1', 'cat <<EOF', 'heredoc $HOME', 'EOF', 'echo "a\\"', 'b" $(ls -l) # c', 'for i in 1 2; do echo "$i"; done'].join('\n'),
};

// One block in each other language jp registers, with sublanguages (html, php, markdown). Ruby is
// left out: a heredoc's start is matched with its end, so a line after `<<~EOS` is known only from
// the whole block.
const OTHERS = [...readFileSync(new URL('./__fixtures__/code-blocks.md', import.meta.url), 'utf8').matchAll(/```(\w+)\n([\s\S]*?)\n```/g)].map((block) => [block[1]!, block[2]!] as const);

describe('HighlightStream, a code block a line at a time', () => {
  it('keeps a string or comment that spans lines in its colour on each line', () => {
    expect(streamed('/* one\ntwo\nthree */ x = 1;', 'typescript')).toEqual([`${DIM}/* one\u001b[22m`, `${DIM}two\u001b[22m`, `${DIM}three */\u001b[22m x = \u001b[33m1\u001b[39m;`]);
    expect(streamed('s = """a\nb\nc"""', 'python').slice(1)).toEqual([`${GREEN}b\u001b[39m`, `${GREEN}c"""\u001b[39m`]);
    expect(streamed('let s = "a\nb";', 'rust')[1]).toBe(`${GREEN}b"\u001b[39m;`);
    expect(streamed('echo "a\nb"', 'bash')[1]).toBe(`${GREEN}b"\u001b[39m`);
    // On its own the middle line is not a comment: the colour comes from the lines before it.
    expect(highlightLines('two', 'typescript', styles).lines).toEqual(['two']);
  });

  it.each(Object.keys(BLOCKS))('%s: line by line equals the whole block highlighted at once from highlight.js HTML', (language) => {
    const expected = wholeBlockFromHtml(BLOCKS[language]!, language);
    expect(expected.join('')).toContain('\u001b[');
    expect(streamed(BLOCKS[language]!, language)).toEqual(expected);
  });

  it.each(OTHERS)('%s: line by line equals the whole block highlighted at once', (info, code) => {
    const language = knownLanguage(info)!;
    expect(streamed(code, language)).toEqual(wholeBlockFromHtml(code, language));
  });

  it('relies on highlight.js 11.11.1 private parts: the __emitter option and the result’s _top', () => {
    // A new highlight.js version must be checked against both before this pin moves.
    expect(hljs.versionString).toBe('11.11.1');
    expect(highlightLines('let a = 1;', 'typescript', styles).closed).toBe(true);
    expect(highlightLines('let a = `open', 'typescript', styles).closed).toBe(false);
    expect(highlightLines('x = 1 # done', 'python', styles).closed).toBe(true);
    expect(highlightLines('"""open', 'python', styles).closed).toBe(false);
  });
});
