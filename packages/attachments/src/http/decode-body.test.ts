import { describe, expect, it } from 'vitest';
import { decodeBody } from './decode-body.ts';

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);
const ascii = (text: string): number[] => [...Buffer.from(text, 'latin1')];
const utf8 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf8'));

describe('decodeBody', () => {
  it('decodes text with the charset of the header and drops the parameters from the type', () => {
    const latin1 = bytes(...ascii('caf'), 0xe9, 0x0a);
    expect(decodeBody(latin1, 'Text/Plain; charset=ISO-8859-1')).toEqual({ body: { mimeType: 'text/plain', text: 'café\n' }, warnings: [] });
    expect(decodeBody(utf8('café'), 'text/plain; charset=utf-8').body).toEqual({ mimeType: 'text/plain', text: 'café' });
    // Without a charset, text is UTF-8.
    expect(decodeBody(utf8('naïve'), 'text/markdown').body).toEqual({ mimeType: 'text/markdown', text: 'naïve' });
  });

  it('lets a byte-order mark decide the encoding, and removes it', () => {
    expect(decodeBody(bytes(0xef, 0xbb, 0xbf, ...utf8('é')), 'text/plain; charset=iso-8859-1').body).toEqual({ mimeType: 'text/plain', text: 'é' });
    expect(decodeBody(bytes(0xff, 0xfe, 0x68, 0x00, 0xe9, 0x00), 'text/plain').body).toEqual({ mimeType: 'text/plain', text: 'hé' });
    expect(decodeBody(bytes(0xfe, 0xff, 0x00, 0x68, 0x00, 0xe9), 'text/plain; charset=utf-8').body).toEqual({ mimeType: 'text/plain', text: 'hé' });
  });

  it('reads the charset an HTML or XML document declares when the header has none', () => {
    const html = bytes(...ascii('<html><head><meta charset="windows-1252"></head><body>caf'), 0xe9, ...ascii('</body></html>'));
    expect(decodeBody(html, 'text/html')).toMatchObject({ body: { mimeType: 'text/html', text: expect.stringContaining('café') } });
    const equiv = bytes(...ascii('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><p>'), 0xe9);
    expect(decodeBody(equiv, 'text/html')).toMatchObject({ body: { text: expect.stringMatching(/<p>é$/) } });
    const xml = bytes(...ascii('<?xml version="1.0" encoding="ISO-8859-1"?><a>'), 0xe9, ...ascii('</a>'));
    expect(decodeBody(xml, 'application/xml').body).toEqual({ mimeType: 'application/xml', text: '<?xml version="1.0" encoding="ISO-8859-1"?><a>é</a>' });
    // The header wins over the document.
    expect(decodeBody(utf8('<meta charset="iso-8859-1">é'), 'text/html; charset=utf-8').body).toMatchObject({ text: '<meta charset="iso-8859-1">é' });
  });

  it('falls back to UTF-8 with a warning for a charset it cannot decode', () => {
    expect(decodeBody(utf8('hé'), 'text/plain; charset=klingon-8')).toEqual({
      body: { mimeType: 'text/plain', text: 'hé' },
      warnings: ['charset "klingon-8" is not one jp can decode; read as UTF-8'],
    });
  });

  it('shows malformed sequences as U+FFFD, as a browser would', () => {
    expect(decodeBody(bytes(0x61, 0xff, 0x62), 'text/plain').body).toEqual({ mimeType: 'text/plain', text: 'a\uFFFDb' });
  });

  it('treats JSON, XML, JavaScript and +json/+xml types as text, other types as bytes', () => {
    expect(decodeBody(utf8('{"a":1}'), 'application/json').body).toEqual({ mimeType: 'application/json', text: '{"a":1}' });
    expect(decodeBody(utf8('<svg/>'), 'image/svg+xml').body).toEqual({ mimeType: 'image/svg+xml', text: '<svg/>' });
    const png = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00);
    expect(decodeBody(png, 'image/png').body).toEqual({ mimeType: 'image/png', blob: png });
    // Even bytes that happen to be ASCII stay bytes when the type says binary.
    expect(decodeBody(utf8('PK'), 'application/zip').body).toEqual({ mimeType: 'application/zip', blob: utf8('PK') });
    // A charset parameter makes any type text.
    expect(decodeBody(utf8('x=1'), 'application/x-custom; charset=utf-8').body).toEqual({ mimeType: 'application/x-custom', text: 'x=1' });
  });

  it('without a usable Content-Type: UTF-8 is text (HTML when it looks like it), anything else bytes', () => {
    expect(decodeBody(utf8('hello'), null).body).toEqual({ mimeType: 'text/plain', text: 'hello' });
    expect(decodeBody(utf8('<!DOCTYPE html><p>x'), 'not a type').body).toEqual({ mimeType: 'text/html', text: '<!DOCTYPE html><p>x' });
    const binary = bytes(0x00, 0x01, 0xff);
    expect(decodeBody(binary, undefined).body).toEqual({ mimeType: 'application/octet-stream', blob: binary });
  });
});
