import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { ContentBlock } from '@jp/core';
import { killProcessGroup, trackProcessGroup } from '@jp/attachments';
import type { HandleReply, HandleStatus, SpawnHandle, SpawnOptions, StatefulHandle } from './handle.ts';
import { startToolProcess } from './start-tool-process.ts';
import { HandleInputError } from './handle-input-error.ts';
import { Wakeups } from './wakeups.ts';

/**
 * How long jp waits, after the program exited, for its output pipes to close. A child it left
 * behind may hold them open for ever; the program is over all the same.
 */
const PIPE_DRAIN_MS = 100;

/**
 * After new output wakes a waiting fetch, how long it keeps listening while output keeps coming
 * (at most `SETTLE_MAX_MS` in all): a program that prints its last words and exits is then
 * reported `stopped` in the same reply, and a line written in pieces arrives whole.
 */
const SETTLE_QUIET_MS = 5;
const SETTLE_MAX_MS = 20;

/** The output a process handle has not handed out yet, capped: the oldest bytes go first. */
class OutputBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  dropped = 0;
  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.byteLength;
    while (this.size > this.cap) {
      const first = this.chunks[0]!;
      const over = this.size - this.cap;
      if (first.byteLength <= over) {
        this.chunks.shift();
        this.size -= first.byteLength;
        this.dropped += first.byteLength;
      } else {
        this.chunks[0] = first.subarray(over);
        this.size -= over;
        this.dropped += over;
      }
    }
  }

  get empty(): boolean {
    return this.size === 0 && this.dropped === 0;
  }

  take(): { text: string; dropped: number } {
    const text = Buffer.concat(this.chunks).toString('utf8');
    const dropped = this.dropped;
    this.chunks = [];
    this.size = 0;
    this.dropped = 0;
    return { text, dropped };
  }
}

/**
 * `stateful = "process"`: a plain program in its own process group, its stdout and stderr
 * gathered in one capped buffer, its stdin open for `apply`. The model's spawn arguments reach it
 * as JSON in `JP_TOOL_ARGUMENTS` (stdin belongs to `apply`).
 */
export const spawnProcessHandle: SpawnHandle = async (id, options) => {
  const child = await startToolProcess(options.command, options.args, options.cwd, { ...options.env, JP_TOOL_ARGUMENTS: JSON.stringify(options.arguments) });
  return new ProcessHandle(id, child, options);
};

class ProcessHandle implements StatefulHandle {
  status: HandleStatus = 'running';
  private readonly output: OutputBuffer;
  private exitCode: number | null | undefined;
  private exitSignal: NodeJS.Signals | null = null;
  private reportedStopped = false;
  private abortedByJp = false;
  private stdinOpen = true;
  private readonly wakeups = new Wakeups();
  private readonly stoppedPromise: Promise<void>;
  private readonly tracked: { release(): void };

  constructor(
    readonly id: string,
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly options: SpawnOptions,
  ) {
    this.output = new OutputBuffer(options.bufferBytes);
    this.tracked = trackProcessGroup(child.pid!);
    const onData = (chunk: Buffer) => {
      this.output.push(chunk);
      this.wake();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // An error after the start (a failed kill of a group already gone) must not crash jp; the
    // handle's state comes from 'exit' and 'close'.
    child.on('error', () => {});
    child.stdin.on('error', () => {
      this.stdinOpen = false;
    });
    child.stdin.on('close', () => {
      this.stdinOpen = false;
    });
    this.stoppedPromise = new Promise((resolve) => {
      let drainTimer: NodeJS.Timeout | undefined;
      const stop = () => {
        if (this.status === 'stopped') return;
        clearTimeout(drainTimer);
        this.status = 'stopped';
        this.stdinOpen = false;
        this.tracked.release();
        // Whatever the program left behind in its group goes with it.
        killProcessGroup(child.pid!);
        this.wake();
        resolve();
      };
      child.once('exit', (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        drainTimer = setTimeout(stop, PIPE_DRAIN_MS);
      });
      child.once('close', stop);
    });
  }

  private wake(): void {
    this.wakeups.notify();
  }

  private hasNews(): boolean {
    return !this.output.empty || (this.status === 'stopped' && !this.reportedStopped);
  }

  private reply(extra: ContentBlock[] = []): HandleReply {
    const content: ContentBlock[] = [...extra];
    const { text, dropped } = this.output.take();
    if (dropped > 0) content.push({ type: 'text', text: `[${dropped} bytes of earlier output were dropped: the buffer keeps ${this.options.bufferBytes}]` });
    if (text !== '') content.push({ type: 'text', text });
    if (this.status !== 'stopped') {
      if (content.length === 0) content.push({ type: 'text', text: '(no new output)' });
      return { status: this.status, content, isError: false };
    }
    this.reportedStopped = true;
    const how = this.exitSignal !== null ? `was killed by ${this.exitSignal}` : `exited with code ${this.exitCode}`;
    content.push({ type: 'text', text: `[the program ${how}]` });
    const failed = this.exitSignal !== null ? !this.abortedByJp : this.exitCode !== 0;
    return { status: 'stopped', content, isError: failed, exitCode: this.exitSignal !== null ? null : (this.exitCode ?? null) };
  }

  async fetch(waitMs: number, signal?: AbortSignal): Promise<HandleReply> {
    if (waitMs > 0 && !this.hasNews() && !signal?.aborted) {
      const woke = await this.nextEvent(waitMs, signal);
      const settleUntil = Date.now() + SETTLE_MAX_MS;
      if (woke) {
        while (this.status !== 'stopped' && !signal?.aborted) {
          const left = settleUntil - Date.now();
          if (left <= 0 || !(await this.nextEvent(Math.min(SETTLE_QUIET_MS, left), signal))) break;
        }
      }
    }
    return this.reply();
  }

  /** Resolves true at the next output or state change, false after `ms` or on `signal`. */
  private nextEvent(ms: number, signal?: AbortSignal): Promise<boolean> {
    return this.wakeups.next(ms, signal);
  }

  async apply(input: unknown, signal?: AbortSignal): Promise<HandleReply> {
    if (typeof input !== 'string') throw new HandleInputError('"input" must be a string: the line written to the program\'s stdin');
    if (this.status === 'stopped') throw new HandleInputError(`handle ${this.id} has stopped; its stdin is closed`);
    if (!this.stdinOpen || this.child.stdin.destroyed || this.child.stdin.writableEnded) {
      throw new HandleInputError(`handle ${this.id}: the program closed its stdin; it takes no input`);
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(new HandleInputError('interrupted'));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.child.stdin.write(`${input}\n`, (error) => {
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(new HandleInputError(`handle ${this.id}: writing to the program's stdin failed: ${error.message}`));
        else resolve();
      });
    });
    // The output stays for the next fetch: apply only says the line went in.
    return { status: this.status, content: [{ type: 'text', text: `wrote ${Buffer.byteLength(input) + 1} bytes to stdin` }], isError: false };
  }

  async abort(): Promise<HandleReply> {
    if (this.status !== 'stopped') {
      this.abortedByJp = true;
      try {
        process.kill(-this.child.pid!, 'SIGTERM');
      } catch {
        // Already gone.
      }
      const timer = setTimeout(() => killProcessGroup(this.child.pid!), this.options.graceMs);
      await this.stoppedPromise;
      clearTimeout(timer);
    }
    return this.reply();
  }
}
