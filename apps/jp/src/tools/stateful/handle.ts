import type { ContentBlock, InputRequest } from '@jp/core';

// The interface every stateful-tool mode implements (RFD 019). The registry only knows this
// shape; `process` and `protocol` handles are interchangeable behind it.

export type HandleStatus = 'running' | 'waiting' | 'stopped';

/** One reply of a handle: what is new since the last reply, and its state now. */
export interface HandleReply {
  status: HandleStatus;
  content: ContentBlock[];
  isError: boolean;
  /** Set when `status` is 'stopped' and the program exited (null: killed by a signal). */
  exitCode?: number | null;
}

export interface StatefulHandle {
  readonly id: string;
  readonly status: HandleStatus;
  /** New output or state; waits up to `waitMs` for something new (0: answer at once). */
  fetch(waitMs: number, signal?: AbortSignal): Promise<HandleReply>;
  /** Input for the program: a line on stdin (process), or the answer to the pending question / an apply command (protocol). */
  apply(input: unknown, signal?: AbortSignal): Promise<HandleReply>;
  /** Stops the program (SIGTERM to its process group, SIGKILL after `graceMs`); resolves with its final reply. */
  abort(): Promise<HandleReply>;
}

export interface SpawnOptions {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The model's spawn arguments (the tool's own `parameters`), without `action` and `id`. */
  arguments: Record<string, unknown>;
  graceMs: number;
  /** Output kept per handle; older bytes are dropped and the next reply says how many. */
  bufferBytes: number;
  /** Asks the person at the terminal (or takes the default without one) — for questions a tool marks `_meta["computer.jp/target"] = "user"`. */
  askUser: (question: InputRequest) => Promise<unknown>;
  /** Warnings for the user (e.g. malformed NDJSON lines skipped). */
  warn: (message: string) => void;
}

export type SpawnHandle = (id: string, options: SpawnOptions) => Promise<StatefulHandle>;
