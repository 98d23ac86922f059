import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicErrorResponse, anthropicTextStream, createWireServer, type WireServer } from '@jp/test-server';
import { JP_BIN, makeSandbox, readEvents, runJp } from './helpers/run-jp.ts';

// `jp chat` in a real terminal (tmux): keys typed with send-keys, the screen read with capture-pane.
// Waits are on what the screen shows, with a hang guard only.

const hasTmux = spawnSync('sh', ['-c', 'command -v tmux']).status === 0;
const sandbox = makeSandbox('jp-chat-');
const ws = path.join(sandbox.root, 'ws');
const socket = path.join(sandbox.root, 'tmux.sock');
const editor = path.join(sandbox.root, 'editor.sh');
const env: NodeJS.ProcessEnv = { ...sandbox.env, TERM: 'xterm-256color', LANG: 'C.UTF-8', ANTHROPIC_API_KEY: 'sk-test', XDG_STATE_HOME: path.join(sandbox.root, 'state'), EDITOR: editor };
let server: WireServer;

const tmux = (...args: string[]) => spawnSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { cwd: ws, env, encoding: 'utf8' });
const screen = (session: string) => tmux('capture-pane', '-p', '-J', '-S', '-2000', '-t', session).stdout;

/** Waits until the pane shows `pattern` (counting from `after` matches of it already seen); the hang guard fails the test. */
async function until(session: string, pattern: RegExp | string, times = 1): Promise<string> {
  const count = (text: string) => (typeof pattern === 'string' ? text.split(pattern).length - 1 : (text.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`)) ?? []).length);
  for (let i = 0; i < 300; i++) {
    const shown = screen(session);
    if (count(shown) >= times) return shown;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the screen never showed ${String(pattern)} ×${times}:\n${screen(session)}`);
}

/** The answer is on the screen before its turn is stored: waits until the conversation has `n` requests and returns them. */
async function storedRequests(id: string, n: number): Promise<unknown[]> {
  for (let i = 0; i < 300; i++) {
    const requests = readEvents(ws, id).filter((event) => event.type === 'chat_request').map((event) => event.content);
    if (requests.length >= n) return requests;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${id} never had ${n} requests`);
}

function startChat(session: string, args: string[]): void {
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(JP_BIN)} ${args.map((arg) => JSON.stringify(arg)).join(' ')}; echo "EXIT:$?"; sleep 60`;
  const started = tmux('new-session', '-d', '-s', session, '-x', '150', '-y', '50', '-c', ws, command);
  expect(started.status, started.stderr).toBe(0);
}
const type = (session: string, text: string) => tmux('send-keys', '-t', session, '-l', text);
const key = (session: string, ...keys: string[]) => tmux('send-keys', '-t', session, ...keys);
const jp = (args: string[]) => runJp(args, { cwd: ws, env });

/** Events as the conversation stores them, without what differs between two runs (times, ids). */
function comparable(id: string): unknown[] {
  // Each turn's id is random, and its parent is the turn before's: both compared by shape.
  const ids = new Map<string, string>();
  const turnId = (value: string) => (ids.has(value) ? ids.get(value)! : (ids.set(value, `turn ${ids.size}`), ids.get(value)!));
  return readEvents(ws, id).map((event) => {
    const plain = JSON.parse(JSON.stringify(event).replace(/"timestamp":"[^"]+"/g, '"timestamp":"T"').replaceAll(id, 'ID'));
    if (plain.type === 'turn_start') {
      if (typeof plain.id === 'string') plain.id = turnId(plain.id);
      if (typeof plain.parent === 'string') plain.parent = turnId(plain.parent);
    }
    return plain;
  });
}

describe.skipIf(!hasTmux)(`jp chat in a terminal${hasTmux ? '' : ' (skipped: tmux not installed; .ci/run installs it)'}`, { timeout: 60_000 }, () => {
  beforeAll(async () => {
    server = await createWireServer();
    mkdirSync(ws, { recursive: true });
    writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    // The editor /edit opens: it keeps the template it was given and writes a message above it.
    writeFileSync(editor, `#!/bin/sh\ncp "$1" "${sandbox.root}/edit.in"\nprintf 'written in the editor\\n' | cat - "$1" > "$1.x" && mv "$1.x" "$1"\n`);
    chmodSync(editor, 0o755);
    expect((await jp(['init', '--no-gitignore'])).code).toBe(0);
    writeFileSync(path.join(ws, '.jp', 'config.toml'), `[providers.anthropic]\nbase_url = ${JSON.stringify(server.url)}\n`);
  }, 60_000);
  afterAll(async () => {
    tmux('kill-server');
    await server?.close();
    rmSync(sandbox.root, { recursive: true, force: true });
  });

  it('runs ordinary turns, with /attach, /ls, /model, /explain, a paste, another process, /fork, /compact and Ctrl-D', async () => {
    startChat('main', ['chat', '-n', '-m', 'echo']);
    await until('main', 'jp> ');
    type('main', 'first message');
    key('main', 'Enter');
    const first = await until('main', /new conversation (\S+)/);
    const id = /new conversation (\S+)/.exec(first)![1]!;
    type('main', '/attach a.txt');
    key('main', 'Enter');
    await until('main', 'added a.txt');
    type('main', 'second message');
    key('main', 'Enter');
    await until('main', 'turn 1: "second message"');
    await storedRequests(id, 2);
    type('main', '/ls');
    key('main', 'Enter');
    await until('main', /turn\s+1\s+6 B\s+\w+\s+a\.txt/);

    // The same turns through jp query store the same events, apart from ids and times.
    const viaQuery = JSON.parse((await jp(['-F', 'json', 'query', '-n', '-m', 'echo', 'first message'])).stdout.trim().split('\n').at(-1)!).conversation;
    expect((await jp(['attachment', 'add', '--id', viaQuery, 'a.txt'])).code).toBe(0);
    expect((await jp(['query', '--id', viaQuery, 'second message'])).code).toBe(0);
    expect(comparable(id)).toEqual(comparable(viaQuery));

    // A turn from another process between two chat turns: the chat says so and goes on.
    expect((await jp(['query', '--id', id, 'from elsewhere'])).code).toBe(0);
    type('main', 'third message');
    key('main', 'Enter');
    await until('main', '1 turn was added to this conversation from elsewhere');
    await until('main', 'turn 3: "third message"');
    await storedRequests(id, 4);

    // /explain prints the request and sends nothing.
    type('main', '/explain what if');
    key('main', 'Enter');
    await until('main', '"what if"');
    expect(readEvents(ws, id).filter((event) => event.type === 'turn_start')).toHaveLength(4);

    // A multi-line paste is one message.
    tmux('set-buffer', 'line one\nline two');
    tmux('paste-buffer', '-p', '-t', 'main');
    key('main', 'Enter');
    await until('main', 'turn 4: "line one" (+1 more line)');
    expect((await storedRequests(id, 5)).at(-1)).toBe('line one\nline two');

    // /model: the next message goes to the new model.
    type('main', '/model anthropic/claude-test');
    key('main', 'Enter');
    await until('main', 'anthropic/claude-test answers from the next message on');
    server.enqueue(anthropicTextStream('an answer from the wire'));
    type('main', 'to the wire');
    key('main', 'Enter');
    await until('main', 'an answer from the wire');
    expect((server.requests.at(-1)!.body as { model: string }).model).toBe('claude-test');

    // /fork goes on in a fork holding every turn so far.
    type('main', '/fork');
    key('main', 'Enter');
    const forked = await until('main', /going on in the fork (\S+)/);
    const forkId = /going on in the fork (\S+)/.exec(forked)![1]!;
    server.enqueue(anthropicTextStream('fork answer'));
    type('main', 'in the fork');
    key('main', 'Enter');
    await until('main', 'fork answer');
    expect(await storedRequests(forkId, 7)).toEqual([
      'first message',
      'second message',
      'from elsewhere',
      'third message',
      'line one\nline two',
      'to the wire',
      'in the fork',
    ]);
    expect(readEvents(ws, id).filter((event) => event.type === 'turn_start')).toHaveLength(6);

    // /compact appends a compaction by [conversation.compaction] (RFD 027): 7 turns, the last 4 kept.
    // Stubbing a 6-byte file saves nothing, so it is refused, with both sizes (issue W); --force writes it.
    type('main', '/compact');
    key('main', 'Enter');
    await until('main', /would not make the request smaller \([\d,]+ → [\d,]+ bytes/);
    expect(readEvents(ws, forkId).filter((event) => event.type === 'compaction')).toEqual([]);
    type('main', '/compact --force');
    key('main', 'Enter');
    await until('main', /compacted turns 0–2 \(reasoning stripped/);
    expect(readEvents(ws, forkId).filter((event) => event.type === 'compaction')).toMatchObject([{ from: 0, to: 2, resources: 'stub' }]);

    // Bad input is one line at the prompt; nothing is stored for it.
    type('main', '/frob');
    key('main', 'Enter');
    await until('main', 'jp: unknown command /frob');
    type('main', '/attach missing.txt');
    key('main', 'Enter');
    await until('main', 'jp: missing.txt does not exist; nothing attached');
    expect(readEvents(ws, forkId).filter((event) => event.type === 'turn_start')).toHaveLength(7);

    // /edit writes the next message in the editor, with the template of jp query.
    server.enqueue(anthropicTextStream('edited answer'));
    type('main', '/edit');
    key('main', 'Enter');
    await until('main', 'edited answer');
    expect(readFileSync(path.join(sandbox.root, 'edit.in'), 'utf8')).toContain('fork answer');
    expect((await storedRequests(forkId, 8)).at(-1)).toBe('written in the editor');

    key('main', 'C-d');
    await until('main', 'EXIT:0');
  });

  it('Ctrl-C during a slow answer stops it, as jp query does, and the chat goes on; Ctrl-C twice on an empty line leaves', async () => {
    startChat('slow', ['chat', '-n', '-m', 'anthropic/claude-test']);
    await until('slow', 'jp> ');
    // One line at a time: a rendered answer shows each line once it ends.
    server.enqueue(anthropicTextStream('slow line\n'.repeat(200), { chunkDelayMs: 100 }));
    const sent = server.requests.length;
    type('slow', 'take your time');
    key('slow', 'Enter');
    await until('slow', 'slow line\nslow line');
    key('slow', 'C-c');
    await until('slow', 'jp: interrupted');
    await until('slow', 'jp> ', 2);
    expect(server.requests.length).toBe(sent + 1);
    server.enqueue(anthropicTextStream('quick one'));
    type('slow', 'again');
    key('slow', 'Enter');
    const after = await until('slow', /new conversation (\S+)/);
    const id = /new conversation (\S+)/.exec(after)![1]!;
    // jp query stores nothing of an interrupted turn; the chat neither.
    expect(await storedRequests(id, 1)).toEqual(['again']);
    key('slow', 'C-c');
    await until('slow', 'press Ctrl-C again within 2 s');
    key('slow', 'C-c');
    await until('slow', 'EXIT:0');
  });

  it('names the model in its banner', async () => {
    startChat('banner', ['chat', '-n', '-m', 'echo']);
    await until('banner', 'jp: chatting with echo in a new conversation; /help lists the commands, Ctrl-D leaves');
    key('banner', 'C-d');
    await until('banner', 'EXIT:0');
  });

  it('completes /at with the space after it, so the file name follows at once', async () => {
    startChat('space', ['chat', '-n', '-m', 'echo']);
    await until('space', 'Ctrl-D leaves');
    type('space', '/at');
    key('space', 'Tab');
    await until('space', 'jp> /attach');
    type('space', 'a.txt');
    key('space', 'Enter');
    // Without the space the line is `/attacha.txt`, a message: the echo model quotes it.
    await until('space', /^added a\.txt \(goes with your next message\)$|"\/attacha\.txt"/m);
    expect(screen('space')).toMatch(/^jp> \/attach a\.txt$/m);
    expect(screen('space')).toContain('added a.txt (goes with your next message)');
    key('space', 'C-d');
    await until('space', 'EXIT:0');
  });

  it('prints /explain laid out over lines, one key a line', async () => {
    startChat('explain', ['chat', '-n', '-m', 'echo']);
    await until('explain', 'Ctrl-D leaves');
    type('explain', '/explain what if');
    key('explain', 'Enter');
    const explained = await until('explain', /"warnings": ?\[\]/);
    expect(explained).toMatch(/^\{\n\s{2}"provider": "echo",\n\s{2}"model": "echo",$/m);
    key('explain', 'C-d');
    await until('explain', 'EXIT:0');
  });

  it('echoes a message written with /edit into the transcript, as a typed one shows', async () => {
    startChat('echo', ['chat', '-n', '-m', 'echo']);
    await until('echo', 'Ctrl-D leaves');
    type('echo', '/edit');
    key('echo', 'Enter');
    await until('echo', /new conversation \S+/);
    expect(screen('echo')).toMatch(/^jp> written in the editor$/m);
    key('echo', 'C-d');
    await until('echo', 'EXIT:0');
  });

  it('ends its line on Ctrl-D: the shell (here the echo after jp) starts on a line of its own', async () => {
    startChat('eof', ['chat', '-n', '-m', 'echo']);
    await until('eof', 'Ctrl-D leaves');
    key('eof', 'C-d');
    const left = await until('eof', 'EXIT:0');
    expect(left).toMatch(/^EXIT:0$/m);
  });

  it('keeps what is typed while the spinner runs off its line, and gives it to the next prompt', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    server.enqueue({
      type: 'handler',
      async handle(_request, response) {
        await gate;
        const stream = anthropicTextStream('the answer after a wait');
        response.writeHead(200, { 'content-type': 'text/event-stream', ...stream.headers });
        for (const chunk of stream.chunks) response.write(chunk);
        response.end();
      },
    });
    const raw = path.join(sandbox.root, 'spinner.raw');
    startChat('typeahead', ['chat', '-n', '-m', 'anthropic/claude-test']);
    // Everything the pane receives, echo included, in order.
    expect(tmux('pipe-pane', '-o', '-t', 'typeahead', `cat >> ${raw}`).status).toBe(0);
    await until('typeahead', 'jp> ');
    type('typeahead', 'wait for it');
    key('typeahead', 'Enter');
    await until('typeahead', 'waiting for anthropic/claude-test');
    const frames = () => (existsSync(raw) ? readFileSync(raw, 'latin1') : '').split('waiting for anthropic/claude-test').length - 1;
    const before = frames();
    type('typeahead', 'typed ahead');
    // Two more frames drawn after the keys: a terminal echoing them would have shown them by then.
    for (let i = 0; i < 300 && frames() < before + 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(frames()).toBeGreaterThanOrEqual(before + 2);
    open();
    await until('typeahead', 'the answer after a wait');
    // The keys wait for the prompt, and are its line.
    await until('typeahead', /^jp> typed ahead$/m);
    const received = readFileSync(raw, 'latin1');
    expect(received.indexOf('typed ahead')).toBeGreaterThan(received.indexOf('the answer after a wait'));
    key('typeahead', 'C-u');
    key('typeahead', 'C-d');
    await until('typeahead', 'EXIT:0');
  });

  it('after a failed send, says in its one line that the message or the draft was kept', async () => {
    startChat('failed', ['chat', '-n', '-m', 'anthropic/claude-test']);
    await until('failed', 'jp> ');
    server.enqueue(anthropicErrorResponse(400, { message: 'the request was refused' }));
    type('failed', 'will not go');
    key('failed', 'Enter');
    await until('failed', /^jp: .*the request was refused.*; your message is kept: Up brings it back$/m);
    key('failed', 'Up');
    await until('failed', /^jp> will not go$/m);
    key('failed', 'C-u');
    server.enqueue(anthropicErrorResponse(400, { message: 'refused again' }));
    type('failed', '/edit');
    key('failed', 'Enter');
    await until('failed', /^jp: .*refused again.*; your draft is kept in \.jp\/local\/drafts\/new\.md and \/edit starts from it$/m);
    expect(readFileSync(path.join(ws, '.jp', 'local', 'drafts', 'new.md'), 'utf8')).toBe('written in the editor\n');
    key('failed', 'C-d');
    await until('failed', 'EXIT:0');
  });

  it('keeps its history outside the workspace, readable by its owner only', () => {
    const file = path.join(sandbox.root, 'state', 'jp', 'chat-history');
    const mode = spawnSync('stat', ['-c', '%a', file], { encoding: 'utf8' }).stdout.trim();
    expect(mode).toBe('600');
  });
});
