import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicErrorResponse, createWireServer, type WireServer } from '@jp/test-server';
import { runOnPty } from './helpers/pty.ts';
import { JP_BIN, makeSandbox, readEvents, runJp } from './helpers/run-jp.ts';

// `jp q` with no text on a terminal opens the editor before the CLI loads (query/editor-first.ts)
// when the template needs nothing the CLI builds. These tests run a copy of the built binary whose
// CLI chunk (the one defining buildProgram) writes `cli` to a trace file when it loads; the editor
// scripts write `editor` there. The order says which path ran, and each case is compared with the
// same query sent through the CLI (a global option, `-w`, leaves every query to it).
describe('the editor before the CLI', { timeout: 90_000 }, () => {
  const { root, env: sandboxEnv } = makeSandbox('jp-editor-first-');
  const ws = path.join(root, 'project');
  const jpDir = path.join(ws, '.jp');
  const seen = path.join(root, 'seen');
  const trace = path.join(root, 'trace');
  const bin = path.join(root, 'dist', 'jp.js');
  const env = { ...sandboxEnv, JP_TRACE: trace, TERM: 'xterm' };
  let server: WireServer;

  /** An editor script: records the file it was given and that it ran, then runs `body` on the file ("$f"). */
  function editor(name: string, body = ':'): string {
    const file = path.join(root, `${name}.sh`);
    writeFileSync(file, `#!/bin/sh\nfor f; do :; done\ncp "$f" "${seen}/${name}.in"\necho editor >> "${trace}"\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  }
  const writes = (text: string) => `printf '%s\\n' '${text}' | cat - "$f" > "$f.new" && mv "$f.new" "$f"`;
  const template = (name: string) => readFileSync(path.join(seen, `${name}.in`), 'utf8');
  /** jp on a pty; returns its exit code, what the terminal showed, and the order of the trace. */
  async function pty(args: string[], extra: NodeJS.ProcessEnv) {
    rmSync(trace, { force: true });
    const result = await runOnPty(root, args, { cwd: ws, env: { ...env, ...extra }, bin });
    const order = existsSync(trace) ? readFileSync(trace, 'utf8').trim().split('\n') : [];
    return { ...result, order };
  }
  const draftFiles = () => (existsSync(path.join(jpDir, 'local', 'drafts')) ? readdirSync(path.join(jpDir, 'local', 'drafts')) : []);

  beforeAll(async () => {
    server = await createWireServer();
    mkdirSync(seen);
    mkdirSync(ws, { recursive: true });
    writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    cpSync(path.dirname(JP_BIN), path.dirname(bin), { recursive: true });
    const dist = path.dirname(bin);
    const cli = readdirSync(dist).filter((file) => file.endsWith('.js') && readFileSync(path.join(dist, file), 'utf8').includes('function buildProgram('));
    expect(cli).toHaveLength(1);
    appendFileSync(path.join(dist, cli[0]!), "\nprocess.getBuiltinModule('node:fs').appendFileSync(process.env.JP_TRACE, 'cli\\n');\n");
    expect((await runJp(['init', '--no-gitignore'], { cwd: ws, env, bin })).code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    rmSync(path.join(jpDir, 'local', 'drafts'), { recursive: true, force: true });
  });

  it('a new conversation: the editor opens first, on the template the CLI makes, and an empty query is the same error', async () => {
    const viaCli = await pty(['-w', ws, 'query', '-n', '-m', 'echo'], { EDITOR: editor('cli-new') });
    expect(viaCli.order).toEqual(['cli', 'editor']);
    const first = await pty(['query', '-n', '-m', 'echo'], { EDITOR: editor('first-new') });
    expect(first.order).toEqual(['editor']);
    expect(template('first-new')).toBe(template('cli-new'));
    expect(template('first-new')).toContain('Model: echo');
    expect([first.code, first.terminal]).toEqual([viaCli.code, viaCli.terminal]);
    expect(first.code).toBe(1);
    expect(first.terminal).toMatch(/^jp: aborting: the query is empty/);
    expect(draftFiles()).toEqual([]);
  });

  it('an existing conversation, by --id or active: its title and last answer, as the CLI shows them', async () => {
    expect((await runJp(['query', '-n', '-m', 'echo', '--title', 'Editor first', 'one'], { cwd: ws, env, bin })).code).toBe(0);
    expect((await runJp(['query', 'two'], { cwd: ws, env, bin })).code).toBe(0);
    const id = readFileSync(path.join(jpDir, 'local', 'active'), 'utf8').trim();
    const viaCli = await pty(['-w', ws, 'query', '--id', id], { EDITOR: editor('cli-id') });
    expect(viaCli.order).toEqual(['cli', 'editor']);
    for (const args of [['query', '--id', id], ['q'], ['q', '-e', '--model', 'echo']]) {
      const name = `first-${args.length}`;
      const first = await pty(args, { EDITOR: editor(name) });
      expect(first.order, args.join(' ')).toEqual(['editor']);
      if (!args.includes('--model')) expect(template(name)).toBe(template('cli-id'));
      expect([first.code, first.terminal]).toEqual([viaCli.code, viaCli.terminal]);
    }
    expect(template('cli-id')).toContain(`Conversation: ${id} (Editor first)`);
    expect(template('cli-id')).toMatch(/## Last answer\n\n[\s\S]*two/);
  });

  it('the query written goes on through the CLI: answered, stored, its draft removed', async () => {
    const id = readFileSync(path.join(jpDir, 'local', 'active'), 'utf8').trim();
    const result = await pty(['q', '--id', id], { EDITOR: editor('writes', writes('three, from the editor')) });
    expect(result.order).toEqual(['editor', 'cli']);
    expect(result.code, result.terminal).toBe(0);
    expect(readEvents(ws, id).filter((event) => event.type === 'chat_request').map((event) => event.content)).toEqual(['one', 'two', 'three, from the editor']);
    expect(result.terminal).toContain('three, from the editor');
    expect(draftFiles()).toEqual([]);
  });

  it('a turn that fails after the editor keeps the draft, and the next editor starts from it', async () => {
    expect((await runJp(['config', 'set', 'providers.anthropic.base_url', server.url], { cwd: ws, env, bin })).code).toBe(0);
    const keyed = { ANTHROPIC_API_KEY: 'sk-test' };
    // Settles the changed configuration once, as any command does (RFD 034).
    expect((await runJp(['query', '-n', '-m', 'anthropic/claude-test', '--explain', 'x'], { cwd: ws, env: { ...env, ...keyed }, bin })).code).toBe(0);
    server.enqueue(anthropicErrorResponse(400, { type: 'invalid_request_error', message: 'bad' }));
    const failed = await pty(['q', '-n', '-m', 'anthropic/claude-test'], { ...keyed, EDITOR: editor('precious', writes('precious words')) });
    expect(failed.order).toEqual(['editor', 'cli']);
    expect(failed.code, failed.terminal).toBe(3);
    expect(readFileSync(path.join(jpDir, 'local', 'drafts', 'new.md'), 'utf8')).toBe('precious words\n');
    const again = await pty(['q', '-n', '-m', 'anthropic/claude-test'], { ...keyed, EDITOR: editor('again', 'exit 1') });
    expect(again.order).toEqual(['editor']);
    expect(again.terminal).toContain('starting from your unsent draft (.jp/local/drafts/new.md)');
    expect(again.terminal).toMatch(/jp: the editor exited with status 1; nothing was sent, your text is kept in \.jp\/local\/drafts\/new\.md/);
    expect(again.code).toBe(1);
    expect(template('again').startsWith('precious words\n')).toBe(true);
  });

  it('leaves to the CLI what the template needs the session for, and every error the CLI gives before its editor', async () => {
    // No key for the provider: the CLI's error, and no editor.
    const noKey = await pty(['q', '-n', '-m', 'anthropic/claude-test'], { EDITOR: editor('never') });
    expect(noKey.order).toEqual(['cli']);
    expect(noKey.code).toBe(3);
    expect(noKey.terminal).toMatch(/ANTHROPIC_API_KEY is not set/);
    // An unknown conversation.
    const unknown = await pty(['q', '--id', 'no-such-conversation'], { EDITOR: editor('never') });
    expect(unknown.order).toEqual(['cli']);
    expect(unknown.code).toBe(2);
    // A declared attachment is resolved into the template by the CLI's registry.
    expect((await runJp(['attachment', 'add', 'a.txt'], { cwd: ws, env, bin })).code).toBe(0);
    const declared = await pty(['q'], { EDITOR: editor('declared') });
    expect(declared.order).toEqual(['cli', 'editor']);
    expect(template('declared')).toContain('- a.txt');
    // A configuration no command has validated yet: the CLI validates it (and the next query is the editor's first).
    writeFileSync(path.join(jpDir, 'config.toml'), `${readFileSync(path.join(jpDir, 'config.toml'), 'utf8')}\n[editor]\ncommand = "vi"\n`);
    const fresh = await pty(['q', '-n', '-m', 'echo'], { EDITOR: editor('fresh') });
    expect(fresh.order).toEqual(['cli', 'editor']);
    const settled = await pty(['q', '-n', '-m', 'echo'], { EDITOR: editor('settled') });
    expect(settled.order).toEqual(['editor']);
    expect(template('settled')).toBe(template('fresh'));
    expect(existsSync(path.join(seen, 'never.in'))).toBe(false);
  });
});
