import { describe, expect, it } from 'vitest';
import type { ContentBlock } from '@jp/core';
import { canonicalFileUri, withCanonicalFileUris } from './canonical-file-uri.ts';

describe('canonicalFileUri', () => {
  it('resolves relative, dotted and differently spelled file URIs against the workspace', () => {
    expect(canonicalFileUri('file:src/../src/a.rs', '/w')).toBe('file:///w/src/a.rs');
    expect(canonicalFileUri('file:///w/./b.txt', '/w')).toBe('file:///w/b.txt');
    expect(canonicalFileUri('FILE:///w/b.txt', '/w')).toBe('file:///w/b.txt');
    expect(canonicalFileUri('file://localhost/w/b.txt', '/w')).toBe('file:///w/b.txt');
    expect(canonicalFileUri(' file:///w/b.txt\n', '/w')).toBe('file:///w/b.txt');
    expect(canonicalFileUri('file:///w/..b.txt', '/w')).toBe('file:///w/..b.txt');
    expect(canonicalFileUri('https://x.test/a', '/w')).toBe('https://x.test/a');
  });

  // Each of these names a file outside /w; none may come back as a URI to store.
  it.each([
    'file:../etc/passwd',
    'file:///etc/passwd',
    'FILE:///etc/passwd',
    'File:///etc/passwd',
    ' file:///etc/passwd',
    'fi\nle:///etc/passwd',
    'file:///w/../etc/passwd',
    'file:///w/%2e%2e/etc/passwd',
    'file:///w/%2E%2E/etc/passwd',
    'file:///w/.%2e/etc/passwd',
    'file://localhost/etc/passwd',
    'file:\\\\localhost\\etc\\passwd',
    'file:%2Fetc%2Fpasswd',
    'file:/etc/passwd',
    'file:///w2/x',
    'file:///',
    'file://evil.test/w/x',
    'file:%zz',
  ])('refuses %j', (uri) => {
    expect(() => canonicalFileUri(uri, '/w')).toThrow();
  });
});

describe('withCanonicalFileUris', () => {
  it('keeps other blocks, canonicalises workspace files and leaves out the outside with a warning', () => {
    const content: ContentBlock[] = [
      { type: 'text', text: 'before' },
      { type: 'resource', resource: { uri: 'file:///w/a/../b.txt', text: 'in' } },
      { type: 'resource', resource: { uri: 'file:///etc/passwd', text: 'out' } },
      { type: 'resource', resource: { uri: 'fixture://env', text: 'mcp' } },
    ];
    const { content: kept, warnings } = withCanonicalFileUris(content, '/w');
    expect(kept).toEqual([
      { type: 'text', text: 'before' },
      { type: 'resource', resource: { uri: 'file:///w/b.txt', text: 'in' } },
      { type: 'resource', resource: { uri: 'fixture://env', text: 'mcp' } },
    ]);
    expect(warnings).toEqual(['content block 2 (resource) was skipped: file:///etc/passwd is outside the workspace']);
  });
});
