import * as z from 'zod';
import { ToolContentBlockSchema, type ToolContentBlock } from './content-block.ts';
import { describeIssues } from './describe-issues.ts';

/** `_meta["computer.jp/error"]`: whether a failure is worth retrying, and its cause chain. */
export interface ToolErrorMeta {
  transient: boolean;
  trace: string[];
}

export type ToolStatus = 'running' | 'waiting' | 'stopped';

export interface ParsedToolOutput {
  content: ToolContentBlock[];
  isError: boolean;
  /** Present when the tool reported an error with `_meta["computer.jp/error"]`. */
  error?: ToolErrorMeta | undefined;
  /** `_meta["computer.jp/status"]`; absent means a one-shot tool that has finished. */
  status?: ToolStatus | undefined;
  /** Blocks that were skipped, each described for the user. Never silently dropped. */
  warnings: string[];
  /** True when stdout was not jp's JSON format and became one text block (a supported path). */
  raw: boolean;
}

/** The envelope of typed tool output; its blocks are checked one by one (`ToolContentBlockSchema`). */
const ToolOutputEnvelopeSchema = z.looseObject({
  content: z.array(z.unknown()),
  isError: z.boolean().optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
const ToolErrorMetaSchema = z.object({ transient: z.boolean().default(false), trace: z.array(z.string()).default([]) });
const ToolStatusSchema = z.enum(['running', 'waiting', 'stopped']);

export interface ParseToolOutputOptions {
  /**
   * Rewrites a resource block's URI to its canonical form (file URIs against the workspace root);
   * may throw to reject the block, which is then skipped with the error as its warning.
   */
  canonicalizeUri?: ((uri: string) => string) | undefined;
}

/**
 * Parses a local tool's stdout (RFD 058). JSON with a `content` array is typed output: each block
 * is validated on its own, and a malformed block is skipped with a warning naming it — the others
 * still count, and the output never falls back to raw text because of one bad block. Anything
 * else (plain text, JSON without `content`) is the raw-text path: one text block, verbatim.
 */
export function parseToolOutput(stdout: string, options: ParseToolOutputOptions = {}): ParsedToolOutput {
  const raw = (): ParsedToolOutput => ({ content: [{ type: 'text', text: stdout }], isError: false, warnings: [], raw: true });
  const trimmed = stdout.trim();
  if (!trimmed.startsWith('{')) return raw();
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return raw();
  }
  const envelope = ToolOutputEnvelopeSchema.safeParse(json);
  if (!envelope.success) return raw();

  const warnings: string[] = [];
  const content: ToolContentBlock[] = [];
  envelope.data.content.forEach((candidate, index) => {
    const parsed = ToolContentBlockSchema.safeParse(candidate);
    if (!parsed.success) {
      const type = typeof (candidate as { type?: unknown } | null)?.type === 'string' ? ` (${(candidate as { type: string }).type})` : '';
      warnings.push(`content block ${index}${type} is malformed and was skipped: ${describeIssues(parsed.error.issues)}`);
      return;
    }
    const block = parsed.data;
    if (block.type === 'resource' && options.canonicalizeUri) {
      try {
        content.push({ ...block, resource: { ...block.resource, uri: options.canonicalizeUri(block.resource.uri) } });
      } catch (error) {
        warnings.push(`content block ${index} (resource) was skipped: ${error instanceof Error ? error.message : String(error)}`);
      }
      return;
    }
    content.push(block);
  });

  const meta = envelope.data._meta ?? {};
  const errorMeta = ToolErrorMetaSchema.safeParse(meta['computer.jp/error']);
  const status = ToolStatusSchema.safeParse(meta['computer.jp/status']);
  if (meta['computer.jp/status'] !== undefined && !status.success) {
    warnings.push(`_meta["computer.jp/status"] must be running, waiting or stopped; ignored`);
  }
  return {
    content,
    isError: envelope.data.isError === true,
    error: meta['computer.jp/error'] !== undefined && errorMeta.success ? errorMeta.data : undefined,
    status: status.success ? status.data : undefined,
    warnings,
    raw: false,
  };
}
