import { describe, expect, it } from 'vitest';
import { escapeHtml } from './escape-html.ts';

describe('escapeHtml', () => {
  it('turns markup characters into entities', () => {
    expect(escapeHtml(`<script>alert("x" & 'y')</script>`)).toBe('&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;');
  });

  it('drops control characters but keeps tabs and newlines', () => {
    expect(escapeHtml('a\u001b[31mb\u0000c\td\ne\u007f')).toBe('a[31mbc\td\ne');
  });
});
