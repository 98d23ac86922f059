import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html-to-markdown.ts';

const BASE = 'https://docs.example.com/guide/start.html';

describe('htmlToMarkdown', () => {
  it('renders headings, emphasis, lists and fenced code; the <title> becomes the title', async () => {
    const html = `<!doctype html><html><head><title>
      Getting   started </title><meta charset="utf-8"></head><body>
      <h1>Start</h1><p>Some <b>bold</b> and <em>slanted</em> text.</p>
      <ul><li>one</li><li>two</li></ul>
      <pre><code class="language-js">let a = 1;</code></pre></body></html>`;
    expect(await htmlToMarkdown(html, BASE)).toEqual({
      title: 'Getting started',
      markdown: '# Start\n\nSome **bold** and _slanted_ text.\n\n-   one\n-   two\n\n```js\nlet a = 1;\n```',
    });
  });

  it('drops scripts, styles and other non-content', async () => {
    const html = '<style>p{color:red}</style><script>alert("x")</script><noscript>enable JS</noscript><p>kept</p><template><p>hidden</p></template>';
    expect((await htmlToMarkdown(html, BASE)).markdown).toBe('kept');
  });

  it('makes relative link and image targets absolute against the page URL', async () => {
    const html = `<p><a href="../api/">API</a>, <a href="/x" title="X page">root</a>, <a href="https://other.org/a(b)">other</a>,
      <a href="#top">top</a> <img src="img/logo.png" alt="logo"> <a>no href</a></p>`;
    expect((await htmlToMarkdown(html, BASE)).markdown).toBe(
      '[API](https://docs.example.com/api/), [root](https://docs.example.com/x "X page"), [other](https://other.org/a\\(b\\)), ' +
        '[top](https://docs.example.com/guide/start.html#top) ![logo](https://docs.example.com/guide/img/logo.png) no href',
    );
  });

  it('takes the document title, not an SVG one, and has none when there is none', async () => {
    const withSvg = '<svg><title>icon</title></svg><p>x</p>';
    expect(await htmlToMarkdown(withSvg, BASE)).toEqual({ markdown: 'x', title: undefined });
  });

  it('gives no Markdown for a page with nothing readable (built by scripts)', async () => {
    const html = '<html><head><title>App</title><script src="app.js"></script></head><body><div id="root"></div></body></html>';
    expect(await htmlToMarkdown(html, BASE)).toEqual({ markdown: undefined, title: 'App' });
  });
});
