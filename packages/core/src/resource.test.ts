import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  LoadedResourceSchema,
  ResourceSchema,
  TextResourceSchema,
  resourceFromJson,
  resourceToJson,
  type LoadedResource,
  type Resource,
  type ResourceJson,
} from './resource.ts';
import { isBlobResource, isRefResource, isTextResource, resourceMetadataJson } from './resource-content.ts';

/** Parse the JSON text, convert to a resource, convert back, stringify. */
function roundTrip(line: string): string {
  return JSON.stringify(resourceToJson(resourceFromJson(JSON.parse(line))));
}

function issuesOf(json: unknown, schema: z.ZodType = LoadedResourceSchema): string[] {
  const result = schema.safeParse(json);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues.map((issue) => `${z.core.toDotPath(issue.path)}: ${issue.message}`);
}

describe('Resource JSON form', () => {
  it('round-trips a text resource byte for byte', () => {
    const line = '{"uri":"file:///project/src/main.rs","mimeType":"text/x-rust","text":"fn main() {}\\n"}';
    const resource = resourceFromJson(JSON.parse(line));
    expect(isTextResource(resource)).toBe(true);
    expect(isBlobResource(resource)).toBe(false);
    expect(resource).toEqual({ uri: 'file:///project/src/main.rs', mimeType: 'text/x-rust', text: 'fn main() {}\n' });
    expect(roundTrip(line)).toBe(line);
  });

  it('decodes a blob to bytes in memory and encodes the same base64 out', () => {
    // A PNG signature plus bytes that exercise every base64 padding case.
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]);
    const base64 = Buffer.from(bytes).toString('base64');
    const line = `{"uri":"file:///project/logo.png","mimeType":"image/png","blob":"${base64}"}`;
    const resource = resourceFromJson(JSON.parse(line));
    expect(isBlobResource(resource)).toBe(true);
    expect(isTextResource(resource)).toBe(false);
    if (!isBlobResource(resource)) throw new Error('expected a blob resource');
    expect(resource.blob).toBeInstanceOf(Uint8Array);
    expect([...resource.blob]).toEqual([...bytes]);
    expect(roundTrip(line)).toBe(line);
  });

  it.each([
    ['no padding', [1, 2, 3]],
    ['one pad', [1, 2]],
    ['two pads', [1]],
    ['empty', []],
  ])('round-trips blob bytes with %s', (_label, values) => {
    const blob = new Uint8Array(values);
    const json = resourceToJson({ uri: 'mem:x', blob });
    expect(json).toEqual({ uri: 'mem:x', blob: Buffer.from(blob).toString('base64') });
    const back = resourceFromJson(JSON.parse(JSON.stringify(json)));
    expect(isBlobResource(back) && [...back.blob]).toEqual(values);
  });

  it('encodes a blob that is a view into a larger buffer using only its own bytes', () => {
    const backing = new Uint8Array([9, 9, 1, 2, 3, 9, 9]);
    const view = backing.subarray(2, 5);
    expect(resourceToJson({ uri: 'mem:view', blob: view })).toEqual({ uri: 'mem:view', blob: 'AQID' });
  });

  it('leaves extension fields out of the JSON when they are absent', () => {
    const json = resourceToJson({ uri: 'mcp://server/doc', mimeType: 'text/plain', text: 'hello' });
    expect(Object.keys(json).sort()).toEqual(['mimeType', 'text', 'uri']);
    expect(JSON.stringify(json)).not.toMatch(/name|title|description|formatted/);
  });

  it('keeps extension fields when present', () => {
    const resource: Resource = {
      uri: 'file:///project/README.md',
      mimeType: 'text/markdown',
      name: 'README.md',
      title: 'Project readme',
      description: 'What the project is',
      formatted: '<doc name="README.md"># jp</doc>',
      text: '# jp\n',
    };
    const line = JSON.stringify(resourceToJson(resource));
    expect(JSON.parse(line)).toEqual(resource);
    expect(resourceFromJson(JSON.parse(line))).toEqual(resource);
    expect(roundTrip(line)).toBe(line);
  });

  it('keeps annotations, including fields MCP may add later', () => {
    const line =
      '{"uri":"demo://resource/1","mimeType":"text/plain","annotations":{"audience":["user","assistant"],"priority":0.5,"lastModified":"2026-03-20T10:00:00Z","future":true},"text":"x"}';
    const resource = resourceFromJson(JSON.parse(line));
    expect(resource.annotations).toEqual({
      audience: ['user', 'assistant'],
      priority: 0.5,
      lastModified: '2026-03-20T10:00:00Z',
      future: true,
    });
    expect(roundTrip(line)).toBe(line);
  });

  it('keeps MCP _meta', () => {
    const line = '{"uri":"demo://resource/1","_meta":{"server":"everything"},"text":"x"}';
    expect(resourceFromJson(JSON.parse(line))._meta).toEqual({ server: 'everything' });
    expect(roundTrip(line)).toBe(line);
  });

  it('accepts empty text as text content', () => {
    const resource = resourceFromJson({ uri: 'file:///project/empty.txt', text: '' });
    expect(isTextResource(resource) && resource.text).toBe('');
  });
});

