import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JP_BIN, makeSandbox, runJp } from './helpers/run-jp.ts';

/*
 * Completion as a user meets it: the script each shell loads from `jp completion SHELL`, and the
 * `jp __complete` it runs for values, with `jp` found on PATH. Bash and zsh are driven in a real
 * terminal (tmux): the keys are typed and Tab is pressed; fish answers `complete -C` directly.
 */

const installed = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
const hasTmux = installed('tmux');
const hasZsh = installed('zsh');
const hasFish = installed('fish');
const missing = (programs: Record<string, boolean>) => {
  const absent = Object.keys(programs).filter((name) => !programs[name]);
  return absent.length === 0 ? '' : ` (skipped: ${absent.join(' and ')} not installed; .ci/run installs them)`;
};

const sandbox = makeSandbox('jp-completion-');
const ws = path.join(sandbox.root, 'ws');
const bin = path.join(sandbox.root, 'bin');
const env: NodeJS.ProcessEnv = { ...sandbox.env, PATH: `${bin}:${process.env.PATH}`, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
const ids: string[] = [];

async function jp(args: string[], cwd = ws) {
  const result = await runJp(args, { cwd, env });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

beforeAll(async () => {
  mkdirSync(bin, { recursive: true });
  mkdirSync(ws, { recursive: true });
  writeFileSync(path.join(bin, 'jp'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(JP_BIN)} "$@"\n`);
  chmodSync(path.join(bin, 'jp'), 0o755);
  await jp(['init']);
  writeFileSync(path.join(ws, '.jp', 'config.toml'), '[assistant]\nmodel = "echo"\n\n[mcp.notes]\ncommand = "notes-server"\n\n[mcp.search]\ncommand = "search-server"\n');
  writeFileSync(path.join(ws, 'notes.md'), 'notes\n');
  await jp(['query', '--new', '--title', 'first title', 'hello']);
  await jp(['query', '--new', '--title', 'second\ttitle\u001b]0;owned\u0007', 'hello again']);
  await jp(['attachment', 'add', 'notes.md']);
  for (const line of (await jp(['-F', 'json', 'conversation', 'ls'])).split('\n').filter(Boolean)) {
    for (const conversation of (JSON.parse(line) as { conversations: Array<{ id: string }> }).conversations) ids.push(conversation.id);
  }
}, 60_000);

afterAll(() => {
  spawnSync('tmux', ['-S', socket, 'kill-server']);
  rmSync(sandbox.root, { recursive: true, force: true });
});

describe('jp __complete', () => {
  it('lists conversations, most recent first, one `id<TAB>title` a line, control characters shown', async () => {
    expect(ids).toHaveLength(2);
    const out = await jp(['__complete', 'conversations']);
    expect(out).toBe(`${ids[0]}\tsecond title\\x1b]0;owned\\x07\n${ids[1]}\tfirst title\n`);
    expect(await jp(['__complete', 'conversations', ids[1]!.slice(0, 12)])).toBe(`${ids[1]}\tfirst title\n`);
  });

  it('lists declared attachments of the active conversation, or of --id', async () => {
    expect(await jp(['__complete', 'attachments'])).toBe('notes.md\t#1\n');
    expect(await jp(['__complete', '--id', ids[1]!, 'attachments'])).toBe('');
  });

  it('lists MCP servers and models from the config files', async () => {
    expect(await jp(['__complete', 'mcp-servers'])).toBe('notes\tnotes-server\nsearch\tsearch-server\n');
    const models = (await jp(['__complete', 'models'])).split('\n');
    expect(models[0]).toBe('echo\tconfigured');
    expect(models).toContain('anthropic/');
  });

  it('prints nothing and succeeds outside a workspace, for an unknown kind and for a bad --id', async () => {
    for (const args of [['__complete', 'conversations'], ['__complete', 'nonsense'], ['__complete', '-w', '/nowhere', 'models', 'a', 'b']]) {
      const result = await runJp(args, { cwd: sandbox.root, env });
      expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    }
    const result = await runJp(['__complete', '--id', 'zzzz', 'attachments'], { cwd: ws, env });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('is not a command of the CLI', async () => {
    expect(await jp(['--help'])).not.toContain('__complete');
  });
});

describe('bash', () => {
  it('registers _jp and completes conversation ids through jp __complete', () => {
    const script = [
      'eval "$(jp completion bash)"',
      'complete -p jp',
      't() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _jp; printf "<%s>\\n" "${COMPREPLY[@]}"; }',
      't jp c use ""',
      'COMP_TYPE=63 t jp conversation show ""',
      't jp attachment rm ""',
      't jp mcp resources s',
      't jp -w ../ws query --id ""',
    ].join('\n');
    const result = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { cwd: ws, env, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    const [registered, ...lines] = result.stdout.split('\n');
    expect(registered).toBe('complete -F _jp jp');
    expect(lines).toEqual([
      `<${ids[0]}>`,
      `<${ids[1]}>`,
      `<${ids[0]}  (second title\\x1b]0;owned\\x07)>`,
      `<${ids[1]}  (first title)>`,
      '<notes.md>',
      '<search>',
      `<${ids[0]}>`,
      `<${ids[1]}>`,
      '',
    ]);
  });
});

/** The tests' own tmux server, its socket in the sandbox (removed with it). */
const socket = path.join(sandbox.root, 'tmux.sock');

function tmux(...args: string[]) {
  return spawnSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { cwd: ws, env, encoding: 'utf8' });
}

/** Waits until the pane shows what `done` accepts; returns what it shows. */
async function screenUntil(session: string, done: (screen: string) => boolean): Promise<string> {
  let screen = '';
  for (let i = 0; i < 100; i++) {
    screen = tmux('capture-pane', '-p', '-t', session).stdout;
    if (done(screen)) return screen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return screen;
}

/** Starts an interactive shell in a terminal 200 columns wide and waits for its prompt (`READY>`). */
async function startShell(session: string, command: string): Promise<void> {
  const started = tmux('new-session', '-d', '-s', session, '-x', '200', '-y', '40', '-c', ws, command);
  expect(started.status, started.stderr).toBe(0);
  await screenUntil(session, (screen) => screen.includes('READY>'));
}

describe('in a real terminal', { timeout: 30_000 }, () => {
  it.skipIf(!hasZsh || !hasTmux)(`zsh lists conversation ids with titles on Tab after \`jp c use \`${missing({ zsh: hasZsh, tmux: hasTmux })}`, async () => {
    const zdotdir = path.join(sandbox.root, 'zdotdir');
    mkdirSync(zdotdir, { recursive: true });
    writeFileSync(path.join(zdotdir, '.zshrc'), `autoload -Uz compinit && compinit -i -d ${zdotdir}/.zcompdump\neval "$(jp completion zsh)"\nPS1='READY> '\n`);
    await startShell('zsh', `env ZDOTDIR=${zdotdir} zsh -i`);
    tmux('send-keys', '-t', 'zsh', 'jp c use ', 'Tab');
    await screenUntil('zsh', (screen) => !screen.includes('READY> jp c use \n'));
    tmux('send-keys', '-t', 'zsh', 'Tab');
    const screen = await screenUntil('zsh', (s) => s.includes(ids[0]!) && s.includes(ids[1]!));
    expect(screen).toContain(`${ids[1]}  -- first title`);
    expect(screen).toContain(`${ids[0]}  -- second title\\x1b]0;owned\\x07`);
    expect(screen).not.toContain('command not found');
    // A single match is inserted whole; the shell's PATH is intact afterwards.
    // (a key typed after Tab waits for the completion: `!` shows the space the pane would trim)
    tmux('send-keys', '-t', 'zsh', 'C-u', 'jp mcp resources n', 'Tab', '!');
    expect(await screenUntil('zsh', (s) => s.includes('READY> jp mcp resources notes !'))).toContain('READY> jp mcp resources notes !');
    tmux('send-keys', '-t', 'zsh', 'C-u', 'command -v grep', 'Enter');
    expect(await screenUntil('zsh', (s) => /\/grep\b/.test(s))).not.toContain('command not found');
  });

  it.skipIf(!hasTmux)(`bash completes \`jp c use \` on Tab${missing({ tmux: hasTmux })}`, async () => {
    const rc = path.join(sandbox.root, 'bashrc');
    writeFileSync(rc, `eval "$(jp completion bash)"\nPS1='READY> '\n`);
    await startShell('bash', `bash --noprofile --rcfile ${rc} -i`);
    tmux('send-keys', '-t', 'bash', `jp c use ${ids[1]!.slice(0, 12)}`, 'Tab', '!');
    expect(await screenUntil('bash', (s) => s.includes(`READY> jp c use ${ids[1]} !`))).toContain(`READY> jp c use ${ids[1]} !`);
    // Typed up to where the ids differ, the first Tab has nothing to insert and the second lists.
    let common = ids[0]!;
    while (!ids[1]!.startsWith(common)) common = common.slice(0, -1);
    tmux('send-keys', '-t', 'bash', 'C-u', `jp c use ${common}`, 'Tab', 'Tab');
    const screen = await screenUntil('bash', (s) => s.includes('(first title)'));
    expect(screen).toContain(`${ids[1]}  (first title)`);
    expect(screen).not.toContain('command not found');
  });
});

describe('fish', () => {
  it.skipIf(!hasFish)(`offers conversation ids with titles, attachments and -F values${missing({ fish: hasFish })}`, () => {
    const script = ['jp completion fish | source', 'complete -C "jp c use "', 'echo ---', 'complete -C "jp a rm "', 'echo ---', 'complete -C "jp -F "'].join('\n');
    const result = spawnSync('fish', ['--no-config', '-c', script], { cwd: ws, env, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout.split('---\n')).toEqual([
      `${ids[0]}\tsecond title\\x1b]0;owned\\x07\n${ids[1]}\tfirst title\n`,
      'notes.md\t#1\n',
      'text\toutput format\njson\toutput format\n',
    ]);
  });
});
