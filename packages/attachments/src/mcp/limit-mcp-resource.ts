import { AttachmentError, isTextResource, resourceBytes, utf8Text, type LoadedResource } from '@jp/core';
import { utf8Boundary } from '../file/utf8-text.ts';
import type { HandlerContext } from '../handler.ts';

const SIZE_SETTING = 'conversation.attachment.size_policy';

function truncate(resource: LoadedResource, limit: number, size: number): LoadedResource {
  let kept: number;
  let content: LoadedResource;
  if (isTextResource(resource)) {
    const bytes = resourceBytes(resource).subarray(0, limit);
    const prefix = bytes.subarray(0, utf8Boundary(bytes));
    kept = prefix.length;
    content = { ...resource, text: utf8Text(prefix) };
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
export async function limitMcpResource(resource: LoadedResource, input: string, ctx: HandlerContext): Promise<LoadedResource> {
  const size = resourceBytes(resource).byteLength;
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
