import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render-markdown.ts';

describe('renderMarkdown', () => {
  it('renders Markdown', () => {
    expect(renderMarkdown('**bold** and `code`\n\n- item')).toBe('<div class="md"><p><strong>bold</strong> and <code>code</code></p>\n<ul>\n<li>item</li>\n</ul>\n</div>');
  });

  it('keeps the line breaks of a plain-text answer', () => {
    expect(renderMarkdown('first line\nsecond line\nthird')).toBe('<div class="md"><p>first line<br>\nsecond line<br>\nthird</p>\n</div>');
  });

  it('never passes raw HTML, script URLs or images (which would load) through', () => {
    const html = renderMarkdown('<script>window.pwned=1</script>\n\n<img src=x onerror=alert(1)> [x](javascript:alert(1)) ![i](http://example.com/i.png)');
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('&lt;script&gt;');
    // An image becomes a plain link: nothing is fetched unless the reader follows it.
    expect(html).toContain('!<a href="http://example.com/i.png">i</a>');
  });

  it("puts a model's headings below the page's: # is h4, and deeper ones stop at h6 with their level as a class", () => {
    expect(renderMarkdown('# Top\n\n## Two\n\n#### Four')).toBe('<div class="md"><h4 class="md-h1">Top</h4>\n<h5 class="md-h2">Two</h5>\n<h6 class="md-h4">Four</h6>\n</div>');
  });

  it("highlights fenced code with the terminal's highlighter, as classes, its text escaped", () => {
    const html = renderMarkdown('```ts\nconst a = "<b>";\n```\n\n```nosuchlanguage\nplain <i>\n```');
    expect(html).toContain('<pre class="code"><code class="hljs language-ts"><span class="hljs-keyword">const</span> a = <span class="hljs-string">&quot;&lt;b&gt;&quot;</span>;\n</code></pre>');
    expect(html).toContain('<pre><code class="language-nosuchlanguage">plain &lt;i&gt;\n</code></pre>');
    expect(html).not.toMatch(/<b>|<i>/);
  });

  it('wraps a table in a box of its own that scrolls, and keeps a blockquote', () => {
    const html = renderMarkdown('| col a | col b |\n|---|---|\n| 1 | 2 |\n\n> quoted');
    expect(html).toMatch(/^<div class="md"><div class="table-scroll"><table>\n<thead>\n<tr>\n<th>col a<\/th>/);
    expect(html).toContain('</table>\n</div>');
    expect(html).toContain('<blockquote>\n<p>quoted</p>\n</blockquote>');
  });
});
