import { AttachmentError, isTextResource, type Resource } from '@jp/core';
import type { HandlerContext } from '../handler.ts';

const SIZE_SETTING = 'conversation.attachment.size_policy';

/** The byte length of a resource's content: UTF-8 bytes of its text, or its blob. */
export function contentBytes(resource: Resource): number {
  return isTextResource(resource) ? Buffer.byteLength(resource.text, 'utf8') : resource.blob.length;
}

/** The longest prefix of at most `limit` bytes that ends on a UTF-8 character boundary. */
function utf8Prefix(bytes: Uint8Array, limit: number): Uint8Array {
  if (bytes.length <= limit) return bytes;
  let end = limit;
  // A continuation byte (10xxxxxx) right after the cut means the cut splits a character.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

function truncate(resource: Resource, limit: number, size: number): Resource {
  let kept: number;
  let content: Resource;
  if (isTextResource(resource)) {
    const prefix = utf8Prefix(Buffer.from(resource.text, 'utf8'), limit);
    kept = prefix.length;
    content = { ...resource, text: Buffer.from(prefix).toString('utf8') };
  } else {
    kept = limit;
    content = { ...resource, blob: resource.blob.slice(0, limit) };
  }
  return { ...content, description: `truncated: the first ${kept} of ${size} bytes (${SIZE_SETTING} is "truncate", limit ${limit} bytes)` };
}

/**
 * Applies the size threshold to a resource already read (an MCP read arrives whole): within the
 * limit, or under `allow`, it is kept; `truncate` keeps a prefix (whole UTF-8 characters for text);
 * `ask` asks on a terminal; `reject`, and `ask` without a terminal, is an error naming the setting.
 */
export async function limitMcpResource(resource: Resource, input: string, ctx: HandlerContext): Promise<Resource> {
  const size = contentBytes(resource);
  const limit = ctx.limits.maxResourceBytes;
  if (size <= limit) return resource;
  let policy = ctx.limits.sizePolicy;
  if (policy === 'ask') policy = ctx.askOversize === undefined ? 'reject' : await ctx.askOversize(resource.uri, size, limit);
  if (policy === 'allow') return resource;
  if (policy === 'truncate') return truncate(resource, limit, size);
  throw new AttachmentError(
    input,
    `${input}: ${resource.uri} is ${size} bytes, over the limit of ${limit} bytes; set ${SIZE_SETTING} to "truncate" or "allow" to attach it anyway`,
    { code: 'mcp_resource_too_large' },
  );
}
