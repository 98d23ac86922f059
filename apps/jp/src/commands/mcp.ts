import { AttachmentError, isJpError, UsageError } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext, type CommandContext } from '../cli/command-context.ts';
import type { Config } from '../config/config-schema.ts';
import { readCfgArgs, readFileLayers, resolveConfig } from '../config/load-config.ts';
import { listServerResources, type ListedResource, type ListedTemplate } from '../mcp/list-server-resources.ts';
import { McpClientPool, type McpServerConfig } from '../mcp/mcp-client-pool.ts';
import { listMcpTools } from '../mcp/list-mcp-tools.ts';
import { unsupportedToolReason } from '../tools/unsupported-tool-reason.ts';

/** Server names usable in `mcp+<server>+<uri>` (the attachment handler's rule). */
const ATTACHABLE_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

interface ServerReport {
  name: string;
  command: string;
  args: string[];
  ok: boolean;
  error?: string;
  serverInfo?: { name: string; version: string; title?: string };
  capabilities?: Record<string, unknown>;
  /** Tools the server lists that jp does not offer to a model, with why (task-only tools, RFD 018). */
  unavailableTools?: Array<{ name: string; reason: string }>;
}

/** The server's tools jp cannot call; a listing that fails says nothing here (the server is reported ok or not by initialize). */
async function unavailableTools(client: Awaited<ReturnType<McpClientPool['get']>>): Promise<Array<{ name: string; reason: string }>> {
  if (client.getServerCapabilities()?.tools === undefined) return [];
  const found: Array<{ name: string; reason: string }> = [];
  try {
    for (const tool of await listMcpTools(client)) {
      const reason = unsupportedToolReason(tool);
      if (reason !== undefined) found.push({ name: tool.name, reason });
    }
  } catch {
    return found;
  }
  return found;
}

/** The workspace's configuration (user and workspace files, then `-c`): `jp mcp` lists servers as new conversations get them. */
function load(globals: GlobalOptions): { ctx: CommandContext; config: Config } {
  const ctx = workspaceContext(globals, undefined, { project: true });
  return { ctx, config: resolveConfig([...readFileLayers(ctx.workspace.jpDir), readCfgArgs(globals.cfg)]) };
}

const HOW_TO_ADD = 'add one to .jp/config.toml as [mcp.NAME] with command = "…" and args = […]';

function commandLine(entry: McpServerConfig): string {
  return [entry.command, ...entry.args].map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word))).join(' ');
}

/** `resources (subscribe, listChanged), tools (listChanged)`: what the server offers, from `initialize`. */
export function describeCapabilities(capabilities: Record<string, unknown> | undefined): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(capabilities ?? {})) {
    if (value === undefined || name === 'experimental') continue;
    const flags = typeof value === 'object' && value !== null ? Object.entries(value).filter(([, flag]) => flag === true).map(([flag]) => flag) : [];
    parts.push(flags.length > 0 ? `${name} (${flags.join(', ')})` : name);
  }
  return parts.length > 0 ? parts.join(', ') : 'no capabilities';
}

async function probe(pool: McpClientPool, name: string, entry: McpServerConfig): Promise<ServerReport> {
  const base = { name, command: entry.command, args: entry.args };
  try {
    const { client } = await pool.connection(name);
    const info = client.getServerVersion();
    const serverInfo = info === undefined ? undefined : { name: info.name, version: info.version, ...(info.title === undefined ? {} : { title: info.title }) };
    const unavailable = await unavailableTools(client);
    return {
      ...base,
      ok: true,
      ...(serverInfo === undefined ? {} : { serverInfo }),
      capabilities: { ...client.getServerCapabilities() },
      ...(unavailable.length === 0 ? {} : { unavailableTools: unavailable }),
    };
  } catch (error) {
    if (!isJpError(error)) throw error;
    return { ...base, ok: false, error: error.message };
  }
}

/**
 * `jp mcp ls`: every configured server, started to see whether it answers `initialize` (within its
 * startup timeout), with what it says about itself. A server that fails is reported, not fatal:
 * the command exits 0. With none configured it says how to add one (and prints `{"servers":[]}`).
 */
