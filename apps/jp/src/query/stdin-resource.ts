import { HARD_MAX_BYTES, outputContent, type HandlerContext } from '@jp/attachments';
import type { LoadedResource } from '@jp/core';
import { sha256Of } from '../store/blob-sha256.ts';
import { readStdinBytes } from './read-query-text.ts';

/** `--attach -`: the bytes piped in, read before the conversation is locked. */
export interface StdinInput {
  bytes: Uint8Array;
  /** Whether all of stdin was read: reading stops one byte past what one resource can hold. */
  complete: boolean;
}

/**
 * Reads piped stdin for `--attach -`. It is read before the conversation's configuration (and
 * with it the size policy) is known, and before the lock is taken, so reading stops only past
 * what one resource can ever hold (`HARD_MAX_BYTES`); the policy applies when the turn opens.
 */
export async function readStdinInput(): Promise<StdinInput> {
  const bytes = await readStdinBytes(HARD_MAX_BYTES);
  return { bytes, complete: bytes.byteLength <= HARD_MAX_BYTES };
}

/**
 * `--attach -`: stdin as a resource, after `conversation.attachment.size_policy` as a file or a
 * command's output (text when UTF-8, else a blob; truncated text says so in `description`). Its
 * URI is `stdin:<sha256>` of the content kept — content-addressed, since there is no source to
 * name — and it cannot be refreshed or declared for later.
 */
export async function stdinResource(input: StdinInput, ctx: Pick<HandlerContext, 'limits' | 'askOversize'>): Promise<LoadedResource> {
  const content = await outputContent(input.bytes, '-', ctx, { label: 'stdin (--attach -)', sizeUnknown: !input.complete });
  const bytes = 'text' in content ? new TextEncoder().encode(content.text) : content.blob;
  const base = { uri: `stdin:${sha256Of(bytes)}`, name: 'stdin', mimeType: content.mimeType };
  const description = content.note === undefined ? {} : { description: content.note };
  return 'text' in content ? { ...base, text: content.text, ...description } : { ...base, blob: content.blob, ...description };
}
