import { describe, expect, it } from 'vitest';
import { cdata, escapeXmlAttribute, resourceToXml } from './resource-xml.ts';

describe('resources as XML', () => {
  it('puts identity in attributes and content in CDATA', () => {
    expect(resourceToXml({ uri: 'file:///w/a.rs', name: 'a.rs', mimeType: 'text/x-rust', text: 'fn main() {}' })).toBe(
      '<resource uri="file:///w/a.rs" name="a.rs" mimeType="text/x-rust"><![CDATA[fn main() {}]]></resource>',
    );
  });

  it('escapes attributes', () => {
    expect(escapeXmlAttribute(`a&b<c>"d'`)).toBe(`a&amp;b&lt;c&gt;&quot;d'`);
    expect(resourceToXml({ uri: 'https://x.test/?a=1&b="2"', text: '' })).toBe(
      '<resource uri="https://x.test/?a=1&amp;b=&quot;2&quot;"><![CDATA[]]></resource>',
    );
  });

  it('keeps text containing ]]> intact across split CDATA sections', () => {
    const text = 'before ]]> after ]]]]> end';
    const xml = cdata(text);
    const joined = [...xml.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)].map((m) => m[1]).join('');
    expect(joined).toBe(text);
    expect(xml.startsWith('<![CDATA[')).toBe(true);
  });

  it('uses formatted when present', () => {
    expect(resourceToXml({ uri: 'u', text: 'raw', formatted: 'pretty' })).toBe('<resource uri="u"><![CDATA[pretty]]></resource>');
  });
});