export async function mcpLs(globals: GlobalOptions): Promise<void> {
  const { ctx, config } = load(globals);
  const { output } = ctx;
  const names = Object.keys(config.mcp);
  if (names.length === 0) {
    if (output.json) output.data({ servers: [] });
    else output.note(`no MCP servers configured; ${HOW_TO_ADD}`);
    return;
  }
  for (const name of names.filter((candidate) => !ATTACHABLE_NAME.test(candidate))) {
    output.warn(`MCP server "${name}" cannot be attached as mcp+${name}+<uri>: use letters, digits and "-" in server names`);
  }
  const pool = new McpClientPool(config.mcp, { workspaceRoot: ctx.workspace.root });
  let reports: ServerReport[];
  try {
    reports = await Promise.all(names.map((name) => probe(pool, name, config.mcp[name]!)));
  } finally {
    await pool.close();
  }
  if (output.json) {
    output.data({ servers: reports });
    return;
  }
  for (const report of reports) {
    if (report.ok) {
      const info = report.serverInfo === undefined ? 'no server info' : `${report.serverInfo.name} ${report.serverInfo.version}`;
      output.line(`${report.name}: ok, ${info}; ${describeCapabilities(report.capabilities)}`);
      for (const tool of report.unavailableTools ?? []) output.line(`  tool ${tool.name} not offered: ${tool.reason}`);
    } else {
      output.line(`${report.name}: failed: ${report.error}`);
    }
    output.line(`  command: ${commandLine(config.mcp[report.name]!)}`);
  }
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]!.length))) ?? [];
  return rows.map((row) => `  ${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')}`.trimEnd());
}

function label(entry: ListedResource | ListedTemplate): string {
  return entry.title === undefined || entry.title === entry.name ? entry.name : `${entry.name} (${entry.title})`;
}

/**
 * `jp mcp resources SERVER`: the server's direct resources and resource templates, every page.
 * An unknown server is a usage error (exit 2); one that fails to start or to list is exit 4, as
 * when an attachment needs it.
 */
export async function mcpResources(globals: GlobalOptions, server: string): Promise<void> {
  const { ctx, config } = load(globals);
  const { output } = ctx;
  const names = Object.keys(config.mcp);
  if (!Object.hasOwn(config.mcp, server)) {
    const known = names.length === 0 ? `none are configured; ${HOW_TO_ADD}` : `configured: ${names.join(', ')}`;
    throw new UsageError(`no MCP server "${server}" is configured (${known})`, { code: 'mcp_unknown_server' });
  }
  const pool = new McpClientPool(config.mcp, { workspaceRoot: ctx.workspace.root });
  let listing;
  try {
    const client = await pool.get(server);
    listing = await listServerResources(client).catch((error: unknown) => {
      if (isJpError(error)) throw error;
      const said = (error instanceof Error ? error.message : String(error)).replace(/^(?:MCP error -?\d+:\s*)+/, '');
      throw new AttachmentError(server, `MCP server ${server} failed to list its resources: ${said}`, { code: 'mcp_list_failed', cause: error });
    });
  } finally {
    await pool.close();
  }
  if (listing.truncated) output.warn(`MCP server ${server} offered more pages than jp reads; the list is incomplete`);
  if (output.json) {
    output.data({ server, resources: listing.resources, templates: listing.templates });
    return;
  }
  if (!listing.offersResources) {
    output.line(`${server} offers no resources (no resources capability)`);
    return;
  }
  output.line(`resources (${listing.resources.length}):`);
  for (const line of table(listing.resources.map((entry) => [entry.uri, entry.mimeType ?? '-', label(entry)]))) output.line(line);
  output.line(`templates (${listing.templates.length}):`);
  for (const line of table(listing.templates.map((entry) => [entry.uriTemplate, entry.mimeType ?? '-', label(entry)]))) output.line(line);
  output.note(`attach one with --attach 'mcp+${server}+<uri>'`);
}
