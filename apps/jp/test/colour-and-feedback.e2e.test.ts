import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicTextStream, createWireServer, type ScriptedResponse, type WireServer } from '@jp/test-server';
import { runOnPty } from './helpers/pty.ts';
import { makeSandbox, runJp } from './helpers/run-jp.ts';

// Colour and the status line (RFD 016) on a real terminal: the built binary runs under `script`,
// which gives it a pty; everything the terminal receives is checked. The sandbox's NO_COLOR is
// removed here: colour is what is tested.

const here = path.dirname(fileURLToPath(import.meta.url));
const sandbox = makeSandbox('jp-colour-e2e-');
const { root } = sandbox;
const env: NodeJS.ProcessEnv = { ...sandbox.env, ANTHROPIC_API_KEY: 'sk-test' };
delete env.NO_COLOR;
const ws = path.join(root, 'project');
let server: WireServer;

/** The exact SGR codes jp's styles emit (picocolors): bold red `jp:`, dim metadata. */
const RED_JP = '\x1b[1m\x1b[31mjp:\x1b[39m\x1b[22m';
const DIM = '\x1b[2m';
const ESC = '\x1b';

const pty = (args: string[], options: { env?: NodeJS.ProcessEnv; columns?: number; stdoutFile?: string } = {}) =>
  runOnPty(root, ['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, ...args], { cwd: ws, env: options.env ?? env, ...options });
const piped = (args: string[], extra: NodeJS.ProcessEnv = {}) => runJp(args, { cwd: ws, env: { ...env, ...extra } });

/** An Anthropic answer whose first byte leaves the server only after `ms`. */
function slowAnswer(text: string, ms: number): ScriptedResponse {
  const stream = anthropicTextStream(text);
  return {
    type: 'handler',
    handle: (_request, response) =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          for (const chunk of stream.chunks) response.write(chunk);
          response.end();
          resolve();
        }, ms),
      ),
  };
}

beforeAll(async () => {
  server = await createWireServer();
  mkdirSync(ws, { recursive: true });
  expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
  expect((await piped(['query', '--new', '-m', 'echo', '--title', 'first', 'hello'])).code).toBe(0);
}, 30_000);

afterAll(async () => {
  await server?.close();
});