describe('Resource validation', () => {
  it('rejects a resource with neither text nor blob', () => {
    expect(issuesOf({ uri: 'file:///x' })).toEqual([': a resource needs "text" (a string) or "blob" (base64)']);
  });

  it('rejects a resource with both text and blob instead of dropping one', () => {
    expect(issuesOf({ uri: 'file:///x', text: 'hello', blob: 'aGVsbG8=' })).toEqual([
      ': a resource has one of "text" (a string) or "blob" (base64), not "text" and "blob"',
    ]);
    // Key order must not matter either.
    expect(LoadedResourceSchema.safeParse({ blob: 'aGVsbG8=', uri: 'file:///x', text: 'hello' }).success).toBe(false);
  });

  it('rejects invalid base64 and says where', () => {
    expect(issuesOf({ uri: 'file:///x', blob: 'not base64!' })).toEqual(['blob: Invalid base64-encoded string']);
    // Unpadded and URL-safe alphabets are not the canonical form jp stores.
    expect(LoadedResourceSchema.safeParse({ uri: 'file:///x', blob: 'AQI' }).success).toBe(false);
    expect(LoadedResourceSchema.safeParse({ uri: 'file:///x', blob: '-_8=' }).success).toBe(false);
  });

  it('rejects an empty or missing uri', () => {
    expect(issuesOf({ uri: '', text: 'x' })[0]).toMatch(/^uri: /);
    expect(LoadedResourceSchema.safeParse({ text: 'x' }).success).toBe(false);
  });

  it('rejects wrong types for text, mimeType and annotations', () => {
    expect(issuesOf({ uri: 'u', text: 42 })).toEqual([': text: Invalid input: expected string, received number']);
    expect(issuesOf({ uri: 'u', blob: 42 })).toEqual([': blob: Invalid input: expected string, received number']);
    expect(LoadedResourceSchema.safeParse({ uri: 'u', text: 42 }).success).toBe(false);
    expect(LoadedResourceSchema.safeParse({ uri: 'u', text: 'x', mimeType: 7 }).success).toBe(false);
    expect(LoadedResourceSchema.safeParse({ uri: 'u', text: 'x', annotations: { priority: 2 } }).success).toBe(false);
    expect(LoadedResourceSchema.safeParse({ uri: 'u', text: 'x', annotations: { audience: ['robot'] } }).success).toBe(false);
  });

  it('takes a content reference only where stored content is expected, never from outside data', () => {
    const ref = { sha256: 'a'.repeat(64), size: 3, encoding: 'text' };
    expect(issuesOf({ uri: 'u', ref })).toEqual([': a resource needs "text" (a string) or "blob" (base64)']);
    expect(() => resourceFromJson({ uri: 'u', ref })).toThrow(z.ZodError);
    const parsed = ResourceSchema.parse({ uri: 'u', ref });
    expect(isRefResource(parsed) && parsed.ref).toEqual(ref);
    expect(issuesOf({ uri: 'u', text: 'x', ref }, ResourceSchema)).toEqual([
      ': a resource has one of "text" (a string), "blob" (base64) or "ref" (stored content), not "text" and "ref"',
    ]);
    expect(issuesOf({ uri: 'u', ref: { ...ref, sha256: 'ABC' } }, ResourceSchema)).toEqual(['ref.sha256: a sha256 in lowercase hex']);
  });

  it('throws from resourceFromJson on malformed input', () => {
    expect(() => resourceFromJson({ uri: 'u' })).toThrow(z.ZodError);
    expect(() => resourceFromJson('file:///x')).toThrow(z.ZodError);
  });

  it('refuses to encode an in-memory resource whose blob is not bytes', () => {
    const bogus = { uri: 'u', blob: 'AQID' } as unknown as LoadedResource;
    expect(() => resourceToJson(bogus)).toThrow();
  });

  it('types the JSON form with base64 and the memory form with bytes', () => {
    const json: ResourceJson = { uri: 'u', blob: 'AQID' };
    const memory: LoadedResource = resourceFromJson(json);
    expect(isBlobResource(memory) && memory.blob).toEqual(new Uint8Array([1, 2, 3]));
  });
});

