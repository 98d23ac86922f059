import type { HandlerContext } from '../handler.ts';
import { oversizeReadLength } from '../file/oversize-read-length.ts';
import { decodeText, utf8Boundary } from '../file/utf8-text.ts';

/** A command's stdout as resource content, after the size policy. */
export type OutputContent = (
  | { mimeType: 'text/plain'; text: string }
  | { mimeType: 'application/octet-stream'; blob: Uint8Array }
) & {
  /** Set when the output was cut to the size limit, for the resource's description. */
  note?: string | undefined;
};

/**
 * Turns stdout into content: text when it is UTF-8 without NUL bytes, else a blob. Output over
 * `maxResourceBytes` goes through `conversation.attachment.size_policy` exactly as a file does
 * (allow, truncate, ask, reject); truncated text keeps whole UTF-8 sequences. Also used for piped
 * stdin (`--attach -`). `label` names the content in errors (default `input`); `sizeUnknown`: the
 * content was read only up to a cap and there is more of it.
 */
export async function outputContent(
  stdout: Uint8Array,
  input: string,
  ctx: Pick<HandlerContext, 'limits' | 'askOversize'>,
  how: { label?: string; sizeUnknown?: boolean } = {},
): Promise<OutputContent> {
  const { length, truncation } = await oversizeReadLength(stdout.length, input, how.label ?? input, ctx, { sizeUnknown: how.sizeUnknown === true });
  const head = stdout.subarray(0, length);
  const kept = truncation === undefined ? head : head.subarray(0, utf8Boundary(head));
  const text = decodeText(kept);
  const content: OutputContent = text !== undefined ? { mimeType: 'text/plain', text } : { mimeType: 'application/octet-stream', blob: head };
  if (truncation === undefined) return content;
  const keptBytes = text !== undefined ? kept.length : head.length;
  const of = how.sizeUnknown === true ? `more than ${stdout.length - 1}` : String(stdout.length);
  return { ...content, note: `truncated: the first ${keptBytes} of ${of} bytes (${truncation})` };
}
