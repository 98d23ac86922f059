import type { Resource } from '@jp/core';

/** Size limits every handler applies to what it reads. */
export interface AttachmentLimits {
  /** Bytes per resource before `sizePolicy` applies (default 512 KiB). */
  maxResourceBytes: number;
  /** Resources one declaration (directory or glob) may expand to (default 500). */
  maxFiles: number;
  /** What to do with a resource over `maxResourceBytes`. */
  sizePolicy: 'allow' | 'truncate' | 'reject';
}

export const DEFAULT_LIMITS: AttachmentLimits = {
  maxResourceBytes: 512 * 1024,
  maxFiles: 500,
  sizePolicy: 'reject',
};

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

  /** Resolves declarations (as returned by `validate`) to snapshots, in declaration order. */
  resolve(declarations: readonly string[], ctx: HandlerContext): Promise<Resource[]>;

  /** Reads one canonical resource URI this handler produced again (for `refresh_resource`). */
  refresh(uri: string, ctx: HandlerContext): Promise<Resource>;

  /**
   * Whether a canonical resource URI came from this declaration (the file itself, a file under
   * the directory, a file matching the glob), decided from the strings alone.
   */
  covers(declaration: string, uri: string, ctx: HandlerContext): boolean;
}