describe('Resource blob type', () => {
  it('accepts any Uint8Array view, including Buffers and shared memory', () => {
    const shared = new Uint8Array(new SharedArrayBuffer(3));
    shared.set([1, 2, 3]);
    // Typed assignments: these fail to compile if `blob` is narrowed to Uint8Array<ArrayBuffer>.
    const fromShared: LoadedResource = { uri: 'mem:shared', blob: shared };
    const buffer: Buffer = Buffer.from([1, 2, 3]);
    const fromBuffer: LoadedResource = { uri: 'mem:buffer', blob: buffer };
    expect(resourceToJson(fromShared)).toEqual({ uri: 'mem:shared', blob: 'AQID' });
    expect(resourceToJson(fromBuffer)).toEqual({ uri: 'mem:buffer', blob: 'AQID' });
  });
});

describe('resourceMetadataJson', () => {
  const full = {
    uri: 'https://example.com/a',
    mimeType: 'text/html',
    annotations: { audience: ['assistant'], priority: 0.5, lastModified: '2026-01-02T03:04:05.000Z', vendorHint: 1 },
    _meta: { 'computer.jp/x': true },
    name: 'a',
    title: 'A page',
    description: 'truncated: …',
    formatted: '# A',
  };

  it.each([
    ['every field, text', { ...full, text: '<h1>A</h1>' }],
    ['every field, blob', { ...full, blob: 'AAEC' }],
    ['only a uri', { uri: 'file:///w/a.txt', text: '' }],
  ])('equals the schema encode minus content and formatted: %s', (_label, json) => {
    const resource = resourceFromJson(json);
    const { text: _text, blob: _blob, formatted: _formatted, ...expected } = resourceToJson(resource) as Record<string, unknown>;
    expect(resourceMetadataJson(resource)).toEqual(expected);
    // Same keys in the same order: the stored line is the same bytes either way.
    expect(JSON.stringify(resourceMetadataJson(resource))).toBe(JSON.stringify(expected));
  });

  it('is tried above with every field the schema has, so its list of fields cannot fall behind it', () => {
    const schemaFields = Object.keys(TextResourceSchema.shape).filter((key) => key !== 'text' && key !== 'blob' && key !== 'ref');
    expect(Object.keys(full)).toEqual(schemaFields);
  });

  it('leaves out fields that are not in the schema', () => {
    const resource = { uri: 'u', text: 'x', extra: 'not a resource field' } as Resource;
    expect(resourceMetadataJson(resource)).toEqual({ uri: 'u' });
  });
});
