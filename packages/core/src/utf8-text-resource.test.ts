import { describe, expect, it } from 'vitest';
import { dedupeResources } from './dedupe-resources.ts';
import { rememberResourceDigest, resourceByteLength, resourceBytes, resourceSha256, sha256Hex } from './resource-checksum.ts';
import { isTextResource, resourceToJson, type Resource } from './resource.ts';
import { textResourceFromSource, textResourceFromUtf8, utf8SourceOf, type Utf8Source } from './utf8-text-resource.ts';

const TEXT = '\ufeffnaïve — 日本語 🦀\n';
const utf8 = () => new Uint8Array(Buffer.from(TEXT, 'utf8'));

/** Whether `text` is still the undecoded getter. */
function undecoded(resource: Resource): boolean {
  return Object.getOwnPropertyDescriptor(resource, 'text')?.get !== undefined;
}

describe('textResourceFromUtf8', () => {
  it('reads as an ordinary text resource: property, spread, JSON, schema encode', () => {
    const resource = textResourceFromUtf8({ uri: 'file:///w/a.md', name: 'a.md', mimeType: 'text/markdown' }, utf8());
    expect(Object.keys(resource)).toEqual(['uri', 'name', 'mimeType', 'text']);
    expect({ ...resource }).toEqual({ uri: 'file:///w/a.md', name: 'a.md', mimeType: 'text/markdown', text: TEXT });
    expect(JSON.parse(JSON.stringify(resource))).toEqual({ uri: 'file:///w/a.md', name: 'a.md', mimeType: 'text/markdown', text: TEXT });
    expect(resourceToJson(resource)).toEqual({ uri: 'file:///w/a.md', name: 'a.md', mimeType: 'text/markdown', text: TEXT });
    expect(resource.text).toBe(TEXT);
  });

  it('gives type, size, bytes and sha256 without decoding', () => {
    const bytes = utf8();
    const resource = textResourceFromUtf8({ uri: 'u' }, bytes);
    expect(isTextResource(resource)).toBe(true);
    expect(resourceByteLength(resource)).toBe(bytes.byteLength);
    expect(resourceBytes(resource)).toBe(bytes);
    expect(resourceSha256(resource)).toBe(sha256Hex(Buffer.from(TEXT, 'utf8')));
    // Deduplication, which hashes and sizes every resource of a stream, leaves it undecoded too.
    dedupeResources([{ type: 'turn_start', timestamp: 't' }, { type: 'chat_request', timestamp: 't', content: '', resources: [resource] }], {
      enabled: true,
      minBytes: 1,
    });
    expect(undecoded(resource)).toBe(true);
    expect(utf8SourceOf(resource)?.bytes).toBe(bytes);
  });

  it('decodes once, then holds a string that cannot be replaced', () => {
    const resource = textResourceFromUtf8({ uri: 'u' }, utf8());
    const first = resource.text;
    expect(undecoded(resource)).toBe(false);
    expect(resource.text).toBe(first);
    expect(() => {
      (resource as { text: string }).text = 'other';
    }).toThrow(TypeError);
    expect(resource.text).toBe(TEXT);
    expect(resourceSha256(resource)).toBe(sha256Hex(Buffer.from(TEXT, 'utf8')));
  });

  it('is an ordinary value once copied: the copy has its own text and digest', () => {
    const resource = textResourceFromUtf8({ uri: 'u' }, utf8());
    const copy = { ...resource, description: 'd' };
    expect(utf8SourceOf(copy)).toBeUndefined();
    expect(isTextResource(copy)).toBe(true);
    expect(resourceSha256(copy)).toBe(resourceSha256(resource));
  });

  it('loads stored bytes only when the text or the bytes are asked for, and once', () => {
    let loads = 0;
    const resource = textResourceFromUtf8({ uri: 'u' }, () => {
      loads++;
      return utf8();
    });
    rememberResourceDigest(resource, { sha256: sha256Hex(Buffer.from(TEXT, 'utf8')), byteLength: Buffer.byteLength(TEXT) });
    // Type checks, digests and sizes answer from what the producer recorded.
    expect(isTextResource(resource)).toBe(true);
    expect(resourceSha256(resource)).toBe(sha256Hex(Buffer.from(TEXT, 'utf8')));
    expect(resourceByteLength(resource)).toBe(Buffer.byteLength(TEXT));
    expect(loads).toBe(0);
    expect(resource.text).toBe(TEXT);
    expect(Buffer.from(resourceBytes(resource)).toString('utf8')).toBe(TEXT);
    expect(loads).toBe(1);
  });

  it('hashes loaded bytes when no digest was recorded', () => {
    const resource = textResourceFromUtf8({ uri: 'u' }, () => utf8());
    expect(resourceSha256(resource)).toBe(sha256Hex(Buffer.from(TEXT, 'utf8')));
    expect(undecoded(resource)).toBe(true);
  });

  it('takes a source made by its producer: its digest answers without a load, its load is called as a method, once', () => {
    let loads = 0;
    const bytes = utf8();
    class Spooled implements Utf8Source {
      bytes: Uint8Array | undefined = undefined;
      readonly sha256 = sha256Hex(bytes);
      readonly byteLength = bytes.byteLength;
      load(): Uint8Array {
        loads++;
        return bytes;
      }
    }
    const resource = textResourceFromSource({ uri: 'file:///w/s.md', name: 's.md', mimeType: 'text/markdown' }, new Spooled());
    expect([resourceSha256(resource), resourceByteLength(resource), loads]).toEqual([sha256Hex(bytes), bytes.byteLength, 0]);
    expect(dedupeResources([{ type: 'chat_request', timestamp: 't', content: 'q', resources: [resource] }], { enabled: true, minBytes: 0 })).toHaveLength(1);
    expect(loads).toBe(0);
    expect([resource.text, resource.text, loads]).toEqual([TEXT, TEXT, 1]);
    // Read through an object that only inherits the getter, the text has no source to come from.
    expect(() => (Object.create(textResourceFromSource({ uri: 'file:///w/t.md', name: 't.md', mimeType: 'text/markdown' }, new Spooled())) as { text: string }).text).toThrow(TypeError);
  });
});
