import MarkdownIt from 'markdown-it';

/**
 * Model text as HTML: CommonMark with raw HTML off (a `<script>` in the text comes out as text),
 * images off (the page loads nothing; `![x](url)` becomes a link) and markdown-it's link check, which
 * refuses `javascript:`, `vbscript:` and `data:` URLs other than images. A line break in the text is
 * one on the page (`breaks`): an answer in plain text keeps its lines, as the terminal shows them.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: true }).disable('image');

export function renderMarkdown(text: string): string {
  return markdown.render(text);
}
