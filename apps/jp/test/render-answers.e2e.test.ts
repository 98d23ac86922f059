import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicTextStream, createWireServer, type WireServer } from '@jp/test-server';
import { runOnPty } from './helpers/pty.ts';
import { makeSandbox, readEvents, runJp } from './helpers/run-jp.ts';

// Answers rendered as Markdown on a terminal (issue O), through the built binary: on a real pty
// with colour, the Anthropic wire server streaming the answer a few characters at a time; and the
// same answer through a pipe, which must be exactly what is stored.
const ANSWER = [
  '# Plan',
  '',
  'Use **bold** and a [link](https://example.test/doc).',
  '',
  '```rust',
  'fn main() {',
  '    let s = "hi";',
  '}',
  '```',
  '',
  '| k | v |',
  '|---|---|',
  '| a | 1 |',
  '',
].join('\n');
const pieces = (text: string) => text.match(/[\s\S]{1,4}/g)!;

describe('rendered answers', { timeout: 60_000 }, () => {
  const { root, env: base } = makeSandbox('jp-render-');
  const { NO_COLOR: _drop, ...env } = base;
  const ws = path.join(root, 'ws');
  let server: WireServer;
  const cfg = () => ['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`];
  const keyed = { ...env, ANTHROPIC_API_KEY: 'sk-test', TERM: 'xterm-256color' };

  beforeAll(async () => {
    server = await createWireServer();
    mkdirSync(ws, { recursive: true });
    expect((await runJp(['init', '--no-gitignore'], { cwd: ws, env })).code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('on a terminal: headings styled, code highlighted, the table drawn, marks gone', async () => {
    server.enqueue(anthropicTextStream(pieces(ANSWER)));
    const result = await runOnPty(root, [...cfg(), 'query', '-n', '-m', 'anthropic/claude-test', 'plan?'], { cwd: ws, env: keyed, columns: 60 });
    expect(result.code, result.terminal).toBe(0);
    const screen = result.terminal;
    expect(screen).toMatch(/\u001b\[1m\u001b\[35m# Plan/);
    expect(screen).toContain('\u001b[1mbold\u001b[22m');
    expect(screen).not.toContain('**bold**');
    expect(screen).toContain('\u001b[35mfn\u001b[39m');
    expect(screen).toContain('\u001b[32m"hi"\u001b[39m');
    expect(screen).toMatch(/┌───┬───┐/);
    expect(screen).toContain('\u001b[4mlink\u001b[24m (\u001b[34mhttps://example.test/doc\u001b[39m)');
    const id = /new conversation (\S+)/.exec(screen)![1]!;
    expect(readEvents(ws, id).find((event) => event.type === 'chat_response')!.message).toBe(ANSWER);
  });

  it('through a pipe the bytes are exactly the stored answer', async () => {
    server.enqueue(anthropicTextStream(pieces(ANSWER)));
    const result = await runJp([...cfg(), '-F', 'text', 'query', '-n', '-m', 'anthropic/claude-test', 'plan?'], { cwd: ws, env: { ...keyed, FORCE_COLOR: '1' } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(ANSWER);
  });

  it('--no-render and style.render = false print the exact text on a terminal too', async () => {
    const out = path.join(root, 'raw.out');
    server.enqueue(anthropicTextStream(pieces(ANSWER)));
    const flag = await runOnPty(root, [...cfg(), '--no-render', 'query', '-n', '-m', 'anthropic/claude-test', 'plan?'], { cwd: ws, env: keyed, stdoutFile: out });
    expect(flag.code, flag.terminal).toBe(0);
    server.enqueue(anthropicTextStream(pieces(ANSWER)));
    const config = await runOnPty(root, [...cfg(), '-c', 'style.render=false', 'query', '-n', '-m', 'anthropic/claude-test', 'plan?'], { cwd: ws, env: keyed, columns: 60 });
    expect(config.code, config.terminal).toBe(0);
    expect(config.terminal).toContain('**bold**');
    expect(config.terminal).toContain('|---|---|');
    expect(readFileSync(out, 'utf8')).toBe(ANSWER);
  });
});
