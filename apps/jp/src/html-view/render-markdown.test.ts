import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render-markdown.ts';

describe('renderMarkdown', () => {
  it('renders Markdown', () => {
    expect(renderMarkdown('**bold** and `code`\n\n- item')).toBe('<p><strong>bold</strong> and <code>code</code></p>\n<ul>\n<li>item</li>\n</ul>\n');
  });

  it('keeps the line breaks of a plain-text answer', () => {
    expect(renderMarkdown('first line\nsecond line\nthird')).toBe('<p>first line<br>\nsecond line<br>\nthird</p>\n');
  });

  it('never passes raw HTML, script URLs or images (which would load) through', () => {
    const html = renderMarkdown('<script>window.pwned=1</script>\n\n<img src=x onerror=alert(1)> [x](javascript:alert(1)) ![i](http://example.com/i.png)');
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('&lt;script&gt;');
    // An image becomes a plain link: nothing is fetched unless the reader follows it.
    expect(html).toContain('!<a href="http://example.com/i.png">i</a>');
  });
});
