import { describe, expect, it } from 'vitest';
import { parseToolOutput } from './parse-tool-output.ts';

describe('parseToolOutput (RFD 058)', () => {
  it('plain text is one text block, verbatim', () => {
    expect(parseToolOutput('Check succeeded.\n')).toEqual({ content: [{ type: 'text', text: 'Check succeeded.\n' }], isError: false, warnings: [], raw: true });
  });

  it('JSON without a content array is raw text too', () => {
    const stdout = '{"result": 42}';
    expect(parseToolOutput(stdout)).toMatchObject({ content: [{ type: 'text', text: stdout }], raw: true });
    expect(parseToolOutput('{not json').raw).toBe(true);
  });

  it('typed output keeps text, resource and question blocks in order', () => {
    const stdout = JSON.stringify({
      content: [
        { type: 'text', text: 'here' },
        { type: 'resource', resource: { uri: 'file:///w/a.rs', mimeType: 'text/x-rust', text: 'fn a() {}' }, formatted: '```rust\nfn a() {}\n```' },
        { type: 'resource', resource: { uri: 'file:///w/logo.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=' } },
        { type: 'question', question: { id: 'go', text: 'Continue?', schema: { type: 'boolean' }, default: true } },
      ],
    });
    const parsed = parseToolOutput(stdout);
    expect(parsed.raw).toBe(false);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.content.map((block) => block.type)).toEqual(['text', 'resource', 'resource', 'question']);
    const png = parsed.content[2]!;
    expect(png.type === 'resource' && 'blob' in png.resource ? Buffer.from(png.resource.blob as Uint8Array).toString('base64') : undefined).toBe('iVBORw0KGgo=');
  });

  it('keeps the annotations of a text block', () => {
    const annotations = { audience: ['assistant'], priority: 0.2, lastModified: '2026-05-06T07:08:09Z' };
    const parsed = parseToolOutput(JSON.stringify({ content: [{ type: 'text', text: 'hint', annotations }] }));
    expect(parsed.content).toEqual([{ type: 'text', text: 'hint', annotations }]);
  });

  it('skips a malformed block with a warning and keeps the rest, never falling back to raw text', () => {
    const stdout = JSON.stringify({ content: [{ type: 'text', text: 'ok' }, { type: 'resource', resource: { text: 'no uri' } }, { type: 'video' }] });
    const parsed = parseToolOutput(stdout);
    expect(parsed.raw).toBe(false);
    expect(parsed.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(parsed.warnings).toHaveLength(2);
    expect(parsed.warnings[0]).toMatch(/^content block 1 \(resource\) is malformed and was skipped: .*uri/);
    expect(parsed.warnings[1]).toMatch(/^content block 2 \(video\) is malformed/);
  });

  it('reads isError and the jp error and status metadata', () => {
    const stdout = JSON.stringify({
      content: [{ type: 'text', text: 'File not found: foo.rs' }],
      isError: true,
      _meta: { 'computer.jp/error': { transient: true, trace: ['io error: No such file'] }, 'computer.jp/status': 'stopped' },
    });
    expect(parseToolOutput(stdout)).toEqual({
      content: [{ type: 'text', text: 'File not found: foo.rs' }],
      isError: true,
      error: { transient: true, trace: ['io error: No such file'] },
      status: 'stopped',
      warnings: [],
      raw: false,
    });
    expect(parseToolOutput(JSON.stringify({ content: [], isError: true })).error).toBeUndefined();
  });

  it('canonicalises resource URIs, skipping blocks whose URI is refused', () => {
    const stdout = JSON.stringify({
      content: [
        { type: 'resource', resource: { uri: 'file:src/a.rs', text: 'a' } },
        { type: 'resource', resource: { uri: 'file:../outside', text: 'b' } },
      ],
    });
    const parsed = parseToolOutput(stdout, {
      canonicalizeUri: (uri) => {
        if (uri.includes('..')) throw new Error(`${uri} is outside the workspace`);
        return uri.replace('file:', 'file:///w/');
      },
    });
    expect(parsed.content).toEqual([{ type: 'resource', resource: { uri: 'file:///w/src/a.rs', text: 'a' } }]);
    expect(parsed.warnings).toEqual(['content block 1 (resource) was skipped: file:../outside is outside the workspace']);
  });
});
