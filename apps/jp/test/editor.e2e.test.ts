import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicErrorResponse, anthropicTextStream, createWireServer, type WireServer } from '@jp/test-server';
import { runOnPty } from './helpers/pty.ts';
import { makeSandbox, readEvents, runJp, snapshotTree } from './helpers/run-jp.ts';

// The query written in $EDITOR (issue N): the built binary on a real pty, with small shell scripts
// standing in for editors. Each script records the file it was given and its arguments.
describe('jp query in the editor', { timeout: 60_000 }, () => {
  const { root, env } = makeSandbox('jp-editor-');
  const ws = path.join(root, 'project');
  const jpDir = path.join(ws, '.jp');
  const seen = path.join(root, 'seen');
  let server: WireServer;

  /** An editor script: records what it was given, then runs `body` on the file ("$f"). */
  function editor(name: string, body: string): string {
    const file = path.join(root, `${name}.sh`);
    writeFileSync(file, `#!/bin/sh\nfor f; do :; done\ncp "$f" "${seen}/${name}.in"\necho "$@" > "${seen}/${name}.args"\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  }
  const writes = (...lines: string[]) => `printf '%s\\n' ${lines.map((line) => `'${line}'`).join(' ')} | cat - "$f" > "$f.new" && mv "$f.new" "$f"`;
  const pty = (args: string[], extra: NodeJS.ProcessEnv) =>
    runOnPty(root, ['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, ...args], {
      cwd: ws,
      env: { ...env, ANTHROPIC_API_KEY: 'sk-test', TERM: 'xterm', ...extra },
    });
  const conversations = () => (existsSync(path.join(jpDir, 'conversations')) ? readdirSync(path.join(jpDir, 'conversations')).filter((name) => !name.startsWith('.')) : []);
  const draftFiles = () => (existsSync(path.join(jpDir, 'local', 'drafts')) ? readdirSync(path.join(jpDir, 'local', 'drafts')) : []);

  beforeAll(async () => {
    server = await createWireServer();
    mkdirSync(ws, { recursive: true });
    mkdirSync(seen);
    writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    expect((await runJp(['init', '--no-gitignore'], { cwd: ws, env })).code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    rmSync(path.join(jpDir, 'local', 'drafts'), { recursive: true, force: true });
  });

  it('a query written in the editor is sent and stored, and nothing under the scissors is sent', async () => {
    server.enqueue(anthropicTextStream('LAST-ANSWER-TEXT'));
    const first = await pty(['query', '--new', '-m', 'anthropic/claude-test', '-a', 'a.txt'], { EDITOR: editor('write1', writes('# Heading kept', 'what is in a.txt?')) });
    expect(first.code, first.terminal).toBe(0);
    const template = readFileSync(path.join(seen, 'write1.in'), 'utf8');
    expect(template).toMatch(/^\n# -+ >8 -+\n/);
    expect(template).toContain('Model: anthropic/claude-test');
    expect(template).toContain('- a.txt');
    const id = /new conversation (\S+)/.exec(first.terminal)![1]!;
    const request = readEvents(ws, id).find((event) => event.type === 'chat_request')!;
    expect(request.content).toBe('# Heading kept\nwhat is in a.txt?');
    expect(draftFiles()).toEqual([]);

    // The next turn's template shows the last answer; none of it reaches the provider.
    server.enqueue(anthropicTextStream('second'));
    const second = await pty(['query', '--id', id], { EDITOR: editor('write2', writes('and then?')) });
    expect(second.code, second.terminal).toBe(0);
    expect(readFileSync(path.join(seen, 'write2.in'), 'utf8')).toContain('LAST-ANSWER-TEXT');
    const body = JSON.stringify(server.requests.at(-1)!.body);
    expect(body).toContain('and then?');
    expect(body).not.toContain('>8');
    expect(body).not.toContain('Do not modify');
    expect(readEvents(ws, id).filter((event) => event.type === 'chat_request').map((event) => event.content)).toEqual(['# Heading kept\nwhat is in a.txt?', 'and then?']);
  });

  it('an empty query aborts with one line and exit 1, and stores nothing', async () => {
    const before = snapshotTree(path.join(jpDir, 'conversations'));
    const result = await pty(['query', '--new', '-m', 'echo'], { EDITOR: editor('empty', 'printf "   \\n\\t\\n" | cat - "$f" > "$f.new" && mv "$f.new" "$f"') });
    expect(result.code, result.terminal).toBe(1);
    expect(result.terminal).toMatch(/jp: aborting: the query is empty/);
    expect(snapshotTree(path.join(jpDir, 'conversations'))).toEqual(before);
  });

  it('an editor that fails keeps the text, and the next editor starts from it', async () => {
    const count = conversations().length;
    const failed = await pty(['query', '--new', '-m', 'echo'], { EDITOR: editor('fails', `${writes('my long question')}\nexit 1`) });
    expect(failed.code, failed.terminal).toBe(1);
    expect(failed.terminal).toMatch(/jp: the editor exited with status 1; nothing was sent, your text is kept in \.jp\/local\/drafts\/new\.md/);
    expect(conversations().length).toBe(count);
    const again = await pty(['query', '--new', '-m', 'echo'], { EDITOR: editor('keeps', ':') });
    expect(again.code, again.terminal).toBe(0);
    expect(again.terminal).toContain('starting from your unsent draft (.jp/local/drafts/new.md)');
    expect(readFileSync(path.join(seen, 'keeps.in'), 'utf8').startsWith('my long question\n')).toBe(true);
    expect(draftFiles()).toEqual([]);
  });

  it('a provider failure after the query was written keeps the draft', async () => {
    server.enqueue(anthropicErrorResponse(400, { type: 'invalid_request_error', message: 'bad' }));
    const result = await pty(['query', '--new', '-m', 'anthropic/claude-test'], { EDITOR: editor('then500', writes('precious words')) });
    expect(result.code, result.terminal).toBe(3);
    expect(readFileSync(path.join(jpDir, 'local', 'drafts', 'new.md'), 'utf8')).toBe('precious words\n');
    server.enqueue(anthropicErrorResponse(500, { type: 'api_error', message: 'down' }), anthropicErrorResponse(500, { type: 'api_error', message: 'down' }));
    const retried = await pty(['-c', 'assistant.request.max_retries=1', 'query', '--new', '-m', 'anthropic/claude-test'], { EDITOR: editor('again500', ':') });
    expect(retried.code, retried.terminal).toBe(3);
    expect(readFileSync(path.join(seen, 'again500.in'), 'utf8').startsWith('precious words\n')).toBe(true);
    expect(readFileSync(path.join(jpDir, 'local', 'drafts', 'new.md'), 'utf8')).toBe('precious words\n');
  });

  it('-e pre-fills the template with TEXT, and an editor value with arguments works', async () => {
    const ed = editor('withargs', ':');
    const result = await pty(['query', '--new', '-m', 'echo', '-e', 'prefilled', 'words'], { VISUAL: `${ed} --wait -n`, EDITOR: '/nonexistent/editor' });
    expect(result.code, result.terminal).toBe(0);
    expect(readFileSync(path.join(seen, 'withargs.in'), 'utf8').startsWith('prefilled words\n')).toBe(true);
    expect(readFileSync(path.join(seen, 'withargs.args'), 'utf8')).toMatch(/^--wait -n \S+new\.md\n$/);
    expect(result.terminal).toContain('"prefilled words"');
  });

  it('a missing editor program is one line and exit 1', async () => {
    const result = await pty(['query', '--new', '-m', 'echo'], { EDITOR: 'no-such-editor-xyz --flag' });
    expect(result.code, result.terminal).toBe(1);
    expect(result.terminal).toMatch(/jp: the editor "no-such-editor-xyz" \(from \$EDITOR\) was not found; set \$VISUAL or \$EDITOR to an installed editor/);
    expect(result.terminal).not.toMatch(/\n\s+at /);
  });

  it('there is no editor without a terminal', async () => {
    const EDITOR = editor('never', 'touch "' + path.join(seen, 'never.ran') + '"');
    const noText = await runJp(['query', '--new', '-m', 'echo'], { cwd: ws, env: { ...env, EDITOR } });
    expect(noText.code).toBe(2);
    expect(noText.stderr).toMatch(/nothing to ask/);
    const edit = await runJp(['query', '--new', '-m', 'echo', '-e', 'x'], { cwd: ws, env: { ...env, EDITOR } });
    expect(edit.code).toBe(2);
    expect(edit.stderr).toMatch(/--edit needs a terminal/);
    expect(existsSync(path.join(seen, 'never.ran'))).toBe(false);
  });
});
