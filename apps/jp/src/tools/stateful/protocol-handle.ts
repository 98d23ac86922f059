import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { ContentBlock, InputRequest } from '@jp/core';
import { stderrTail } from '@jp/attachments';
import { canonicalFileUri } from '../../resolution/canonical-file-uri.ts';
import type { HandleReply, HandleStatus, SpawnHandle, SpawnOptions, StatefulHandle } from './handle.ts';
import { startToolProcess } from './start-tool-process.ts';
import { NdjsonLines } from './ndjson-lines.ts';
import { ResponseQueue } from './response-queue.ts';
import { Wakeups } from './wakeups.ts';
import { parseProtocolLine } from './protocol-response.ts';
import { checkAnswer } from './check-answer.ts';

/** How long `apply` waits for the tool's reply to the input before returning what there is. */
const APPLY_REPLY_WAIT_MS = 2000;
/** How long stdout is still read after the program exits (a child of it may hold the pipe open). */
const STDOUT_AFTER_EXIT_MS = 200;
/** How long `abort` waits for the program to go after SIGKILL before it replies anyway. */
const AFTER_KILL_WAIT_MS = 5000;
/** Only stderr's tail is ever shown. */
const STDERR_KEEP_BYTES = 64 * 1024;

/** A command jp writes to the tool's stdin, one JSON object per line (RFD 019, protocol mode). */
export type ProtocolCommand =
  | { action: 'spawn'; arguments: Record<string, unknown> }
  | { action: 'apply'; id?: string; input: unknown }
  | { action: 'abort' };

const text = (value: string): ContentBlock => ({ type: 'text', text: value });

/**
 * A program that speaks the stateful protocol itself (`stateful = "protocol"`): jp writes NDJSON
 * commands on its stdin and reads NDJSON RFD 058 responses from its stdout. The handle queues the
 * responses until the next `fetch`/`apply`, which merges them into one reply whose status is the
 * latest. Questions marked for the user are answered here, through `askUser`, and never reach the
 * model; the others wait for the model's `apply`.
 */
class ProtocolHandle implements StatefulHandle {
  status: HandleStatus = 'running';
  private readonly responses: ResponseQueue;
  /** Everything a waiting `fetch` or `apply` wakes up for: a response, dropped bytes, the exit. */
  private readonly news = new Wakeups();
  /** The model's questions from the latest `waiting` response, answered in order by `apply`. */
  private pending: InputRequest[] = [];
  private userAnswers: Promise<void> = Promise.resolve();
  private readonly lines: NdjsonLines;
  private stderr: Buffer[] = [];
  private stderrBytes = 0;
  private stdoutClosed = false;
  private stdoutChunks = 0;
  private exitSeen: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private exitReported = false;
  private stoppedByTool = false;
  private aborted = false;
  private abortion: Promise<HandleReply> | undefined;
  private lineNumber = 0;

  constructor(
    readonly id: string,
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly options: SpawnOptions,
  ) {
    this.lines = new NdjsonLines(options.bufferBytes);
    this.responses = new ResponseQueue(options.bufferBytes);
    child.stdin.on('error', () => {
      // A tool that exits (or closes stdin) before reading a command: the exit is what counts.
    });
    child.on('error', () => {
      // Signalling a process that is already gone; the exit event tells the rest.
    });
    child.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
    child.stdout.on('close', () => {
      for (const line of this.lines.end()) this.onLine(line);
      this.stdoutClosed = true;
      if (this.exitSeen) this.finish();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr.push(chunk);
      this.stderrBytes += chunk.byteLength;
      while (this.stderrBytes > STDERR_KEEP_BYTES && this.stderr.length > 1) this.stderrBytes -= this.stderr.shift()!.byteLength;
    });
    child.on('exit', (code, signal) => {
      this.exitSeen = { code, signal };
      if (this.stdoutClosed) this.finish();
      else this.closeStdoutWhenQuiet();
    });
  }

