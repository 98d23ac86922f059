import type { Resource } from '@jp/core';
import type { ReadAhead } from './file/read-ahead.ts';

/** Size limits every handler applies to what it reads. */
export interface AttachmentLimits {
  /** Bytes per resource before `sizePolicy` applies (default 512 KiB). */
  maxResourceBytes: number;
  /** Resources one declaration (directory or glob) may expand to (default 500). */
  maxFiles: number;
  /** What to do with a resource over `maxResourceBytes`; `ask` asks on a terminal, else rejects. */
  sizePolicy: 'allow' | 'truncate' | 'reject' | 'ask';
}

export const DEFAULT_LIMITS: AttachmentLimits = {
  maxResourceBytes: 512 * 1024,
  maxFiles: 500,
  sizePolicy: 'reject',
};

/** Limits of the network and process handlers (ARCHITECTURE §3: every fetch and command is bounded). */
export interface FetchLimits {
  /** Largest response body accepted (default 10 MiB). */
  maxBytes: number;
  /** Whole-request time limit, headers and body (default 30 s). */
  timeoutMs: number;
  /** Redirects followed before giving up (default 5). */
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { maxBytes: 10 * 1024 * 1024, timeoutMs: 30_000, maxRedirects: 5 };

export interface CommandLimits {
  /** Time a command may run before its process group is killed (default 30 s). */
  timeoutMs: number;
  /** Largest stdout accepted (default 10 MiB). */
  maxOutputBytes: number;
}

export const DEFAULT_COMMAND_LIMITS: CommandLimits = { timeoutMs: 30_000, maxOutputBytes: 10 * 1024 * 1024 };

/**
 * The MCP servers of this run, started on demand and reused (the pool lives in the app). The
 * handler sees only this: a connected SDK client per configured server name.
 */
export interface McpClients {
  /** Configured server names. */
  names(): string[];
  /** The connected client for a server; an AttachmentError when it is unknown or fails to start. */
  get(server: string): Promise<import('@modelcontextprotocol/client').Client>;
}

/** What `stat` says of a file. An unchanged stamp means unchanged content: the rule git's index relies on. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** The digest of a file's content as read earlier, under the file's stamp then. */
export interface KnownFileContent {
  sha256: string;
  byteLength: number;
}

/**
 * The app's memory of UTF-8 workspace files whose content it has stored (RFD 002, "Files seen
 * before"): a directory attached again is not read again where every file's stamp is unchanged;
 * its resource refers to the content by digest instead. Keys are `file://` URIs; nothing outside
 * the workspace is ever given to it.
 */
export interface FileContentCache {
  /**
   * The stamp under which this file's content was remembered, if any: a reader compares it with
   * the file's stamp now and calls `lookup` only when they are the same.
   */
  rememberedStamp(uri: string): FileStamp | undefined;
  /**
   * The content of the file whose stamp was exactly this when it was read (so `byteLength` is
   * `stamp.size`). Whether the store still holds it is the app's to check when it stores the turn.
   */
  lookup(uri: string, stamp: FileStamp): KnownFileContent | undefined;
  /** Records content just read from a file whose stamp, taken before the read, had settled. */
  remember(uri: string, stamp: FileStamp, digest: { sha256: string; byteLength: number }): void;
}

/**
 * A place in the app's blob store where a reader of many files writes their content as it reads
 * it, back to back: the resources refer to the content by digest, the app reads it back from here
 * when a stage needs it, and storing the turn adopts the file instead of writing the same bytes
 * again (RFD 008, "Spooled content"). The app discards what it never adopts.
 */
export interface ContentSpool {
  /** A new empty file for one writer (created, in the store's directory). */
  create(): string;
  /**
   * What of `file` the resources refer to: blob `sha256` at `[offset, offset + size)`. `done`: its
   * writer has ended, so nothing more will be written to the file (a reader stopped early may
   * still be writing when this is called).
   */
  written(file: string, blobs: ReadonlyArray<SpooledBlob>, done: boolean): void;
}

export interface SpooledBlob {
  file: string;
  sha256: string;
  offset: number;
  size: number;
}

/** What to do with one resource over the size threshold, asked of the user on a terminal. */
export type OversizeDecision = 'allow' | 'truncate' | 'reject';

/** Progress of a long resolution, shown on a terminal only. */
export interface ResolveProgress {
  /** Files or resources read so far, and a short label of the current one. */
  update(done: number, label: string): void;
  /** A declaration began resolving (the registry calls it); the function returned ends it. */
  begin?(declaration: string): () => void;
}

export interface HandlerLogger {
  warn(message: string): void;
}

/** What handlers share: nothing but this context and the interface below. */
export interface HandlerContext {
  /** Absolute real path of the workspace root (the directory holding `.jp/`). */
  workspaceRoot: string;
  /** Directory relative inputs are resolved against (the user's cwd). */
  cwd: string;
  limits: AttachmentLimits;
  logger: HandlerLogger;
  /** Defaults apply when absent. */
  fetchLimits?: FetchLimits | undefined;
  commandLimits?: CommandLimits | undefined;
  /** MCP servers from config; absent when none are configured. */
  mcp?: McpClients | undefined;
  /**
   * Present only when a person is at a terminal: asked when a resource exceeds the size threshold
   * and `limits.sizePolicy` is `ask`. Without it, `ask` behaves as `reject`.
   */
  askOversize?: ((name: string, bytes: number, limit: number) => Promise<OversizeDecision>) | undefined;
  /** Present only when stderr is a terminal. */
  progress?: ResolveProgress | undefined;
  /** Aborts resolution (Ctrl-C). */
  signal?: AbortSignal | undefined;
  /** Stored content of workspace files, used by directory and glob reads; absent, every file is read. */
  fileContents?: FileContentCache | undefined;
  /** Where directory and glob reads write what they read; absent, every file is read on this thread, into memory. */
  spool?: ContentSpool | undefined;
  /** A directory the CLI began reading before the command loaded (read-ahead.ts); the file handler takes it. */
  readAhead?: ReadAhead | undefined;
}

/**
 * Resolves one family of attachment URIs. A handler is stateless: everything it needs arrives in
 * the context. Every failure is an `AttachmentError` whose message names the attachment.
 */
export interface AttachmentHandler {
  /**
   * URI schemes this handler owns (`file`, `https`, …). Bare paths go to the handler owning `file`.
   * An entry ending in `+` claims a family: `mcp+` owns `mcp+everything+demo://…`.
   */
  readonly schemes: readonly string[];

  /**
   * Checks one input and returns its declaration: the normalised form stored in
   * `conversation.attachments`. Reads no content; may stat the file system.
   */
  validate(input: string, ctx: HandlerContext): Promise<string>;

  /**
   * Resolves declarations (as returned by `validate`) to snapshots, in declaration order. Content
   * is inline, or a reference to what a reader spooled or the cache knows (file handler).
   */
  resolve(declarations: readonly string[], ctx: HandlerContext): Promise<Resource[]>;

  /** Reads one canonical resource URI this handler produced again (for `refresh_resource`). */
  refresh(uri: string, ctx: HandlerContext): Promise<Resource>;

  /**
   * Whether a canonical resource URI came from this declaration (the file itself, a file under
   * the directory, a file matching the glob), decided from the strings alone.
   */
  covers(declaration: string, uri: string, ctx: HandlerContext): boolean;
}
