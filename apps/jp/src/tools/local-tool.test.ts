import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AttachmentRegistry } from '@jp/attachments';
import { Output } from '../output/output.ts';
import type { ToolRunContext } from './jp-tool.ts';
import { createLocalTool } from './local-tool.ts';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '__fixtures__', 'fixture-tool.mjs');
const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'jp-tool-')));
const warnings: string[] = [];
const output = new Output({ format: 'text', quiet: true, color: false });
output.warn = (message: string) => void warnings.push(message);

function ctx(overrides: Partial<ToolRunContext> = {}): ToolRunContext {
  return {
    workspaceRoot: root,
    events: [],
    declarations: [],
    mcpServerOfTool: () => undefined,
    registry: {} as AttachmentRegistry,
    handlerContext: { workspaceRoot: root, cwd: root, limits: { maxResourceBytes: 1, maxFiles: 1, sizePolicy: 'reject' }, logger: { warn() {} } },
    output,
    interactive: false,
    allowTools: true,
    prompt: (fn) => fn(),
    ...overrides,
  };
}

function tool(mode: string, extra: { timeout_secs?: number; max_output_bytes?: number } = {}) {
  return createLocalTool('fixture', {
    command: process.execPath,
    args: [fixture, mode],
    description: 'test tool',
    parameters: { type: 'object' },
    run: 'unattended',
    timeout_secs: extra.timeout_secs ?? 10,
    max_output_bytes: extra.max_output_bytes ?? 1024 * 1024,
  });
}

describe('local tools (RFD 058)', () => {
  it('gets its arguments as JSON on stdin and runs in the workspace root', async () => {
    const result = await tool('echo-args').call({ path: 'a b', n: 1 }, ctx());
    expect(result).toEqual({ content: [{ type: 'text', text: `args {"path":"a b","n":1} cwd ${root}` }], isError: false });
  });

  it('text blocks pass through', async () => {
    expect(await tool('text').call({}, ctx())).toEqual({ content: [{ type: 'text', text: 'Check succeeded.' }], isError: false });
  });

  it('resource blocks keep their content; file URIs become canonical against the workspace', async () => {
    const result = await tool('resources').call({}, ctx());
    expect(result.isError).toBe(false);
    expect(result.content[0]).toEqual({
      type: 'resource',
      resource: { uri: pathToFileURL(path.join(root, 'src/a.rs')).href, mimeType: 'text/x-rust', text: 'fn a() {}' },
    });
    const png = result.content[1]!;
    expect(png.type === 'resource' && 'blob' in png.resource ? Buffer.from(png.resource.blob as Uint8Array).toString('base64') : '').toBe('iVBORw0KGgo=');
  });

  it('mixed blocks keep their order', async () => {
    const result = await tool('mixed').call({}, ctx());
    expect(result.content.map((block) => (block.type === 'text' ? block.text : block.type))).toEqual(['before', 'resource', 'after']);
  });

  it('a malformed block is skipped with a warning; the rest stays', async () => {
    warnings.length = 0;
    const result = await tool('malformed').call({}, ctx());
    expect(result).toEqual({ content: [{ type: 'text', text: 'kept' }], isError: false });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^tool fixture: content block 1 \(resource\) is malformed/);
  });

  it('isError with jp error metadata is an error result', async () => {
    expect(await tool('error-meta').call({}, ctx())).toEqual({ content: [{ type: 'text', text: 'File not found: foo.rs' }], isError: true });
  });

  it('raw stdout is one text block', async () => {
    expect(await tool('raw').call({}, ctx())).toEqual({ content: [{ type: 'text', text: 'plain words, not JSON\n' }], isError: false });
  });

  it('a question without a terminal takes its default, and the tool runs again with the answer', async () => {
    expect(await tool('question').call({}, ctx())).toEqual({ content: [{ type: 'text', text: 'applied=true' }], isError: false });
  });

  it('a question without a terminal and without a default is an error result naming it', async () => {
    const result = await tool('question-no-default').call({}, ctx());
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/"Which branch\?" \(branch\).*no terminal.*no default/) });
  });

  it('a non-zero exit without JSON carries the tail of stderr', async () => {
    const result = await tool('fail-no-json').call({}, ctx());
    expect(result).toEqual({ content: [{ type: 'text', text: 'tool fixture exited with 3: line one | something went wrong' }], isError: true });
  });

  it('a tool that never exits is stopped at its timeout', async () => {
    const result = await tool('hang', { timeout_secs: 0.3 }).call({}, ctx());
    expect(result).toEqual({ content: [{ type: 'text', text: 'tool fixture did not finish within 0.3 s and was stopped' }], isError: true });
  });

  it('a tool printing 50 MB is stopped at the output limit', async () => {
    const result = await tool('flood').call({}, ctx());
    expect(result).toEqual({ content: [{ type: 'text', text: 'tool fixture printed more than 1048576 bytes and was stopped' }], isError: true });
  });

  it('a tool killed by a signal (exit 137) is an error result', async () => {
    const result = await tool('exit137').call({}, ctx());
    expect(result).toEqual({ content: [{ type: 'text', text: 'tool fixture was killed by SIGKILL' }], isError: true });
  });

  it('invalid JSON that looks like ours is kept as raw text', async () => {
    const result = await tool('fake-json').call({}, ctx());
    expect(result).toEqual({ content: [{ type: 'text', text: '{"content": [{"type": "text", "text": "unterminated' }], isError: false });
  });

  it('a missing program is an error result', async () => {
    const missing = createLocalTool('gone', { command: 'jp-no-such-program', args: [], description: 'd', parameters: {}, run: 'unattended', timeout_secs: 5, max_output_bytes: 10 });
    expect(await missing.call({}, ctx())).toEqual({ content: [{ type: 'text', text: 'tool gone could not be started: program jp-no-such-program not found' }], isError: true });
  });
});
