import { describe, expect, it } from 'vitest';
import { blobResource } from '../__fixtures__/conversation.ts';
import { blobAsText } from './blob-as-text.ts';

const blob = (mimeType: string, bytes: Uint8Array | string) => blobResource('file:///w/x', mimeType, bytes, { name: 'x', title: 'X' });

describe('blobAsText', () => {
  it('reads the blob of a textual MIME type (core’s list) as a text resource, keeping its metadata', () => {
    for (const mimeType of ['text/plain; charset=utf-8', 'application/json', 'application/ld+json', 'application/x-yaml', 'application/vnd.x+yaml']) {
      expect(blobAsText(blob(mimeType, '{"a": "ü"}')), mimeType).toEqual({ uri: 'file:///w/x', mimeType, name: 'x', title: 'X', text: '{"a": "ü"}' });
    }
  });

  it('leaves other types, and bytes that are not UTF-8, to the caller', () => {
    expect(blobAsText(blob('image/png', 'abc'))).toBeUndefined();
    expect(blobAsText(blob('application/octet-stream', 'abc'))).toBeUndefined();
    expect(blobAsText(blob('application/json', new Uint8Array([0x7b, 0xff, 0x7d])))).toBeUndefined();
  });
});