describe('colour (RFD 016)', { timeout: 30_000 }, () => {
  it('on a terminal: dim metadata in listings, headers in conversation show, a red `jp:` on errors', async () => {
    const ls = await pty(['conversation', 'ls']);
    expect(ls.code, ls.terminal).toBe(0);
    expect(ls.terminal).toContain(DIM);
    const show = await pty(['conversation', 'show']);
    expect(show.terminal).toContain('\x1b[1m── turn 0 ──\x1b[22m');
    expect(show.terminal).toMatch(/\x1b\[1m\x1b\[34muser:\x1b\[39m\x1b\[22m hello/);
    const error = await pty(['conversation', 'show', 'no-such-conversation']);
    expect(error.code).not.toBe(0);
    expect(error.terminal.startsWith(`${RED_JP} `), JSON.stringify(error.terminal)).toBe(true);
  });

  it('plain with NO_COLOR, with --no-color, and with -F json, even on a terminal', async () => {
    for (const [args, extra] of [
      [['conversation', 'ls'], { NO_COLOR: '1' }],
      [['--no-color', 'conversation', 'ls'], {}],
      [['--no-color', 'conversation', 'show', 'nope'], { FORCE_COLOR: '1' }],
      [['-F', 'json', 'conversation', 'show'], {}],
      [['-F', 'json', 'conversation', 'show', 'nope'], {}],
    ] as const) {
      const result = await pty([...args], { env: { ...env, ...extra } });
      expect(result.terminal.includes(ESC), `${args.join(' ')} ${JSON.stringify(extra)}: ${JSON.stringify(result.terminal)}`).toBe(false);
    }
  });

  it('plain into a pipe; coloured into a pipe with FORCE_COLOR', async () => {
    const plain = await piped(['conversation', 'ls']);
    const plainError = await piped(['conversation', 'show', 'nope']);
    expect(plain.stdout).toContain('first');
    expect(plain.stdout + plainError.stderr).not.toContain(ESC);
    expect(plainError.stderr).toMatch(/^jp: /);

    const forced = await piped(['conversation', 'ls'], { FORCE_COLOR: '1' });
    const forcedError = await piped(['conversation', 'show', 'nope'], { FORCE_COLOR: '1' });
    expect(forced.stdout).toContain(DIM);
    expect(forcedError.stderr.startsWith(`${RED_JP} `)).toBe(true);
  });

  it('attachment ls --check paints states: fresh in green, changed in yellow', async () => {
    writeFileSync(path.join(ws, 'a.txt'), 'one\n');
    writeFileSync(path.join(ws, 'b.txt'), 'two\n');
    expect((await piped(['query', '-m', 'echo', '--attach', 'a.txt', '--attach', 'b.txt', 'files'])).code).toBe(0);
    writeFileSync(path.join(ws, 'b.txt'), 'changed\n');
    const result = await pty(['attachment', 'ls', '--check']);
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toContain('\x1b[32mfresh\x1b[39m');
    expect(result.terminal).toContain('\x1b[33mchanged\x1b[39m');
  });
});

describe('the status line (RFD 016)', { timeout: 30_000 }, () => {
  it('a spinner with the seconds waited shows while a slow model has sent nothing, and is erased before the answer', async () => {
    server.enqueue(slowAnswer('the answer', 1200));
    const result = await pty(['query', '--new', '-m', 'anthropic/claude-sonnet-4-6', 'slow?']);
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] waiting for anthropic\/claude-sonnet-4-6… \d+\.\ds/);
    // The last frame is erased, and only then is the answer written: never on the same line.
    expect(result.terminal).toMatch(/waiting for anthropic\/claude-sonnet-4-6… \d+\.\ds\r\x1b\[2Kthe answer\r\n/);
    expect(result.terminal.lastIndexOf('waiting for')).toBeLessThan(result.terminal.indexOf('the answer'));
  });

  it('with stdout in a file the spinner stays on the terminal and the file gets only the answer', async () => {
    const file = path.join(root, 'answer.txt');
    server.enqueue(slowAnswer('into a file', 800));
    const result = await pty(['query', '--new', '-m', 'anthropic/claude-sonnet-4-6', 'slow?'], { stdoutFile: file });
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toContain('waiting for anthropic/claude-sonnet-4-6…');
    expect(readFileSync(file, 'utf8')).toBe('into a file\n');
  });

  it('nothing extra when stderr is not a terminal, and none with -q on one', async () => {
    server.enqueue(slowAnswer('piped', 800));
    const result = await piped(['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, 'query', '--new', '-m', 'anthropic/claude-sonnet-4-6', 'slow?']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('piped\n');
    expect(result.stderr).toMatch(/^jp: new conversation \S+\n$/);

    server.enqueue(slowAnswer('quiet', 800));
    const quiet = await pty(['-q', 'query', '--new', '-m', 'anthropic/claude-sonnet-4-6', 'slow?']);
    expect(quiet.code, quiet.terminal).toBe(0);
    expect(quiet.terminal).toBe('quiet\r\n');
  });

  it('the echo model: whatever the machine’s speed, no frame is left on the line the answer takes', async () => {
    // Whether the echo model answers inside the spinner's delay is the machine's speed; that an
    // answer inside it draws nothing is wait-spinner.test.ts's (a fake clock). Here, by the order of
    // what the terminal got: every frame drawn, if any, is erased before the answer begins.
    const result = await pty(['query', '--new', '-m', 'echo', 'quick']);
    expect(result.code, result.terminal).toBe(0);
    const answer = result.terminal.indexOf('echo: 1 turn');
    expect(answer).toBeGreaterThan(-1);
    const frames = [...result.terminal.slice(0, answer).matchAll(/waiting for echo… \d+\.\ds/g)];
    for (const frame of frames) expect(result.terminal.slice(frame.index + frame[0].length).startsWith('\r\x1b[2K'), frame[0]).toBe(true);
    expect(result.terminal.slice(answer)).not.toContain('waiting for');
  });

  it('a slow cmd: attachment shows its elapsed time while it runs', async () => {
    const script = 'setTimeout(() => console.log("done"), 1200)';
    const cmd = `cmd:'${process.execPath}' -e '${script}'`;
    const result = await pty(['query', '--new', '-m', 'echo', '--attach', cmd, 'what ran?']);
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toMatch(/resolving attachments: 0 read  cmd:.* \d+\.\ds/);
    // Erased before the answer.
    expect(result.terminal.lastIndexOf('resolving attachments')).toBeLessThan(result.terminal.indexOf('what ran?'));
  });

  it('an MCP resource shows its elapsed time while its server starts and answers', async () => {
    const fixture = path.resolve(here, '../../../packages/attachments/src/mcp/__fixtures__/fixture-server.mjs');
    const mcp = ['-c', `mcp.fx.command=${JSON.stringify(process.execPath)}`, '-c', `mcp.fx.args=[${JSON.stringify(fixture)}]`];
    // fixture://slow answers after 2 s.
    const result = await pty([...mcp, 'query', '--new', '-m', 'echo', '--attach', 'mcp+fx+fixture://slow', 'slow resource']);
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toMatch(/resolving attachments: 0 read  mcp\+fx\+fixture:\/\/slow 1\.\ds/);
    expect(result.terminal.lastIndexOf('resolving attachments')).toBeLessThan(result.terminal.indexOf('slow resource'));
  });

  it('a terminal reporting 0 columns gets whole status lines, not lines cut to nothing', async () => {
    // Taken as 80 wide: the whole line fits (it was cut to 19 characters before).
    const name = 'a-file-named-to-show-the-width.txt';
    writeFileSync(path.join(ws, name), 'content\n');
    const result = await pty(['query', '--new', '-m', 'echo', '--attach', name, 'x'], { columns: 0 });
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toContain(`resolving attachments: 1 read  ${name}`);

    server.enqueue(slowAnswer('narrow', 800));
    const spinner = await pty(['query', '--new', '-m', 'anthropic/claude-sonnet-4-6', 'slow?'], { columns: 0 });
    expect(spinner.code, spinner.terminal).toBe(0);
    expect(spinner.terminal).toMatch(/waiting for anthropic\/claude-sonnet-4-6… \d+\.\ds/);
  });
});
