import { describe, expect, it } from 'vitest';
import { snapshotContents } from './snapshot-contents.ts';

const sha = 'a'.repeat(64);

describe('snapshotContents', () => {
  it('gives text as text with the original MIME type, URI and turn', () => {
    const bytes = new TextEncoder().encode('héllo\n');
    const contents = snapshotContents('jp://conversation/c/resource/x', { resource: { uri: 'file:///w/a.txt', mimeType: 'text/plain', ref: { sha256: sha, size: bytes.length, encoding: 'text' } }, turn: 2, bytes }, 'file:a.txt');
    expect(contents).toEqual({ uri: 'jp://conversation/c/resource/x', mimeType: 'text/plain', text: 'héllo\n', _meta: { 'computer.jp/originalUri': 'file:a.txt', 'computer.jp/turn': 2 } });
  });

  it('gives binary as a base64 blob, byte for byte', () => {
    const bytes = new Uint8Array([0, 255, 1, 128]);
    const contents = snapshotContents('u', { resource: { uri: 'external:e/b.bin', ref: { sha256: sha, size: 4, encoding: 'binary' } }, turn: 0, bytes }, 'external:e/b.bin');
    expect(contents).not.toHaveProperty('mimeType');
    expect(Buffer.from((contents as { blob: string }).blob, 'base64')).toEqual(Buffer.from(bytes));
  });
});
