import * as z from 'zod';

/**
 * A tool as jp reads it from `tools/list`: only what jp uses is checked. The SDK's own result
 * schema rejects the whole listing when one tool's `inputSchema` lacks `"type": "object"`, which
 * servers in the wild send (mcp-obsidian, whose zod-to-json-schema emits `{ "$schema": … }` alone
 * under zod 4), so one sloppy schema would cost the server every tool (RFD 018).
 */
const ListedToolSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject({ type: z.unknown().optional() }).optional(),
  execution: z.unknown().optional(),
});

const ToolsPageSchema = z.looseObject({
  tools: z.array(ListedToolSchema),
  nextCursor: z.string().optional(),
});

export interface ListedMcpTool {
  name: string;
  title?: string;
  description?: string;
  /** The argument schema, with `"type": "object"` filled in when the server left `type` out. */
  inputSchema: Record<string, unknown>;
  execution?: unknown;
}

/** What `listMcpTools` needs of a client: one request with a result schema of ours. */
export interface ToolListingClient {
  request(request: { method: 'tools/list'; params: { cursor?: string } }, resultSchema: typeof ToolsPageSchema): Promise<z.output<typeof ToolsPageSchema>>;
}

/** A schema without `type` describes arguments all the same: MCP sends them as an object. */
function argumentSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  if (schema === undefined) return { type: 'object' };
  return schema.type === undefined ? { ...schema, type: 'object' } : schema;
}

/**
 * Every tool a server lists, one page per request (the SDK's `listTools` would walk every page
 * itself, without jp's page limit), in listing order.
 */
export async function listMcpTools(client: ToolListingClient, maxPages = 100): Promise<ListedMcpTool[]> {
  const tools: ListedMcpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, ToolsPageSchema);
    for (const tool of result.tools) tools.push({ ...tool, inputSchema: argumentSchema(tool.inputSchema) });
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}
