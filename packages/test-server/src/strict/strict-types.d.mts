import type { WireServer } from '../wire-types.d.mts';

export type StrictVendor = 'anthropic' | 'openai' | 'google' | 'openrouter' | 'ollama';

/** A tool call the stand-in's answer makes. */
export interface StrictToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/**
 * One scripted answer, rendered by the stand-in in its vendor's wire format, with the reasoning data
 * (signed thinking blocks, reasoning items, thought signatures, reasoning_details) it issues itself so
 * that replays of it can be checked. Without a script the stand-in answers `ok` (or a value matching a
 * requested JSON schema), thinking where the model thinks.
 */
export interface StrictReply {
  text?: string;
  /** `false` leaves reasoning out even where the model would reason by default. */
  thinking?: boolean;
  /** Visible reasoning text where the vendor returns one (default: a short sentence). */
  thinkingText?: string;
  toolCalls?: StrictToolCall[];
  /** Anthropic only: the content blocks in order; thinking blocks are signed by the stand-in. */
  blocks?: Array<
    | { type: 'thinking'; thinking?: string }
    | { type: 'text'; text: string }
    | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  >;
  stopReason?: string;
}

/** A request the stand-in refused, with the status and body it answered. */
export interface StrictRejection {
  index: number;
  status: number;
  body: unknown;
}

export interface StrictServerOptions {
  vendor: StrictVendor;
  /** Replaces the vendor's model table (rows in that vendor's row shape, see `<vendor>-models.mjs`). */
  models?: readonly unknown[];
  /** Answers for the accepted requests, first in, first out; the default answer after them. */
  script?: readonly StrictReply[];
  /** Secret for the signatures the stand-in issues; random per server by default. */
  secret?: string;
  /**
   * Anthropic: `new` (default) enforces the preserved-thinking prefix check on the models that run it, as
   * for accounts created since 2026-08-31; `legacy` enforces it only on requests that set
   * `thinking.block_binding.prefix_mismatch_behavior`.
   */
  account?: 'new' | 'legacy';
  port?: number;
}

export interface StrictServer extends WireServer {
  readonly vendor: StrictVendor;
  /** Every request refused so far (tests assert there were none). */
  readonly rejections: StrictRejection[];
  /** Appends scripted answers (rendered by the stand-in, unlike `enqueue`, which sends raw responses). */
  enqueueReply(...replies: StrictReply[]): void;
}