  /**
   * After the exit, stdout is read until it closes; a child of the program that keeps the pipe open
   * (and quiet) does not keep the handle from stopping. A chunk read since the last look re-arms
   * the wait, and the look comes only after an I/O turn, so a busy event loop loses nothing.
   */
  private closeStdoutWhenQuiet(): void {
    const chunks = this.stdoutChunks;
    setTimeout(() => {
      setImmediate(() => {
        if (this.exited || this.stdoutClosed) return;
        if (this.stdoutChunks !== chunks) return this.closeStdoutWhenQuiet();
        this.child.stdout.destroy();
        this.finish();
      });
    }, STDOUT_AFTER_EXIT_MS).unref();
  }

  /**
   * Sends the spawn command and waits (as `apply` does) for the tool's first response or its exit.
   * The response stays queued for the next reply; without the wait, a quick `apply` could take the
   * spawn's late answer for its own and send the input before the tool's question arrived.
   */
  async start(args: Record<string, unknown>): Promise<void> {
    this.write({ action: 'spawn', arguments: args });
    await this.news.until(() => this.news.count > 0, APPLY_REPLY_WAIT_MS);
  }

  async fetch(waitMs: number, signal?: AbortSignal): Promise<HandleReply> {
    // Once the program is gone nothing new can come: no wait.
    const since = this.news.count;
    if (!this.hasNews() && !this.exited) await this.news.until(() => this.news.count > since, waitMs, signal);
    return this.settledReply(signal);
  }

  /** After a "stopped" response the exit follows; waiting for it (within the grace period) puts the exit code in the reply. */
  private async settledReply(signal?: AbortSignal): Promise<HandleReply> {
    if (this.stoppedByTool && !this.exited) await this.news.until(() => this.exited !== undefined, this.options.graceMs, signal);
    return this.reply();
  }

  async apply(input: unknown, signal?: AbortSignal): Promise<HandleReply> {
    if (this.exited || this.stoppedByTool || this.aborted || !this.child.stdin.writable) {
      const reply = this.reply();
      return { ...reply, content: [...reply.content, text(`handle ${this.id} has stopped; the input was not delivered`)], isError: true };
    }
    const question = this.pending[0];
    if (question) {
      const wrong = await checkAnswer(question, input);
      if (wrong !== undefined) {
        const reply = this.reply();
        const why = `the answer to question ${question.id} does not fit its schema (${wrong}); nothing was sent, the question is still open`;
        return { ...reply, content: [...reply.content, text(why)], isError: true };
      }
      this.pending.shift();
    }
    if (this.status === 'waiting' && this.pending.length === 0) this.status = 'running';
    const since = this.news.count;
    this.write(question ? { action: 'apply', id: question.id, input } : { action: 'apply', input });
    // With more questions of the same response open, the tool waits for those answers, not jp.
    if (this.pending.length === 0) await this.news.until(() => this.news.count > since, APPLY_REPLY_WAIT_MS, signal);
    return this.settledReply(signal);
  }

  abort(): Promise<HandleReply> {
    this.abortion ??= (async () => {
      if (!this.exited) {
        this.aborted = true;
        this.pending = [];
        this.write({ action: 'abort' });
        this.child.stdin.end();
        // A "stopped" response is the tool's own goodbye; its exit follows, and the wait is for that.
        await this.news.until(() => this.exited !== undefined, this.options.graceMs);
      }
      await this.terminate();
      return this.reply();
    })();
    return this.abortion;
  }

  /** SIGTERM to the process group, SIGKILL after the grace period; the group is killed even after the leader exits. */
  private async terminate(): Promise<void> {
    if (!this.exited) {
      this.signalGroup('SIGTERM');
      await this.news.until(() => this.exited !== undefined, this.options.graceMs);
    }
    // Members that ignored SIGTERM or outlived the leader go too.
    this.signalGroup('SIGKILL');
    if (!this.exited) await this.news.until(() => this.exited !== undefined, AFTER_KILL_WAIT_MS);
  }

