import MarkdownIt from 'markdown-it';

/**
 * Model text as HTML: CommonMark with raw HTML off (a `<script>` in the text comes out as text),
 * images off (the page loads nothing; `![x](url)` becomes a link) and markdown-it's link check, which
 * refuses `javascript:`, `vbscript:` and `data:` URLs other than images.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false }).disable('image');

export function renderMarkdown(text: string): string {
  return markdown.render(text);
}
