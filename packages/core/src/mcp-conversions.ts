import type { ToolContentBlock } from './content-block.ts';
import { AnnotationsSchema, type Annotations } from './annotations.ts';
import { LoadedResourceSchema, type LoadedResource } from './resource.ts';

/**
 * Structural views of the MCP SDK's types (`ResourceContents`, `EmbeddedResource`,
 * `CallToolResult`). `core` does not depend on the SDK; these accept what the SDK produces, and
 * the conversions copy only fields MCP defines — jp's extensions stay absent.
 */
export interface McpResourceContents {
  uri: string;
  mimeType?: string | undefined;
  text?: string | undefined;
  blob?: string | undefined;
  annotations?: Annotations | undefined;
  _meta?: Record<string, unknown> | undefined;
}

export interface McpEmbeddedResource {
  type: 'resource';
  resource: McpResourceContents;
  annotations?: Annotations | undefined;
  _meta?: Record<string, unknown> | undefined;
}

export interface McpCallToolResult {
  content?: Array<{ type: string; [field: string]: unknown }> | undefined;
  structuredContent?: Record<string, unknown> | undefined;
  isError?: boolean | undefined;
}

/**
 * The SDK validates base64 with `atob`, which also accepts unpadded input and embedded whitespace;
 * jp's schema takes only canonical padded base64. Re-encode what the SDK accepted so that every
 * MCP result it delivers converts; reject what it would reject too.
 */
function canonicalBase64(data: string, what: string): string {
  try {
    atob(data);
  } catch {
    throw new Error(`MCP ${what} has invalid base64 data`);
  }
  return Buffer.from(data.replace(/\s+/g, ''), 'base64').toString('base64');
}

/** Converts MCP resource contents; throws when they carry neither text nor blob. */
export function resourceFromMcpContents(contents: McpResourceContents): LoadedResource {
  const fields: Record<string, unknown> = { uri: contents.uri };
  if (contents.mimeType !== undefined) fields.mimeType = contents.mimeType;
  if (contents.annotations !== undefined) fields.annotations = contents.annotations;
  if (contents._meta !== undefined) fields._meta = contents._meta;
  if (typeof contents.text === 'string') fields.text = contents.text;
  else if (typeof contents.blob === 'string') fields.blob = canonicalBase64(contents.blob, `resource ${contents.uri}`);
  else throw new Error(`MCP resource ${contents.uri} has neither text nor blob`);
  return LoadedResourceSchema.parse(fields);
}

/**
 * An embedded resource becomes a resource; annotations on the block (MCP puts them there) are
 * used when the contents carry none.
 */
export function resourceFromMcpEmbedded(embedded: McpEmbeddedResource): LoadedResource {
  const resource = resourceFromMcpContents(embedded.resource);
  if (resource.annotations === undefined && embedded.annotations !== undefined) {
    return { ...resource, annotations: embedded.annotations };
  }
  return resource;
}

export interface ConvertedToolResult {
  content: ToolContentBlock[];
  isError: boolean;
  /** Blocks this conversion cannot represent on its own (e.g. `resource_link`, read by the caller). */
  unconverted: Array<{ index: number; block: { type: string; [field: string]: unknown } }>;
}

/**
 * Converts an MCP tool result. Text and embedded resources map directly; images and audio become
 * blob resources; MCP gives them no URI, so theirs is the empty `data:<mimeType>;base64,` (the
 * bytes live in `blob`, never in the URI); blocks that need a round trip (`resource_link`) are returned in `unconverted`
 * for the caller to resolve, never dropped silently.
 */
export function contentFromMcpToolResult(result: McpCallToolResult): ConvertedToolResult {
  const content: ToolContentBlock[] = [];
  const unconverted: ConvertedToolResult['unconverted'] = [];
  (result.content ?? []).forEach((block, index) => {
    switch (block.type) {
      case 'text': {
        // Annotations MCP does not define the shape of are left out, as a resource's would fail.
        const annotations = block.annotations === undefined ? undefined : AnnotationsSchema.safeParse(block.annotations);
        content.push({ type: 'text', text: String(block.text ?? ''), ...(annotations?.success === true ? { annotations: annotations.data } : {}) });
        break;
      }
      case 'resource':
        content.push({ type: 'resource', resource: resourceFromMcpEmbedded(block as unknown as McpEmbeddedResource) });
        break;
      case 'image':
      case 'audio': {
        const mimeType = String(block.mimeType ?? 'application/octet-stream');
        const fields: Record<string, unknown> = {
          uri: `data:${mimeType};base64,`,
          mimeType,
          blob: canonicalBase64(String(block.data ?? ''), `${block.type} block ${index}`),
        };
        if (block.annotations !== undefined) fields.annotations = block.annotations;
        content.push({ type: 'resource', resource: LoadedResourceSchema.parse(fields) });
        break;
      }
      default:
        unconverted.push({ index, block });
    }
  });
  if (content.length === 0 && unconverted.length === 0 && result.structuredContent !== undefined) {
    content.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  return { content, isError: result.isError === true, unconverted };
}