  private signalGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.child.pid!, signal);
    } catch {
      // The group is gone (ESRCH): nothing left to stop.
    }
  }

  private write(command: ProtocolCommand): void {
    if (this.child.stdin.writable) this.child.stdin.write(`${JSON.stringify(command)}\n`);
  }

  private onStdout(chunk: Buffer): void {
    this.stdoutChunks += 1;
    for (const line of this.lines.push(chunk)) this.onLine(line);
    if (this.lines.droppedBytes > 0) {
      this.options.warn(`handle ${this.id}: a response longer than ${this.options.bufferBytes} bytes was dropped`);
      this.responses.drop(this.lines.droppedBytes);
      this.lines.droppedBytes = 0;
      this.news.notify();
    }
  }

  private onLine(line: string): void {
    this.lineNumber += 1;
    if (line.trim() === '') return;
    const parsed = parseProtocolLine(line, (uri) => canonicalFileUri(uri, this.options.cwd));
    if (!parsed.ok) {
      this.options.warn(`handle ${this.id}: output line ${this.lineNumber} was skipped: ${parsed.reason}`);
      return;
    }
    const response = parsed.response;
    for (const warning of response.warnings) this.options.warn(`handle ${this.id}: ${warning}`);
    const forUser = response.questions.filter((entry) => entry.target === 'user').map((entry) => entry.question);
    const forModel = response.questions.filter((entry) => entry.target === 'model').map((entry) => entry.question);
    const userIds = new Set(forUser.map((question) => question.id));
    const content = response.content.filter((block) => !(block.type === 'question' && userIds.has(block.question.id)));

    if (response.status === 'stopped') {
      this.stoppedByTool = true;
      this.pending = [];
      this.status = 'stopped';
      // The tool is done: stdin's end tells it so, and the group goes after the grace period.
      this.child.stdin.end();
      setTimeout(() => void this.terminate(), this.options.graceMs).unref();
    } else if (!this.aborted) {
      this.pending = forModel;
      // Questions jp answers itself leave the handle running from the model's point of view.
      this.status = response.status === 'waiting' && forModel.length === 0 && forUser.length > 0 ? 'running' : response.status;
    }
    this.enqueue(content, response.isError);
    for (const question of forUser) this.askUser(question);
  }

  /** Answers a user-targeted question (one at a time, in order) and sends the answer to the tool. */
  private askUser(question: InputRequest): void {
    this.userAnswers = this.userAnswers.then(async () => {
      if (this.exited || this.aborted || this.stoppedByTool) return;
      try {
        const input = await this.options.askUser(question);
        this.write({ action: 'apply', id: question.id, input });
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        this.enqueue([text(`the tool asked the user a question that got no answer (${why}); the tool was stopped`)], true);
        void this.abort();
      }
    });
  }

  private enqueue(content: ContentBlock[], isError: boolean): void {
    this.responses.push(content, isError);
    this.news.notify();
  }

  private finish(): void {
    if (this.exited || !this.exitSeen) return;
    this.exited = this.exitSeen;
    // What the program left behind in its group (a server it started) goes with it.
    if (!this.aborted) this.signalGroup('SIGTERM');
    this.status = 'stopped';
    this.pending = [];
    this.news.notify();
  }

  private hasNews(): boolean {
    return this.responses.pending || (this.exited !== undefined && !this.exitReported);
  }

  /** Everything since the last reply, merged: contents in order, the latest status. */
  private reply(): HandleReply {
    const taken = this.responses.take();
    const content = taken.content;
    let isError = taken.isError;
    if (this.exited && !this.exitReported) {
      this.exitReported = true;
      const { code, signal } = this.exited;
      if (!this.stoppedByTool) {
        if (this.aborted) content.push(text(`(aborted${signal ? `: ${signal}` : ''})`));
        else {
          const how = signal ? `was killed by ${signal}` : `exited with ${code}`;
          const tail = stderrTail(Buffer.concat(this.stderr));
          content.push(text(`the tool ${how} without a "stopped" response${tail ? `: ${tail}` : ''}`));
          isError ||= code !== 0;
        }
      } else if (!this.aborted && code !== 0 && code !== null) isError = true;
    }
    const reply: HandleReply = { status: this.status, content, isError };
    if (this.status === 'stopped' && this.exited) reply.exitCode = this.exited.code;
    return reply;
  }
}

/**
 * Starts a protocol tool in its own process group (so abort reaches its children) and sends it
 * `{"action":"spawn","arguments":…}`. Rejects when the program cannot be started (ENOENT, EACCES).
 */
export const spawnProtocolHandle: SpawnHandle = async (id, options) => {
  const child = await startToolProcess(options.command, options.args, options.cwd, options.env);
  const handle = new ProtocolHandle(id, child, options);
  await handle.start(options.arguments);
  return handle;
};
