import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand, STDERR_KEPT, type RunCommandOptions } from './run-command.ts';

const node = process.execPath;
const tree = fileURLToPath(new URL('./__fixtures__/process-tree.cjs', import.meta.url));
let dir: string;

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jp-cmd-')));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function run(args: string[], options: Partial<RunCommandOptions> = {}) {
  return runCommand({ program: node, args, cwd: dir, timeoutMs: 10_000, maxOutputBytes: 1024 * 1024, ...options });
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Gone, or a zombie nobody has reaped yet (PID 1 in a container may never reap it). */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function pidsFrom(file: string): Promise<number[]> {
  await until(() => fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes(' '), 'the process tree to start');
  return fs.readFileSync(file, 'utf8').split(' ').map(Number);
}

describe('runCommand', () => {
  it('collects stdout and the exit code, in cwd, with stdin closed', async () => {
    const outcome = await run(['-e', `process.stdin.on('data', () => {}).on('end', () => process.stdout.write('eof ' + process.cwd()))`]);
    expect(outcome).toMatchObject({ kind: 'exited', exitCode: 0, signal: null });
    expect(outcome.kind === 'exited' && text(outcome.stdout)).toBe(`eof ${dir}`);
  });

  it('reports a non-zero exit and a signal death with stderr', async () => {
    const failed = await run(['-e', `console.error('bad thing'); process.exit(3)`]);
    expect(failed).toMatchObject({ kind: 'exited', exitCode: 3, signal: null });
    expect(failed.kind === 'exited' && text(failed.stderr)).toBe('bad thing\n');
    expect(await run(['-e', `process.kill(process.pid, 'SIGTERM')`])).toMatchObject({ kind: 'exited', exitCode: null, signal: 'SIGTERM' });
  });

  it('keeps only the tail of a long stderr', async () => {
    const outcome = await run(['-e', `process.stderr.write('x'.repeat(50000) + 'END')`]);
    expect(outcome.kind).toBe('exited');
    if (outcome.kind !== 'exited') return;
    expect(outcome.stderr.length).toBe(STDERR_KEPT);
    expect(text(outcome.stderr).endsWith('xxEND')).toBe(true);
  });

  it('accepts stdout of exactly the limit and stops a command that writes more', async () => {
    const exact = await run(['-e', `process.stdout.write('a'.repeat(1000))`], { maxOutputBytes: 1000 });
    expect(exact.kind === 'exited' && exact.stdout.length).toBe(1000);
    expect(await run(['-e', `process.stdout.write('a'.repeat(1001))`], { maxOutputBytes: 1000 })).toEqual({ kind: 'output_limit' });
    // A writer that never stops is killed, not waited for.
    const endless = `const b = Buffer.alloc(65536, 97); (function w() { process.stdout.write(b, w); })()`;
    expect(await run(['-e', endless], { maxOutputBytes: 100_000 })).toEqual({ kind: 'output_limit' });
  });

  it('reports a program that cannot be started', async () => {
    const outcome = await runCommand({ program: 'jp-no-such-program-4c1d', args: [], cwd: dir, timeoutMs: 5000, maxOutputBytes: 1000 });
    expect(outcome.kind).toBe('spawn_failed');
    expect(outcome.kind === 'spawn_failed' && outcome.error.code).toBe('ENOENT');
  });

  it('on timeout kills the whole process group, grandchild included', async () => {
    const pidFile = path.join(dir, 'pids');
    const outcome = run([tree, pidFile], { timeoutMs: 1500 });
    const pids = await pidsFrom(pidFile);
    expect(pids.every((pid) => !isGone(pid))).toBe(true);
    expect(await outcome).toEqual({ kind: 'timeout' });
    await until(() => pids.every(isGone), 'the process group to die', 2000);
  });

  it('times out, and kills it, when a grandchild holds stdout after the command exited', async () => {
    const pidFile = path.join(dir, 'pids');
    const outcome = run([tree, pidFile, 'exit'], { timeoutMs: 1500 });
    const [grandchild = 0] = await pidsFrom(pidFile);
    expect(await outcome).toEqual({ kind: 'timeout' });
    await until(() => isGone(grandchild), 'the grandchild to die', 2000);
  });

  it('on abort kills the whole process group', async () => {
    const pidFile = path.join(dir, 'pids');
    const controller = new AbortController();
    const outcome = run([tree, pidFile], { signal: controller.signal });
    const pids = await pidsFrom(pidFile);
    controller.abort();
    expect(await outcome).toEqual({ kind: 'aborted' });
    await until(() => pids.every(isGone), 'the process group to die', 2000);
  });

  it('does not start a command when already aborted', async () => {
    const marker = path.join(dir, 'ran');
    const outcome = await run(['-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '')`], { signal: AbortSignal.abort() });
    expect(outcome).toEqual({ kind: 'aborted' });
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('listens for SIGINT, SIGTERM and SIGHUP only while a command runs', async () => {
    const counts = () => ['SIGINT', 'SIGTERM', 'SIGHUP', 'exit'].map((event) => process.listenerCount(event));
    const idle = counts();
    const pending = run(['-e', 'setTimeout(() => {}, 200)']);
    expect(counts()).toEqual(idle.map((count) => count + 1));
    expect(await pending).toMatchObject({ kind: 'exited', exitCode: 0 });
    expect(counts()).toEqual(idle);
  });
});
