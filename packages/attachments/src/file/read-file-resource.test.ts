import { hash } from 'node:crypto';
import fs from 'node:fs/promises';
import { AttachmentError, fenceLanguage, isBlobResource, isTextResource, loadedResource, loadSchemas, resourceBytes } from '@jp/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttachmentLimits } from '../handler.ts';
import { tempWorkspace, type TempWorkspace } from '../test-support/temp-workspace.ts';
import { createFileHandler } from './file-handler.ts';

const { resourceFromJson, resourceToJson } = await loadSchemas();

const handler = createFileHandler();
let ws: TempWorkspace;

beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

async function resolveOne(relative: string, limits: Partial<AttachmentLimits> = {}) {
  const [resource, ...rest] = await handler.resolve([relative], ws.ctx({ limits }));
  expect(rest).toEqual([]);
  if (resource === undefined) throw new Error('no resource');
  // One file is read into the resource: never a reference to content stored apart.
  return loadedResource(resource);
}

// The first 8 bytes of every PNG file, then an IHDR chunk start.
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

describe('MIME types', () => {
  it.each([
    ['src/main.rs', 'text/x-rust', 'rust', 'fn main() {}\n'],
    ['src/app.ts', 'text/x-typescript', 'typescript', 'export const x = 1;\n'],
    ['README.md', 'text/markdown', 'markdown', '# Title\n'],
    ['package.json', 'application/json', 'json', '{"a":1}\n'],
    ['tool.py', 'text/x-python', 'python', 'print(1)\n'],
    ['lib.cpp', 'text/x-cpp', 'cpp', 'int main() {}\n'],
    ['Prog.cs', 'text/x-csharp', 'csharp', 'class A {}\n'],
    ['view.jsx', 'text/x-javascript', 'javascript', 'const a = <b/>;\n'],
    ['run.sh', 'application/x-sh', 'sh', 'echo hi\n'],
    ['Makefile', 'text/x-makefile', 'makefile', 'all:\n'],
    ['notes.txt', 'text/plain', '', 'plain\n'],
    ['data.unknownext', 'text/plain', '', 'some text\n'],
  ])('%s is a text resource of type %s (fence "%s")', async (name, mimeType, fence, content) => {
    await ws.write(name, content);
    const resource = await resolveOne(name);
    expect(isTextResource(resource) && resource.text).toBe(content);
    expect(resource.mimeType).toBe(mimeType);
    expect(fenceLanguage(resource.mimeType)).toBe(fence);
  });

  it('gives binary content a blob with the exact bytes and the registered type', async () => {
    await ws.write('logo.png', PNG);
    const resource = await resolveOne('logo.png');
    expect(isBlobResource(resource)).toBe(true);
    expect(resource.mimeType).toBe('image/png');
    expect(isBlobResource(resource) && [...resource.blob]).toEqual([...PNG]);
    // The blob survives the JSON (base64) round trip.
    expect(resourceFromJson(JSON.parse(JSON.stringify(resourceToJson(resource))))).toEqual(resource);
  });

  it('keeps a binary format a blob of its type even when its bytes are ASCII', async () => {
    const pdf = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n';
    await ws.write('hand-made.pdf', pdf);
    await ws.write('icon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
    await ws.write('ascii.png', 'not really a png');
    expect(await resolveOne('hand-made.pdf')).toMatchObject({ mimeType: 'application/pdf', blob: new TextEncoder().encode(pdf) });
    expect(await resolveOne('ascii.png')).toMatchObject({ mimeType: 'image/png' });
    expect(await resolveOne('icon.svg')).toMatchObject({ mimeType: 'text/x-svg', text: '<svg xmlns="http://www.w3.org/2000/svg"/>\n' });
  });

  it('treats NUL bytes or invalid UTF-8 as binary, whatever the extension', async () => {
    await ws.write('nul.ts', new Uint8Array([0x61, 0x00, 0x62]));
    await ws.write('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    await ws.write('noext', new Uint8Array([0xff, 0xfe, 0x00]));
    expect(await resolveOne('nul.ts')).toMatchObject({ mimeType: 'video/mp2t', blob: new Uint8Array([0x61, 0x00, 0x62]) });
    expect(await resolveOne('latin1.txt')).toMatchObject({ mimeType: 'text/plain', blob: new Uint8Array([0x63, 0x61, 0x66, 0xe9]) });
    expect(await resolveOne('noext')).toMatchObject({ mimeType: 'application/octet-stream' });
  });

  it('keeps a byte-order mark, so the text is exactly the file and hashes as it does', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
    await ws.write('bom.txt', bytes);
    const resource = await resolveOne('bom.txt');
    expect(isTextResource(resource) && resource.text).toBe('\ufeffhi');
    expect(hash('sha256', resourceBytes(resource), 'hex')).toBe(hash('sha256', bytes, 'hex'));
  });

  it('reads an empty file as empty text', async () => {
    await ws.write('empty.rs', '');
    expect(await resolveOne('empty.rs')).toMatchObject({ text: '', mimeType: 'text/x-rust' });
  });
});

describe('content', () => {
  it('is the bytes read, whole, truncated on a UTF-8 boundary, or truncated binary', async () => {
    const text = '\ufeffabcdé€wxyz日本';
    await ws.write('multi.txt', text);
    await ws.write('logo.png', PNG);
    const whole = await resolveOne('multi.txt', { sizePolicy: 'allow' });
    const cut = await resolveOne('multi.txt', { maxResourceBytes: 10, sizePolicy: 'truncate' }); // inside '€'
    const binary = await resolveOne('logo.png', { maxResourceBytes: 5, sizePolicy: 'truncate' });
    const encoded = new TextEncoder().encode(text);
    expect(resourceBytes(whole)).toEqual(encoded);
    expect(resourceBytes(cut)).toEqual(encoded.subarray(0, 9)); // BOM 3 + abcd 4 + é 2
    expect(resourceBytes(binary)).toEqual(PNG.subarray(0, 5));
  });
});

describe('size policy', () => {
  // 'é' and '€' are 2 and 3 bytes in UTF-8: 4 + 2 + 3 + 4 = 13 bytes.
  const content = 'abcdé€wxyz';

  it('rejects a file over the limit, naming the size, the limit and the setting', async () => {
    await ws.write('big.txt', content);
    const error = await handler.resolve(['big.txt'], ws.ctx({ limits: { maxResourceBytes: 8, sizePolicy: 'reject' } })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AttachmentError);
    expect((error as AttachmentError).message).toBe(
      'big.txt is 13 bytes, over the limit of 8 bytes; set conversation.attachment.size_policy to "truncate" or "allow" to attach it anyway',
    );
  });

  it('names the file and its directory when a directory holds the large file', async () => {
    await ws.write('d/big.txt', content);
    const error = await handler.resolve(['d/'], ws.ctx({ limits: { maxResourceBytes: 8 } })).catch((caught: unknown) => caught);
    expect((error as AttachmentError).message).toMatch(/^d\/big\.txt \(from d\/\) is 13 bytes, over the limit of 8 bytes/);
    expect((error as AttachmentError).attachment).toBe('d/');
  });

  it('truncates on a UTF-8 boundary, says so in the description and appends nothing', async () => {
    await ws.write('big.txt', content);
    // 8 bytes would cut '€' (bytes 6..8) in two: the 6 bytes before it are kept.
    const resource = await resolveOne('big.txt', { maxResourceBytes: 8, sizePolicy: 'truncate' });
    expect(isTextResource(resource) && resource.text).toBe('abcdé');
    expect(resource.description).toBe('truncated: the first 6 of 13 bytes (conversation.attachment.size_policy is "truncate", limit 8 bytes)');
    const exact = await resolveOne('big.txt', { maxResourceBytes: 9, sizePolicy: 'truncate' });
    expect(isTextResource(exact) && exact.text).toBe('abcdé€');
  });

  it('truncates binary content to exactly the limit', async () => {
    await ws.write('logo.png', PNG);
    const resource = await resolveOne('logo.png', { maxResourceBytes: 5, sizePolicy: 'truncate' });
    expect(isBlobResource(resource) && [...resource.blob]).toEqual([...PNG.slice(0, 5)]);
    expect(resource.description).toMatch(/^truncated: the first 5 of 16 bytes/);
  });

  it('allows the whole file, and leaves files within the limit alone under every policy', async () => {
    await ws.write('big.txt', content);
    const allowed = await resolveOne('big.txt', { maxResourceBytes: 8, sizePolicy: 'allow' });
    expect(isTextResource(allowed) && allowed.text).toBe(content);
    expect(allowed.description).toBeUndefined();
    for (const sizePolicy of ['reject', 'truncate', 'allow'] as const) {
      const within = await resolveOne('big.txt', { maxResourceBytes: 13, sizePolicy });
      expect(isTextResource(within) && within.text).toBe(content);
      expect(within.description).toBeUndefined();
    }
  });

  it('checks the size before reading, so a sparse huge file is rejected at once', async () => {
    const file = await ws.write('huge.bin', '');
    await fs.truncate(file, 8 * 1024 * 1024 * 1024); // 8 GiB of holes: reading it would take ages
    const error = await handler.resolve(['huge.bin'], ws.ctx()).catch((caught: unknown) => caught);
    expect((error as AttachmentError).message).toMatch(/^huge\.bin is 8589934592 bytes, over the limit of 524288 bytes/);
  });

  it('asks on a terminal under "ask" and applies the answer', async () => {
    await ws.write('big.txt', content);
    const asked: Array<[string, number, number]> = [];
    const ctxAnswering = (answer: 'allow' | 'truncate' | 'reject') => ({
      ...ws.ctx({ limits: { maxResourceBytes: 8, sizePolicy: 'ask' } }),
      askOversize: async (name: string, bytes: number, limit: number) => {
        asked.push([name, bytes, limit]);
        return answer;
      },
    });
    const [allowed] = await handler.resolve(['big.txt'], ctxAnswering('allow'));
    expect(allowed).toMatchObject({ text: content });
    expect(allowed?.description).toBeUndefined();
    const [truncated] = await handler.resolve(['big.txt'], ctxAnswering('truncate'));
    expect(truncated).toMatchObject({ text: 'abcdé', description: 'truncated: the first 6 of 13 bytes (truncation chosen at the prompt, limit 8 bytes)' });
    const error = await handler.resolve(['big.txt'], ctxAnswering('reject')).catch((caught: unknown) => caught);
    expect((error as AttachmentError).message).toBe('big.txt is 13 bytes, over the limit of 8 bytes; not attached, as answered at the prompt');
    expect(asked).toEqual([
      ['big.txt', 13, 8],
      ['big.txt', 13, 8],
      ['big.txt', 13, 8],
    ]);
    // Within the limit nobody is asked.
    await handler.resolve(['big.txt'], { ...ctxAnswering('reject'), limits: { ...ws.ctx().limits, maxResourceBytes: 13, sizePolicy: 'ask' } });
    expect(asked).toHaveLength(3);
  });

  it('rejects under "ask" without a terminal, naming the size, the limit and the setting', async () => {
    await ws.write('d/big.txt', content);
    const error = await handler.resolve(['d/'], ws.ctx({ limits: { maxResourceBytes: 8, sizePolicy: 'ask' } })).catch((caught: unknown) => caught);
    expect((error as AttachmentError).message).toBe(
      'd/big.txt (from d/) is 13 bytes, over the limit of 8 bytes; set conversation.attachment.size_policy to "truncate" or "allow" to attach it anyway',
    );
  });

  it('refuses more than 256 MiB even under "allow", at once', async () => {
    const file = await ws.write('sparse.bin', '');
    await fs.truncate(file, 300 * 1024 * 1024);
    const error = await handler.resolve(['sparse.bin'], ws.ctx({ limits: { sizePolicy: 'allow' } })).catch((caught: unknown) => caught);
    expect((error as AttachmentError).message).toBe(
      'sparse.bin is 314572800 bytes, more than jp can hold in one resource (268435456 bytes) even with conversation.attachment.size_policy "allow"; set it to "truncate" to attach the beginning',
    );
    const [head] = await handler.resolve(['sparse.bin'], ws.ctx({ limits: { sizePolicy: 'truncate', maxResourceBytes: 4 } }));
    expect(head).toMatchObject({ blob: new Uint8Array(4) });
  });
});

