import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { JP_BIN } from './run-jp.ts';

export interface PtyResult {
  code: number | null;
  /** Everything the terminal received (stdout and stderr share it), decoded as UTF-8. */
  terminal: string;
}

/** A tiny launcher: jp's arguments arrive in a JSON file, so no shell quoting touches them. */
const PTY_LAUNCHER = [
  "import { spawnSync } from 'node:child_process';",
  "import { openSync, readFileSync } from 'node:fs';",
  "const { bin, args, stdout } = JSON.parse(readFileSync(process.argv[2], 'utf8'));",
  "const out = stdout === undefined ? 'inherit' : openSync(stdout, 'w');",
  "const run = spawnSync(process.execPath, [bin, ...args], { stdio: ['inherit', out, 'inherit'] });",
  'process.exit(run.status ?? 1);',
  '',
].join('\n');

let runs = 0;

/**
 * Runs the built jp under `script -q -e -c … /dev/null` (util-linux), so stdin, stdout and stderr
 * are a real pty `columns` wide (`stty cols`; 0 is a terminal that reports no width). Arguments
 * travel in a JSON file read by a tiny launcher, so no shell quoting touches them; `stdoutFile`
 * sends jp's stdout to a file while stderr stays on the terminal. `answers` are typed, in order,
 * each once the terminal shows its marker (a prompt). `bin`: another build than `JP_BIN`.
 */
export function runOnPty(
  root: string,
  args: string[],
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    columns?: number;
    stdoutFile?: string;
    timeoutMs?: number;
    answers?: ReadonlyArray<[marker: string, keys: string]>;
    bin?: string;
  },
): Promise<PtyResult> {
  const launcher = path.join(root, 'pty-launch.mjs');
  writeFileSync(launcher, PTY_LAUNCHER);
  const spec = path.join(root, `pty-run-${++runs}.json`);
  writeFileSync(spec, JSON.stringify({ bin: options.bin ?? JP_BIN, args, stdout: options.stdoutFile }));
  const command = `stty cols ${options.columns ?? 400} rows 50 && '${process.execPath}' '${launcher}' '${spec}'`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
      cwd: options.cwd,
      // A test reads what jp printed: long output is not handed to a pager unless the test names one.
      env: { PAGER: 'cat', ...options.env, SHELL: '/bin/sh' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    const pending = [...(options.answers ?? [])];
    let seen = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const next = pending[0];
      if (next === undefined) return;
      const at = Buffer.concat(chunks).toString('utf8').indexOf(next[0], seen);
      if (at === -1) return;
      seen = at + next[0].length;
      pending.shift();
      child.stdin.write(next[1]);
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      if (stderr !== '') reject(new Error(`script: ${stderr}`));
      resolve({ code, terminal: Buffer.concat(chunks).toString('utf8') });
    });
  });
}
