import { describe, expect, it } from 'vitest';
import { rememberResourceDigest, resourceByteLength, resourceBytes, resourceSha256, sha256Hex } from './resource-checksum.ts';
import type { Resource } from './resource.ts';

const SHA256_ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
const SHA256_EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('resourceSha256', () => {
  it('hashes the UTF-8 bytes of text (FIPS 180-2 vector "abc")', () => {
    expect(resourceSha256({ uri: 'mem:abc', text: 'abc' })).toBe(SHA256_ABC);
  });

  it('hashes blob bytes', () => {
    const blob = new Uint8Array([0x61, 0x62, 0x63]);
    expect(resourceSha256({ uri: 'mem:abc', blob })).toBe(SHA256_ABC);
    expect(resourceSha256({ uri: 'mem:empty', blob: new Uint8Array() })).toBe(SHA256_EMPTY);
  });

  it('hashes only the blob view, not the buffer behind it', () => {
    const backing = new Uint8Array([0x00, 0x61, 0x62, 0x63, 0x00]);
    expect(resourceSha256({ uri: 'mem:view', blob: backing.subarray(1, 4) })).toBe(SHA256_ABC);
  });

  it('never hashes formatted or metadata', () => {
    const plain: Resource = { uri: 'file:///a', text: 'abc' };
    const dressed: Resource = {
      uri: 'file:///b',
      mimeType: 'text/plain',
      name: 'b',
      title: 'B',
      description: 'the letter b',
      formatted: '<file name="b">abc</file>',
      annotations: { priority: 1 },
      text: 'abc',
    };
    expect(resourceSha256(dressed)).toBe(SHA256_ABC);
    expect(resourceSha256(dressed)).toBe(resourceSha256(plain));
  });

  it('distinguishes content that differs only in encoding-sensitive ways', () => {
    // "é" precomposed (U+00E9) and decomposed (e + U+0301) are different bytes, so different hashes.
    expect(resourceSha256({ uri: 'u', text: '\u00e9' })).not.toBe(resourceSha256({ uri: 'u', text: 'e\u0301' }));
    expect(resourceSha256({ uri: 'u', text: '\u00e9' })).toBe(sha256Hex(Buffer.from([0xc3, 0xa9])));
  });

  it('gives text and a blob of its UTF-8 bytes the same checksum', () => {
    const text = 'naïve — 日本語 🦀';
    expect(resourceSha256({ uri: 'u', text })).toBe(resourceSha256({ uri: 'u', blob: new TextEncoder().encode(text) }));
  });
});

describe('resourceBytes and resourceByteLength', () => {
  it('counts UTF-8 bytes, not UTF-16 code units', () => {
    const text = 'é日🦀'; // 2 + 3 + 4 bytes; 1 + 1 + 2 code units
    expect(text.length).toBe(4);
    expect(resourceByteLength({ uri: 'u', text })).toBe(9);
    expect([...resourceBytes({ uri: 'u', text })]).toEqual([0xc3, 0xa9, 0xe6, 0x97, 0xa5, 0xf0, 0x9f, 0xa6, 0x80]);
  });

  it('counts blob bytes and returns the blob itself', () => {
    const blob = new Uint8Array([1, 2, 3, 4, 5]);
    expect(resourceByteLength({ uri: 'u', blob })).toBe(5);
    expect(resourceBytes({ uri: 'u', blob })).toBe(blob);
  });

  it('ignores formatted in the byte length', () => {
    expect(resourceByteLength({ uri: 'u', text: 'abc', formatted: 'a much longer presentation' })).toBe(3);
  });
});

describe('sha256Hex', () => {
  it('hashes strings as UTF-8 and bytes as given', () => {
    expect(sha256Hex('abc')).toBe(SHA256_ABC);
    expect(sha256Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe(SHA256_ABC);
    expect(sha256Hex('')).toBe(SHA256_EMPTY);
  });
});

describe('rememberResourceDigest', () => {
  it('is used instead of hashing again, for that object and content only', () => {
    // A digest that is not the content's: proves the remembered one is what later stages see.
    const standIn = 'f'.repeat(64);
    const resource: Resource = { uri: 'u', text: 'abc' };
    rememberResourceDigest(resource, { sha256: standIn, byteLength: 42 });
    expect(resourceSha256(resource)).toBe(standIn);
    expect(resourceByteLength(resource)).toBe(42);
    // A copy is another value: hashed from its content.
    expect(resourceSha256({ ...resource })).toBe(SHA256_ABC);
  });

  it('is dropped once the object holds other content', () => {
    const resource = { uri: 'u', text: 'abc' } as { uri: string; text: string };
    rememberResourceDigest(resource, { sha256: 'f'.repeat(64), byteLength: 3 });
    resource.text = '';
    expect(resourceSha256(resource)).toBe(SHA256_EMPTY);
    expect(resourceByteLength(resource)).toBe(0);
  });

  it('hashes a resource once however often it is asked', () => {
    const resource: Resource = { uri: 'u', blob: new Uint8Array([0x61, 0x62, 0x63]) };
    expect(resourceSha256(resource)).toBe(SHA256_ABC);
    // Changing the bytes in place is not seen (resources are values): the first digest stands.
    resource.blob[0] = 0x7a;
    expect(resourceSha256(resource)).toBe(SHA256_ABC);
  });
});
