import { AttachmentError } from '@jp/core';
import type { AttachmentLimits, HandlerContext } from '../handler.ts';

export const SIZE_SETTING = 'conversation.attachment.size_policy';

/**
 * Bytes jp reads into one resource at most, whatever the policy: beyond this a file cannot be
 * held as a string or stored as base64 JSON in one event (V8 strings stop near 512 Mi chars).
 */
export const HARD_MAX_BYTES = 256 * 1024 * 1024;

/** How much of a file to read under the size policy, and why when it is less than all. */
export interface ReadLength {
  length: number;
  /** Set when the content is cut: the words for the resource's description, after "the first N of M bytes". */
  truncation?: string | undefined;
}

export interface OversizeContext {
  limits: AttachmentLimits;
  askOversize?: HandlerContext['askOversize'];
}

/**
 * Applies `conversation.attachment.size_policy` to a file of `size` bytes, before anything is
 * read: within `maxResourceBytes` all of it; over it `allow` reads all, `truncate` reads the
 * limit, `reject` throws, and `ask` asks the person at the terminal (`askOversize`) or, without
 * one, rejects. The error names the size, the limit and the setting. `label` names the file as
 * the user gave it; `input` is the attachment the error belongs to. `sizeUnknown`: `size` is only
 * what was read before reading stopped (a file whose stat size was wrong), so the size is "over".
 */
export async function oversizeReadLength(size: number, input: string, label: string, ctx: OversizeContext, how: { sizeUnknown?: boolean } = {}): Promise<ReadLength> {
  const limit = ctx.limits.maxResourceBytes;
  const unknown = how.sizeUnknown === true;
  if (size <= limit) return checkHardMax(size, input, label, unknown);
  let decision = ctx.limits.sizePolicy;
  let asked = false;
  if (decision === 'ask' && ctx.askOversize !== undefined) {
    decision = await ctx.askOversize(label, size, limit);
    asked = true;
  }
  if (decision === 'allow') return checkHardMax(size, input, label, unknown);
  if (decision === 'truncate') {
    return { length: limit, truncation: asked ? `truncation chosen at the prompt, limit ${limit} bytes` : `${SIZE_SETTING} is "truncate", limit ${limit} bytes` };
  }
  const why = asked ? 'not attached, as answered at the prompt' : `set ${SIZE_SETTING} to "truncate" or "allow" to attach it anyway`;
  const is = unknown ? `holds more than ${limit} bytes (more than its size said), over the limit` : `is ${size} bytes, over the limit of ${limit} bytes`;
  throw new AttachmentError(input, `${label} ${is}; ${why}`, { code: 'file_too_large' });
}

function checkHardMax(size: number, input: string, label: string, sizeUnknown: boolean): ReadLength {
  if (size <= HARD_MAX_BYTES) return { length: size };
  throw overHardMax(size, input, label, sizeUnknown);
}

/** For content larger than one resource can hold, whatever the policy. */
export function overHardMax(size: number, input: string, label: string, sizeUnknown = false): AttachmentError {
  const is = sizeUnknown ? 'holds' : `is ${size} bytes,`;
  return new AttachmentError(
    input,
    `${label} ${is} more than jp can hold in one resource (${HARD_MAX_BYTES} bytes) even with ${SIZE_SETTING} "allow"; set it to "truncate" to attach the beginning`,
    { code: 'file_too_large' },
  );
}

/** The size up to which a reader thread reads a file under these limits; past it, the size policy decides. */
export function readLimitOf(ctx: { limits: AttachmentLimits }): number {
  return ctx.limits.sizePolicy === 'allow' ? HARD_MAX_BYTES : ctx.limits.maxResourceBytes;
}
