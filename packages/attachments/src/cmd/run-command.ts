import type { ChildProcess } from 'node:child_process';
import { killProcessGroup, trackProcessGroup } from './kill-process-group.ts';

export interface RunCommandOptions {
  program: string;
  args: readonly string[];
  cwd: string;
  /** Time from spawn to the end of output; then the whole process group is killed. */
  timeoutMs: number;
  /** Largest stdout accepted; one byte more kills the group. */
  maxOutputBytes: number;
  signal?: AbortSignal | undefined;
}

/** How a run ended. Nothing is thrown: the caller turns each outcome into its own message. */
export type CommandOutcome =
  | {
      kind: 'exited';
      /** `null` when a signal ended the program. */
      exitCode: number | null;
      signal: NodeJS.Signals | null;
      stdout: Uint8Array;
      /** The last `STDERR_KEPT` bytes of stderr at most. */
      stderr: Uint8Array;
      /** How many bytes the command wrote to stderr in all (more than `stderr` holds when cut). */
      stderrBytes: number;
    }
  | { kind: 'timeout' }
  | { kind: 'output_limit' }
  | { kind: 'aborted' }
  | { kind: 'spawn_failed'; error: NodeJS.ErrnoException };

/** How much of stderr is kept (the tail), for error messages and a failed run's resource. */
export const STDERR_KEPT = 4096;

/** Keeps the last `STDERR_KEPT` bytes of a stream without holding all of it. */
function stderrCollector(): { push(chunk: Buffer): void; bytes(): Uint8Array; total(): number } {
  let chunks: Buffer[] = [];
  let size = 0;
  let total = 0;
  return {
    push(chunk) {
      total += chunk.length;
      chunks.push(chunk);
      size += chunk.length;
      if (size > 2 * STDERR_KEPT) {
        const tail = Buffer.concat(chunks).subarray(-STDERR_KEPT);
        chunks = [tail];
        size = tail.length;
      }
    },
    bytes: () => new Uint8Array(Buffer.concat(chunks).subarray(-STDERR_KEPT)),
    total: () => total,
  };
}

/**
 * Runs one program without a shell, in `cwd`, with stdin closed. The child leads its own process
 * group (`detached`), so a timeout, an abort or too much output kills it and everything it
 * started with one signal. Output is collected until both pipes close, so a grandchild that keeps
 * stdout open is waited for (and killed by the timeout).
 */
export function runCommand(options: RunCommandOptions): Promise<CommandOutcome> {
  if (options.signal?.aborted === true) return Promise.resolve({ kind: 'aborted' });
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      // Loaded here, not with the module: `child_process` brings `net` and its kin, which a query
      // that runs no command does not need.
      const { spawn } = process.getBuiltinModule('node:child_process');
      child = spawn(options.program, [...options.args], {
        cwd: options.cwd,
        shell: false,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (error) {
      resolve({ kind: 'spawn_failed', error: error as NodeJS.ErrnoException });
      return;
    }
    const pid = child.pid;
    const tracked = pid === undefined ? undefined : trackProcessGroup(pid);
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    const stderr = stderrCollector();
    let settled = false;

    const finish = (outcome: CommandOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      tracked?.release();
      resolve(outcome);
    };
    const stop = (outcome: CommandOutcome): void => {
      if (settled) return;
      if (pid !== undefined) killProcessGroup(pid);
      child.stdout?.destroy();
      child.stderr?.destroy();
      finish(outcome);
    };
    const onAbort = (): void => stop({ kind: 'aborted' });
    const timer = setTimeout(() => stop({ kind: 'timeout' }), options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'spawn_failed', error }));
    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.maxOutputBytes) stop({ kind: 'output_limit' });
      else stdout.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('close', (exitCode: number | null, signal: NodeJS.Signals | null) => {
      const bytes = Buffer.concat(stdout);
      finish({ kind: 'exited', exitCode, signal, stdout: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), stderr: stderr.bytes(), stderrBytes: stderr.total() });
    });
  });
}
