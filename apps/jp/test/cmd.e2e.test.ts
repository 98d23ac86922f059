import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { JP_BIN, expectOneLineError, makeSandbox, readEvents, runJp, snapshotTree, turnsOf } from './helpers/run-jp.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
/** One shell word in single quotes. */
const sq = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
/** `cmd:` line running node itself, so the tests do not depend on what PATH holds. */
const nodeLine = (script: string) => `cmd:${sq(process.execPath)} -e ${sq(script)}`;
const nodeUrl = (script: string, params = '') => `cmd://${process.execPath}?arg=-e&arg=${encodeURIComponent(script)}${params}`;

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
}

/** Gone, or a zombie nobody has reaped yet (PID 1 in a container may never reap it). */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

// cmd attachments through the built binary: both URL forms, the stored resource, and each bad
// input giving one line on stderr, exit 4 and .jp/ byte for byte as it was.
describe('cmd attachments through the binary', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  const jpDir = path.join(ws, '.jp');
  const jp = (args: string[], cwd = ws) => runJp(args, { cwd, env });
  let id = '';

  const request = (turn: number) => turnsOf(readEvents(ws, id))[turn]!.find((event) => event.type === 'chat_request')!;

  beforeAll(async () => {
    mkdirSync(path.join(ws, 'sub'), { recursive: true });
    expect((await jp(['init'])).code).toBe(0);
    execFileSync('git', ['init', '-q', ws], { env });
    writeFileSync(path.join(ws, '.git', 'info', 'exclude'), '.jp/\n');
    writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
  });

  it('cmd:git status --short attaches the output, named by the command line', async () => {
    const result = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'cmd:git status --short', 'What changed?']);
    expect(result.code, result.stderr).toBe(0);
    const final = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    id = final.conversation;
    const output = '?? a.txt\n';
    expect(final.text).toContain(`  resource cmd:git status --short text/plain ${output.length} bytes sha256:${sha(output)}`);
    expect(request(0).resources).toEqual([{ uri: 'cmd:git status --short', mimeType: 'text/plain', name: 'git status --short', text: output }]);
    expect(turnsOf(readEvents(ws, id))[0]!.find((event) => event.type === 'config_delta')!.delta.conversation.attachments).toEqual([
      'cmd:git status --short',
    ]);
  });

  it('the cmd:// form keeps the URL as given and runs in the workspace root from a subdirectory', async () => {
    const url = 'cmd://git?arg=rev-parse&arg=--show-prefix&description=path%20prefix';
    const result = await jp(['query', '--attach', url, 'Where am I?'], path.join(ws, 'sub'));
    expect(result.code, result.stderr).toBe(0);
    // --show-prefix prints "sub/" when run in sub/; an empty line means the workspace root.
    expect(request(1).resources).toEqual([{ uri: url, mimeType: 'text/plain', name: 'git rev-parse --show-prefix', description: 'path prefix', text: '\n' }]);
    expect(result.stdout).toContain(`  resource ${url} text/plain 1 bytes sha256:${sha('\n')}`);
  });

  it('allow_failure=true attaches the output of a failing command, its stderr after a separator, and says how it ended', async () => {
    const script = 'process.stdout.write("partial"); console.error("boom"); process.exit(3)';
    const url = nodeUrl(script, '&allow_failure=true');
    const result = await jp(['query', '--attach', url, 'Tests?']);
    expect(result.code, result.stderr).toBe(0);
    expect(request(2).resources).toEqual([
      {
        uri: url,
        mimeType: 'text/plain',
        name: `${process.execPath} -e ${sq(script)}`,
        description: 'exited with code 3; stderr follows stdout after a "--- stderr ---" line',
        text: 'partial\n--- stderr ---\nboom\n',
      },
    ]);
  });

  it('--explain shows the model a failing command\'s stderr: the request carries stdout and stderr, nothing is stored', async () => {
    const before = snapshotTree(jpDir);
    const script = 'console.log("running 2 tests"); console.error("test it_works ... FAILED"); console.error("assertion failed: left == right"); process.exit(101)';
    const url = nodeUrl(script, '&allow_failure=true');
    const result = await jp(['query', '--new', '-m', 'echo', '--explain', '--attach', url, 'Why did the tests fail?']);
    expect(result.code, result.stderr).toBe(0);
    const expected = 'running 2 tests\n--- stderr ---\ntest it_works ... FAILED\nassertion failed: left == right\n';
    const explained = JSON.parse(result.stdout);
    expect(explained.request.turns[0].resources).toEqual([{ uri: url, mimeType: 'text/plain', bytes: Buffer.byteLength(expected), sha256: sha(expected) }]);
    expect(snapshotTree(jpDir)).toEqual(before);
  });

  it('a missing program: exit 4 naming it, .jp/ unchanged', async () => {
    const before = snapshotTree(jpDir);
    const result = await jp(['query', '--new', '-m', 'echo', '--attach', 'cmd:jp-no-such-program-4c1d --help', 'x']);
    expectOneLineError(result, 4, /^jp: cmd:jp-no-such-program-4c1d --help: program jp-no-such-program-4c1d not found on PATH; install it or check its name$/);
    expect(snapshotTree(jpDir)).toEqual(before);
  });

  it('a command that hangs: its process group is killed at the timeout, exit 4 naming the setting, .jp/ unchanged', async () => {
    const before = snapshotTree(jpDir);
    // sh starts at once and leaves a grandchild (sleep) in the group; both pids go to hang.pid.
    const line = `cmd:sh -c 'sleep 30 & echo $$ $! > hang.pid; wait'`;
    const result = await jp(['-c', 'conversation.attachment.cmd.timeout_secs=0.5', 'query', '--attach', line, 'x']);
    expectOneLineError(result, 4, /^jp: cmd:sh -c 'sleep 30 & echo \$\$ \$! > hang\.pid; wait' timed out after 0\.5 s; raise conversation\.attachment\.cmd\.timeout_secs$/);
    expect(snapshotTree(jpDir)).toEqual(before);
    const pids = readFileSync(path.join(ws, 'hang.pid'), 'utf8').trim().split(' ').map(Number);
    expect(pids).toHaveLength(2);
    await until(() => pids.every(isGone), 2000);
    expect(pids.filter((pid) => !isGone(pid))).toEqual([]);
  });

  it('a non-zero exit: exit 4 with the code and the tail of stderr, .jp/ unchanged', async () => {
    const before = snapshotTree(jpDir);
    const line = nodeLine(`console.error('warming up'); console.error('fatal: no such revision'); process.exit(3)`);
    const result = await jp(['query', '--attach', line, 'x']);
    expectOneLineError(result, 4, / exited with code 3: warming up \| fatal: no such revision; fix the command, or to attach its output anyway use cmd:\/\/.*&allow_failure=true$/);
    expect(snapshotTree(jpDir)).toEqual(before);
  });

  it('shell syntax is refused: exit 4, .jp/ unchanged', async () => {
    const before = snapshotTree(jpDir);
    const result = await jp(['query', '--attach', 'cmd:git log | head', 'x']);
    expectOneLineError(result, 4, /^jp: cmd:git log \| head: cmd: runs one program without a shell; `\|` is not supported — wrap it in a script$/);
    expect(snapshotTree(jpDir)).toEqual(before);
  });

  it('Ctrl-C while a command runs: jp stops with exit 130 and takes the command (its own session) with it', async () => {
    const before = snapshotTree(jpDir);
    const pidFile = path.join(ws, 'interrupted.pid');
    const child = spawn(process.execPath, [JP_BIN, 'query', '--new', '-m', 'echo', '--attach', `cmd:sh -c 'sleep 30 & echo $$ $! > interrupted.pid; wait'`, 'x'], {
      cwd: ws,
      env,
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').includes(' '), 4000)).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const pids = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
    await until(() => pids.every(isGone), 2000);
    expect(pids.filter((pid) => !isGone(pid))).toEqual([]);
    // Nothing was written; only the dead process's lock file stays (taken over by the next query).
    const after = Object.fromEntries(Object.entries(snapshotTree(jpDir)).filter(([file]) => !file.endsWith('/lock')));
    expect(after).toEqual(before);
  });
});
