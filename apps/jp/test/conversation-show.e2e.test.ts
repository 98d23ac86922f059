import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicTextStream, createWireServer, type WireServer } from '@jp/test-server';
import { runOnPty } from './helpers/pty.ts';
import { makeSandbox, runJp } from './helpers/run-jp.ts';

// `jp conversation show` read back on a terminal (issue O): turns selected, tool results shown,
// answers rendered, the pager for what is taller than the screen; and notices shown as they go out.
describe('conversation show on a terminal', { timeout: 60_000 }, () => {
  const { root, env: base } = makeSandbox('jp-show-');
  const { NO_COLOR: _drop, ...env } = base;
  const ws = path.join(root, 'ws');
  const pager = path.join(root, 'pager.sh');
  const paged = path.join(root, 'paged.txt');
  let server: WireServer;
  let id = '';
  const jp = (args: string[]) => runJp(['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, ...args], { cwd: ws, env: { ...env, ANTHROPIC_API_KEY: 'k' } });
  const pty = (args: string[]) => runOnPty(root, args, { cwd: ws, env: { ...env, PAGER: pager, TERM: 'xterm-256color' }, columns: 100 });

  beforeAll(async () => {
    server = await createWireServer();
    mkdirSync(ws, { recursive: true });
    writeFileSync(pager, `#!/bin/sh\ncat > ${JSON.stringify(paged)}\n`);
    chmodSync(pager, 0o755);
    writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    expect((await runJp(['init', '--no-gitignore'], { cwd: ws, env })).code).toBe(0);
    writeFileSync(
      path.join(ws, '.jp', 'config.toml'),
      `[tools.lines]\ncommand = "sh"\nargs = ["-c", "seq 1 10"]\ndescription = "ten lines"\nrun = "unattended"\n`,
    );
    const first = await jp(['-F', 'json', 'query', '-n', '-m', 'echo', '-a', 'a.txt', '!tool lines {}']);
    expect(first.code, first.stderr).toBe(0);
    id = JSON.parse(first.stdout.trim().split('\n').at(-1)!).conversation;
    server.enqueue(anthropicTextStream('# Findings\n\nThe **key** point.\n'));
    expect((await jp(['query', '-m', 'anthropic/claude-test', 'summarise'])).code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('shows a tool result as its first lines and a count of the rest', async () => {
    const show = await runJp(['conversation', 'show', id], { cwd: ws, env });
    expect(show.stdout).toContain('tool result:\n  1\n  2\n  3\n  4\n  (6 more lines)\n');
    expect(show.stdout).not.toContain('block(s)');
  });

  it('--turn N and --last select turns; a turn that is not one is a usage error', async () => {
    const last = await runJp(['conversation', 'show', id, '--last'], { cwd: ws, env });
    expect(last.stdout).toContain('── turn 1 ──');
    expect(last.stdout).not.toContain('── turn 0 ──');
    const zero = await runJp(['conversation', 'show', id, '--turn', '0'], { cwd: ws, env });
    expect(zero.stdout).toContain('── turn 0 ──');
    expect(zero.stdout).not.toContain('── turn 1 ──');
    const json = await runJp(['-F', 'json', 'conversation', 'show', id, '--last'], { cwd: ws, env });
    const events = JSON.parse(json.stdout).events as Array<{ type: string; content?: string }>;
    expect(events.filter((event) => event.type === 'chat_request').map((event) => event.content)).toEqual(['summarise']);
    const wrong = await runJp(['conversation', 'show', id, '--turn', '5'], { cwd: ws, env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim()).toBe('jp: --turn 5 is not a turn of this conversation: turns are 0 to 1');
  });

  it('renders answers on a terminal and leaves a short show off the pager', async () => {
    const shown = await pty(['conversation', 'show', id, '--last']);
    expect(shown.code, shown.terminal).toBe(0);
    expect(shown.terminal).toMatch(/\u001b\[1m\u001b\[35m# Findings/);
    expect(shown.terminal).toContain('\u001b[1mkey\u001b[22m');
    expect(existsSync(paged)).toBe(false);
  });

  it('sends what is taller than the screen through $PAGER', async () => {
    for (let i = 0; i < 6; i += 1) expect((await jp(['query', '-m', 'echo', `more ${i}`])).code).toBe(0);
    const shown = await pty(['conversation', 'show', id]);
    expect(shown.code, shown.terminal).toBe(0);
    const text = readFileSync(paged, 'utf8');
    expect(text).toContain(`conversation ${id}`);
    expect(text).toContain('── turn 7 ──');
    expect(shown.terminal).not.toContain('── turn 7 ──');
  });

  it('shows the freshness notices a turn sends, one dim line each on stderr', async () => {
    writeFileSync(path.join(ws, 'a.txt'), 'beta\n');
    const next = await jp(['query', '-m', 'echo', 'and now?']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain('notice: a.txt changed since it was attached in turn 0');
  });
});
