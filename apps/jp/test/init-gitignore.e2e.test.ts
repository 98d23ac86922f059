import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JP_BIN, expectOneLineError, makeSandbox, runJp } from './helpers/run-jp.ts';

/** One shell word in single quotes. */
const sq = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * Runs jp under `script` (a real pty on stdin, stdout and stderr), typing `keys` once the terminal
 * shows `marker`. Returns the exit code and everything the terminal showed.
 */
function onTerminal(args: string[], cwd: string, env: NodeJS.ProcessEnv, answer?: { marker: string; keys: string }): Promise<{ code: number | null; terminal: string }> {
  const command = [process.execPath, JP_BIN, ...args].map(sq).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd, env: { ...env, SHELL: '/bin/sh' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let terminal = '';
    let answered = answer === undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      terminal += chunk.toString('utf8');
      if (!answered && terminal.includes(answer!.marker)) {
        answered = true;
        child.stdin.write(answer!.keys);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, terminal });
    });
  });
}

// `jp init` and .gitignore: by default conversations are not ignored (a team may commit them);
// --gitignore adds `.jp/`, a terminal is asked (default no), a script never is.
describe('jp init and .gitignore', { timeout: 30_000 }, () => {
  const { root, env } = makeSandbox();
  let n = 0;
  const fresh = (gitignore?: string) => {
    const dir = path.join(root, `ws-${++n}`);
    mkdirSync(dir, { recursive: true });
    if (gitignore !== undefined) writeFileSync(path.join(dir, '.gitignore'), gitignore);
    return dir;
  };
  const gitignoreOf = (dir: string) => readFileSync(path.join(dir, '.gitignore'), 'utf8');

  it('--gitignore creates .gitignore with .jp/, or appends it keeping the final newline as it was; -F json says so', async () => {
    const none = fresh();
    const created = await runJp(['-F', 'json', 'init', '--gitignore'], { cwd: none, env });
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({ workspace: none, created: true, gitignore: 'added' });
    expect(gitignoreOf(none)).toBe('.jp/\n');

    const noNewline = fresh('node_modules/\ndist');
    expect((await runJp(['init', '--gitignore'], { cwd: noNewline, env })).stdout).toBe(`Initialised jp workspace in ${noNewline}\nAdded .jp/ to .gitignore\n`);
    expect(gitignoreOf(noNewline)).toBe('node_modules/\ndist\n.jp/');
    // No temporary file left beside it.
    expect(readdirSync(noNewline).sort()).toEqual(['.gitignore', '.jp']);
  });

  it('--gitignore does not add a line that is there already, in any equivalent spelling', async () => {
    const dir = fresh('/.jp/\nnode_modules/\n');
    const result = await runJp(['-F', 'json', 'init', '--gitignore'], { cwd: dir, env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).gitignore).toBe('already_ignored');
    expect(gitignoreOf(dir)).toBe('/.jp/\nnode_modules/\n');
    // Again on an existing workspace: still one line.
    const plain = fresh('dist\n');
    await runJp(['init', '--gitignore'], { cwd: plain, env });
    const again = await runJp(['init', '--gitignore'], { cwd: plain, env });
    expect(again.stdout).toBe(`${plain} is already a jp workspace\n.gitignore already ignores .jp/\n`);
    expect(gitignoreOf(plain)).toBe('dist\n.jp/\n');
  });

  it('off a terminal, without the flag, nothing is asked and .gitignore is left alone', async () => {
    const dir = fresh('dist\n');
    const result = await runJp(['-F', 'json', 'init'], { cwd: dir, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ workspace: dir, created: true, gitignore: 'not_added' });
    expect(gitignoreOf(dir)).toBe('dist\n');
    const none = fresh();
    expect((await runJp(['init'], { cwd: none, env })).code).toBe(0);
    expect(existsSync(path.join(none, '.gitignore'))).toBe(false);
  });

  it('on a terminal, asks; Enter means no, y adds the line', async () => {
    const no = fresh('dist\n');
    const declined = await onTerminal(['init'], no, env, { marker: 'Add .jp/ to .gitignore?', keys: '\r' });
    expect(declined.code, declined.terminal).toBe(0);
    expect(declined.terminal).toMatch(/Add \.jp\/ to \.gitignore\?[\s\S]*\(y\/N\)[\s\S]*No/);
    expect(gitignoreOf(no)).toBe('dist\n');
    expect(existsSync(path.join(no, '.jp', 'config.toml'))).toBe(true);

    const yes = fresh('dist\n');
    const accepted = await onTerminal(['init'], yes, env, { marker: 'Add .jp/ to .gitignore?', keys: 'y\r' });
    expect(accepted.code, accepted.terminal).toBe(0);
    expect(accepted.terminal).toContain('Added .jp/ to .gitignore');
    expect(gitignoreOf(yes)).toBe('dist\n.jp/\n');
  });

  it('on a terminal, --no-gitignore silences the question, and so does a .gitignore that ignores .jp/ already', async () => {
    const silenced = fresh('dist\n');
    const result = await onTerminal(['init', '--no-gitignore'], silenced, env);
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).not.toContain('.gitignore?');
    expect(gitignoreOf(silenced)).toBe('dist\n');

    const ignored = fresh('.jp\n');
    const quiet = await onTerminal(['init'], ignored, env);
    expect(quiet.code, quiet.terminal).toBe(0);
    expect(quiet.terminal).not.toContain('.gitignore?');
  });

  it('a .gitignore that cannot be written: exit 1, one line saying what to do; the workspace is made', async () => {
    const dir = fresh();
    mkdirSync(path.join(dir, '.gitignore'));
    const result = await runJp(['init', '--gitignore'], { cwd: dir, env });
    expectOneLineError(result, 1, /^jp: cannot add \.jp\/ to \.gitignore: it is a directory; add the line yourself, or run jp init --no-gitignore$/);
    expect(statSync(path.join(dir, '.jp')).isDirectory()).toBe(true);

    // A directory nobody may write to. Root writes anywhere, so as root the binary runs as an
    // unprivileged user for this case, from a copy of the (self-contained) bundle it can reach.
    const asRoot = process.getuid?.() === 0;
    const bin = path.join(root, 'dist', 'jp.js');
    if (asRoot) {
      cpSync(path.dirname(JP_BIN), path.dirname(bin), { recursive: true });
      for (const dir of [root, path.dirname(bin)]) chmodSync(dir, 0o755);
    }
    const locked = fresh('dist\n');
    chmodSync(locked, 0o555);
    const refused = await runJp(['init', '--gitignore'], { cwd: locked, env, ...(asRoot ? { uid: 65534, gid: 65534, bin } : {}) });
    expectOneLineError(refused, 1, /cannot (add \.jp\/ to \.gitignore|create)/);
    expect(existsSync(path.join(locked, '.jp'))).toBe(false);
    chmodSync(locked, 0o755);
  });
});
