import { loadSchemas, type InputRequest, type ToolContentBlock, type ToolStatus } from '@jp/core';

const { parseToolOutput } = await loadSchemas();

/** Who answers a question: the model (through `apply`) or the person at the terminal. */
export type QuestionTarget = 'model' | 'user';

/** One NDJSON line of a protocol tool, read (RFD 058 envelope, one response per line). */
export interface ProtocolResponse {
  status: ToolStatus;
  /** The blocks in order, questions included. */
  content: ToolContentBlock[];
  isError: boolean;
  /** The questions of a `waiting` response, in order, each with who answers it. */
  questions: { question: InputRequest; target: QuestionTarget }[];
  /** Blocks that were skipped, each described. */
  warnings: string[];
}

export type ParsedProtocolLine = { ok: true; response: ProtocolResponse } | { ok: false; reason: string };

const TARGET = 'computer.jp/target';

function metaOf(value: unknown): Record<string, unknown> {
  const meta = (value as { _meta?: unknown } | null)?._meta;
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
}

/**
 * Reads one line a protocol tool wrote. Blocks are checked by core's `parseToolOutput`, the same
 * as a one-shot tool's output, so a bad block is skipped with a warning and the rest still count.
 * A line that is not an RFD 058 envelope (not JSON, no `content` array) or names an unknown status
 * is not a response at all: `ok: false`, and the caller skips it with a warning. No status means
 * `stopped` (RFD 058: the implicit status of a finished tool).
 *
 * A question is the user's when its block's `_meta["computer.jp/target"]` is "user", or when the
 * response's `_meta` says so for all its questions (a block's own mark wins); otherwise the model's.
 * Core's schemas drop unknown keys, so the marks are read from the raw JSON, by question id.
 */
export function parseProtocolLine(line: string, canonicalizeUri?: (uri: string) => string): ParsedProtocolLine {
  const parsed = parseToolOutput(line, { canonicalizeUri });
  if (parsed.raw) return { ok: false, reason: 'not a JSON response with a "content" array' };
  const json = JSON.parse(line.trim()) as { content: unknown[] };
  const meta = metaOf(json);
  if (meta['computer.jp/status'] !== undefined && parsed.status === undefined) {
    return { ok: false, reason: `_meta["computer.jp/status"] must be running, waiting or stopped, not ${JSON.stringify(meta['computer.jp/status'])}` };
  }
  const status = parsed.status ?? 'stopped';
  const responseTarget = meta[TARGET];
  const targets = new Map<string, unknown>();
  for (const block of json.content) {
    const id = (block as { question?: { id?: unknown } } | null)?.question?.id;
    if (typeof id === 'string') targets.set(id, metaOf(block)[TARGET] ?? responseTarget);
  }
  const questions =
    status === 'waiting'
      ? parsed.content.flatMap((block) =>
          block.type === 'question' ? [{ question: block.question, target: targets.get(block.question.id) === 'user' ? ('user' as const) : ('model' as const) }] : [],
        )
      : [];
  return { ok: true, response: { status, content: parsed.content, isError: parsed.isError, questions, warnings: parsed.warnings } };
}
