import { AttachmentError, isJpError, loadSchemas, type ContentBlock } from '@jp/core';
import { numberRepeatedUris, type McpClients } from '@jp/attachments';
import type { Config } from '../config/config-schema.ts';
import { withCanonicalFileUris } from '../resolution/canonical-file-uri.ts';
import { listMcpTools } from '../mcp/list-mcp-tools.ts';
import { mcpToolName } from './mcp-tool-name.ts';
import { unsupportedToolReason } from './unsupported-tool-reason.ts';
import { errorResult, type JpTool, type ToolResult } from './jp-tool.ts';

const { contentFromMcpToolResult, resourceFromMcpContents } = await loadSchemas();

type Client = Awaited<ReturnType<McpClients['get']>>;
/**
 * Converts a tool result without loss: text and embedded resources directly, images and audio as
 * blob resources, and `resource_link` blocks read through `resources/read` (a link that cannot
 * be read stays a text block naming it, so nothing disappears silently).
 */
async function convertResult(client: Client, result: Parameters<typeof contentFromMcpToolResult>[0]): Promise<ToolResult> {
  const converted = contentFromMcpToolResult(result);
  if (converted.unconverted.length === 0) return { content: converted.content, isError: converted.isError };
  const content: ContentBlock[] = [];
  const byIndex = new Map(converted.unconverted.map((entry) => [entry.index, entry.block]));
  let next = 0;
  for (let index = 0; index < (result.content ?? []).length; index++) {
    const block = byIndex.get(index);
    if (block === undefined) {
      const convertedBlock = converted.content[next++];
      if (convertedBlock !== undefined) content.push(convertedBlock);
      continue;
    }
    if (block.type === 'resource_link' && typeof block.uri === 'string') {
      try {
        const read = await client.readResource({ uri: block.uri });
        // Several contents under one URI stay apart, as when they are attached (RFD 018).
        for (const resource of numberRepeatedUris(read.contents.map((contents) => resourceFromMcpContents(contents)))) content.push({ type: 'resource', resource });
      } catch (error) {
        content.push({ type: 'text', text: `[resource link ${block.uri} could not be read: ${error instanceof Error ? error.message : String(error)}]` });
      }
    } else {
      content.push({ type: 'text', text: `[unsupported MCP content block of type ${block.type}]` });
    }
  }
  return { content, isError: converted.isError };
}

/** Why a tool is not offered although its server's config enables it: the server did not start, or the tool needs what jp lacks. */
export interface UnavailableMcpTools {
  /** Servers that failed to start or to list their tools, with the error (it names the server and what to change). */
  servers: Map<string, Error>;
  /** Tools the server lists but jp cannot call, by offered name, with the reason. */
  tools: Map<string, string>;
}

export interface McpToolOffer {
  tools: JpTool[];
  unavailable: UnavailableMcpTools;
}

function errorOf(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * The tools of every server whose config offers them (`mcp.<server>.tools = true` or a list of
 * names), in server and listing order, so the definitions are the same on every turn. The servers
 * start together; one that fails to start (or to list) is left out with its error, so a query that
 * does not need it still runs. `only`: just these servers (the ones `--tool` names tools of).
 */
export async function loadMcpTools(config: Config, mcp: McpClients | undefined, only?: ReadonlySet<string>): Promise<McpToolOffer> {
  const unavailable: UnavailableMcpTools = { servers: new Map(), tools: new Map() };
  if (mcp === undefined) return { tools: [], unavailable };
  const servers = Object.entries(config.mcp).filter(([server, settings]) => settings.tools !== false && (only === undefined || only.has(server)));
  const listed = await Promise.allSettled(
    servers.map(async ([server]) => {
      const client = await mcp.get(server);
      const tools = await listMcpTools(client).catch((error: unknown) => {
        if (isJpError(error)) throw error;
        const said = (error instanceof Error ? error.message : String(error)).replace(/^(?:MCP error -?\d+:\s*)+/, '');
        throw new AttachmentError(server, `MCP server ${server} failed to list its tools: ${said}`, { code: 'mcp_list_failed', cause: error });
      });
      return { client, tools };
    }),
  );
  const tools: JpTool[] = [];
  for (const [index, [server, settings]] of servers.entries()) {
    const outcome = listed[index]!;
    if (outcome.status === 'rejected') {
      unavailable.servers.set(server, errorOf(outcome.reason));
      continue;
    }
    const { client } = outcome.value;
    const wanted = Array.isArray(settings.tools) ? new Set(settings.tools) : undefined;
    for (const tool of outcome.value.tools) {
      if (wanted && !wanted.has(tool.name)) continue;
      const name = mcpToolName(server, tool.name);
      const reason = unsupportedToolReason(tool);
      if (reason !== undefined) {
        unavailable.tools.set(name, `MCP tool ${tool.name} on ${server} is not offered: ${reason}`);
        continue;
      }
      tools.push({
        definition: { name, description: tool.description ?? tool.title ?? tool.name, parameters: tool.inputSchema },
        run: settings.run,
        async call(args, ctx) {
          let converted: ToolResult;
          try {
            const result = await client.callTool({ name: tool.name, arguments: args });
            converted = await convertResult(client, result as Parameters<typeof contentFromMcpToolResult>[0]);
          } catch (error) {
            return errorResult(`MCP tool ${tool.name} on ${server} failed: ${error instanceof Error ? error.message : String(error)}`);
          }
          // The same rule as for local tools: a file outside the workspace never reaches the stream.
          const { content, warnings } = withCanonicalFileUris(converted.content, ctx.workspaceRoot);
          for (const warning of warnings) ctx.output.warn(`MCP tool ${tool.name} on ${server}: ${warning}`);
          if (content.length === 0 && converted.content.length > 0) content.push({ type: 'text', text: '(every block of the result was left out; see the warnings)' });
          return { content, isError: converted.isError };
        },
      });
    }
  }
  return { tools, unavailable };
}
