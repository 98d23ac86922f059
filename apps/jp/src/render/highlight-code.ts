import hljs from 'highlight.js/lib/core';
import { withLanguages } from './highlight-languages.ts';
import type { RenderStyles } from './render-styles.ts';
import { CLOSE, ScopeEmitter } from './scope-emitter.ts';

// Two instances: the page keeps highlight.js's own HTML; the terminal's emits token lists (scope-emitter.ts).
const page = () => withLanguages(hljs);
let terminalInstance: typeof hljs | undefined;
const terminal = () => {
  if (terminalInstance === undefined) {
    terminalInstance = withLanguages(hljs.newInstance());
    terminalInstance.configure({ __emitter: ScopeEmitter });
  }
  return terminalInstance;
};

/** Whether the info string names a language the highlighter knows. */
export function knownLanguage(info: string): string | undefined {
  const name = info.trim().split(/[\s{]/)[0]!.toLowerCase();
  return name !== '' && terminal().getLanguage(name) !== undefined ? name : undefined;
}

/**
 * `code` highlighted as `language` for a web page: highlight.js's own markup, the code escaped and
 * each token a `<span class="hljs-…">` (`conversation show --html` styles the classes, as the
 * terminal paints the same kinds).
 */
export function highlightHtml(code: string, language: string): string {
  return page().highlight(code, { language, ignoreIllegals: true }).value;
}

/**
 * `code` highlighted as `language`, one styled string a line, and whether the code ends outside
 * any construct (no string or comment left open), so the next line can be highlighted on its own.
 * Open scopes are carried across line ends, so a multi-line string keeps its colour on every line.
 */
export function highlightLines(code: string, language: string, styles: RenderStyles): { lines: string[]; closed: boolean } {
  const highlighter = terminal();
  const result = highlighter.highlight(code, { language, ignoreIllegals: true });
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  for (const part of (result._emitter as ScopeEmitter).parts) {
    if (part === CLOSE) open.pop();
    else if (typeof part !== 'string') open.push(part.open);
    else {
      const pieces = part.split('\n');
      pieces.forEach((piece, index) => {
        if (index > 0) {
          lines.push(line);
          line = '';
        }
        if (piece !== '') line += open.length === 0 ? piece : styles.token(open[open.length - 1]!, piece);
      });
    }
  }
  lines.push(line);
  // `_top` is the mode the highlighter ended in (highlight.js 11, pinned): the language itself when nothing is open.
  return { lines, closed: result._top === highlighter.getLanguage(language) };
}
