import MarkdownIt from 'markdown-it';
import { highlightHtml, knownLanguage } from '../render/highlight-code.ts';
import { escapeHtml } from './escape-html.ts';

/** The page's headings go to h3 (a turn is h2, its parts h3): a model's `#` starts below them. */
const HEADING_SHIFT = 3;

/**
 * Model text as HTML: CommonMark with raw HTML off (a `<script>` in the text comes out as text),
 * images off (the page loads nothing; `![x](url)` becomes a link) and markdown-it's link check, which
 * refuses `javascript:`, `vbscript:` and `data:` URLs other than images. A line break in the text is
 * one on the page (`breaks`): an answer in plain text keeps its lines, as the terminal shows them.
 *
 * Code in a fence naming a language the terminal's highlighter knows is highlighted by it
 * (render/highlight-code.ts) as `hljs-*` classes the page's style sheet colours: no script.
 * Headings move down three levels (`#` is h4), so they sit below the turn's and its parts'; the
 * level written keeps a class (`md-h1`…) where h6 holds several. A table scrolls inside its own
 * box on a narrow screen instead of widening the page.
 */
const markdown = new MarkdownIt({
  html: false,
  linkify: false,
  typographer: false,
  breaks: true,
  highlight: (code, info) => {
    const language = knownLanguage(info);
    if (language === undefined) return '';
    return `<pre class="code"><code class="hljs language-${escapeHtml(language)}">${highlightHtml(code, language)}</code></pre>`;
  },
}).disable('image');

markdown.core.ruler.push('shift_headings', (state) => {
  for (const token of state.tokens) {
    if (token.type !== 'heading_open' && token.type !== 'heading_close') continue;
    const level = Number(token.tag.slice(1));
    token.tag = `h${Math.min(6, level + HEADING_SHIFT)}`;
    if (token.type === 'heading_open') token.attrJoin('class', `md-h${level}`);
  }
});

const renderToken = markdown.renderer.renderToken.bind(markdown.renderer);
markdown.renderer.rules.table_open = (tokens, idx, options) => `<div class="table-scroll">${renderToken(tokens, idx, options)}`;
markdown.renderer.rules.table_close = (tokens, idx, options) => `${renderToken(tokens, idx, options)}</div>\n`;

/** `text` as the HTML of one `.md` block. */
export function renderMarkdown(text: string): string {
  return `<div class="md">${markdown.render(text)}</div>`;
}
