import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import type { RenderStyles } from './render-styles.ts';

// The languages answers about code use most; each registers its own aliases (ts, py, rs, sh, yml…).
const LANGUAGES = { bash, c, cpp, csharp, css, diff, go, ini, java, javascript, json, kotlin, markdown, php, python, ruby, rust, shell, sql, swift, typescript, xml, yaml };
let registered = false;

function register(): void {
  if (registered) return;
  for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
  hljs.registerAliases(['toml'], { languageName: 'ini' });
  registered = true;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };
const decode = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity]!);

/** Whether the info string names a language the highlighter knows. */
export function knownLanguage(info: string): string | undefined {
  register();
  const name = info.trim().split(/[\s{]/)[0]!.toLowerCase();
  return name !== '' && hljs.getLanguage(name) !== undefined ? name : undefined;
}

/**
 * `code` highlighted as `language` for a web page: highlight.js's own markup, the code escaped and
 * each token a `<span class="hljs-…">` (`conversation show --html` styles the classes, as the
 * terminal paints the same kinds).
 */
export function highlightHtml(code: string, language: string): string {
  register();
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}

/**
 * `code` highlighted as `language`, one styled string a line, and whether the code ends outside
 * any construct (no string or comment left open), so the next line can be highlighted on its own.
 * highlight.js answers with HTML spans; they are read back into the renderer's own styles, the
 * open ones carried across line ends, so a multi-line string keeps its colour on every line.
 */
export function highlightLines(code: string, language: string, styles: RenderStyles): { lines: string[]; closed: boolean } {
  register();
  const result = hljs.highlight(code, { language, ignoreIllegals: true });
  const html = result.value;
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  const paint = (text: string) => {
    if (text === '') return;
    line += open.length === 0 ? text : styles.token(open[open.length - 1]!, text);
  };
  for (const part of html.split(/(<span class="[^"]*">|<\/span>)/)) {
    if (part.startsWith('<span')) {
      open.push(/class="([^"]*)"/.exec(part)![1]!.split(' ')[0]!.replace(/^hljs-/, '').replace(/_$/, ''));
    } else if (part === '</span>') {
      open.pop();
    } else {
      const pieces = decode(part).split('\n');
      pieces.forEach((piece, index) => {
        if (index > 0) {
          lines.push(line);
          line = '';
        }
        paint(piece);
      });
    }
  }
  lines.push(line);
  // `_top` is the mode the highlighter ended in (highlight.js 11, pinned): the language itself when nothing is open.
  const closed = (result as unknown as { _top?: unknown })._top === hljs.getLanguage(language);
  return { lines, closed };
}
