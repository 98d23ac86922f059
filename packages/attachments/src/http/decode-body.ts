import { TextDecoder } from 'node:util';
import { decodeText } from '../file/utf8-text.ts';
import { isTextualMimeType } from '@jp/core';
import { parseContentType } from './parse-content-type.ts';

/** A response body as a resource holds it: decoded text, or the bytes. */
export type DecodedBody = { mimeType: string; text: string } | { mimeType: string; blob: Uint8Array };

export interface DecodeResult {
  body: DecodedBody;
  /** Things the user should know (an unknown charset), without the URL; the caller prefixes it. */
  warnings: string[];
}

export function isHtmlMimeType(essence: string): boolean {
  return essence === 'text/html' || essence === 'application/xhtml+xml';
}

/** The encoding a byte-order mark announces; it wins over any declared charset (WHATWG "decode"). */
function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

const HTML_META_CHARSET = /<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i;
const XML_DECLARED_ENCODING = /^<\?xml\s[^>]*?encoding\s*=\s*["']([\w.:-]+)["']/;

/**
 * The charset a document declares in itself when the header does not: `<meta charset>` (or the
 * `http-equiv` form) in the first 1024 bytes of HTML, the `encoding` of an XML declaration.
 */
function declaredInDocument(bytes: Uint8Array, essence: string): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  if (isHtmlMimeType(essence)) return HTML_META_CHARSET.exec(head)?.[1];
  if (essence.endsWith('xml')) return XML_DECLARED_ENCODING.exec(head)?.[1];
  return undefined;
}

/** A decoder for a WHATWG encoding label, or `undefined` when Node does not know the label. */
function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label);
  } catch {
    return undefined;
  }
}

/**
 * Turns a response body into text or bytes. Text when the type is textual or the header names a
 * charset; the encoding is the byte-order mark's, else the header's charset, else one declared in
 * the document, else UTF-8. A BOM is removed; malformed sequences become U+FFFD, as a browser
 * shows them. A charset Node cannot decode falls back to UTF-8 with a warning. Without a usable
 * `Content-Type`, UTF-8 text without NUL bytes is `text/plain` (or `text/html` when it starts like
 * HTML) and anything else an `application/octet-stream` blob.
 */
export function decodeBody(bytes: Uint8Array, contentTypeHeader: string | null | undefined): DecodeResult {
  const contentType = parseContentType(contentTypeHeader);
  if (contentType === undefined) {
    const text = decodeText(bytes);
    if (text === undefined) return { body: { mimeType: 'application/octet-stream', blob: bytes }, warnings: [] };
    const mimeType = /^\s*<(?:!doctype\s+html|html)[\s>]/i.test(text) ? 'text/html' : 'text/plain';
    return { body: { mimeType, text }, warnings: [] };
  }
  const { essence, charset } = contentType;
  if (!isTextualMimeType(essence) && charset === undefined) return { body: { mimeType: essence, blob: bytes }, warnings: [] };

  const warnings: string[] = [];
  const label = bomEncoding(bytes) ?? charset ?? declaredInDocument(bytes, essence) ?? 'utf-8';
  let decoder = decoderFor(label);
  if (decoder === undefined) {
    warnings.push(`charset "${label}" is not one jp can decode; read as UTF-8`);
    decoder = new TextDecoder('utf-8');
  }
  return { body: { mimeType: essence, text: decoder.decode(bytes) }, warnings };
}
