import path from 'node:path';
import type { McpClients } from '@jp/attachments';
import { AttachmentError } from '@jp/core';
import type { Client } from '@modelcontextprotocol/client';
import type { Config } from '../config/config-schema.ts';
import { connectStdioServer, type StdioServerConnection, type StdioServerSettings } from './connect-stdio-server.ts';
import { serverEnvironment } from './server-environment.ts';

export type McpServerConfig = Config['mcp'][string];

/**
 * A server's settings from its config entry: `cwd` relative to the workspace root (the default),
 * `env` with its references taken from `environment` (jp's own, unless a test gives another).
 */
export function serverSettings(name: string, config: McpServerConfig, workspaceRoot: string, environment: NodeJS.ProcessEnv = process.env): StdioServerSettings {
  return {
    name,
    command: config.command,
    args: config.args,
    env: serverEnvironment(name, config, environment),
    cwd: path.resolve(workspaceRoot, config.cwd ?? '.'),
    startupTimeoutMs: config.startup_timeout_secs * 1000,
    requestTimeoutMs: config.request_timeout_secs * 1000,
  };
}

/**
 * The MCP servers of one run (config `mcp.<server>`). A server is started on the first `get` of
 * its name and reused for the rest of the run; a server that failed to start keeps failing with
 * the same error instead of being started again. `close()` stops every started server: commands
 * that build a pool call it in a `finally`, so no child outlives jp.
 */
export class McpClientPool implements McpClients {
  readonly #servers: Record<string, McpServerConfig>;
  readonly #workspaceRoot: string;
  readonly #connect: (settings: StdioServerSettings) => Promise<StdioServerConnection>;
  readonly #environment: NodeJS.ProcessEnv;
  readonly #connections = new Map<string, Promise<StdioServerConnection>>();
  #closed = false;

  constructor(
    servers: Record<string, McpServerConfig>,
    options: { workspaceRoot: string; connect?: (settings: StdioServerSettings) => Promise<StdioServerConnection>; environment?: NodeJS.ProcessEnv },
  ) {
    this.#servers = servers;
    this.#workspaceRoot = options.workspaceRoot;
    this.#connect = options.connect ?? connectStdioServer;
    this.#environment = options.environment ?? process.env;
  }

  names(): string[] {
    return Object.keys(this.#servers);
  }

  /** The configured entry of a server, or `undefined`. */
  config(name: string): McpServerConfig | undefined {
    return Object.hasOwn(this.#servers, name) ? this.#servers[name] : undefined;
  }

  /** The started server, or an `AttachmentError` saying why it is not available. */
  connection(name: string): Promise<StdioServerConnection> {
    const existing = this.#connections.get(name);
    if (existing !== undefined) return existing;
    const config = this.config(name);
    if (config === undefined) return Promise.reject(unknownServerError(name, this.names()));
    if (this.#closed) return Promise.reject(new AttachmentError(name, `MCP server ${name} was asked for after jp closed its servers`, { code: 'mcp_pool_closed' }));
    let connection: Promise<StdioServerConnection>;
    try {
      connection = this.#connect(serverSettings(name, config, this.#workspaceRoot, this.#environment));
    } catch (error) {
      connection = Promise.reject(error); // a variable it needs is not set: it fails like a server that cannot start
    }
    connection.catch(() => undefined); // callers see the rejection; the pool only remembers it
    this.#connections.set(name, connection);
    return connection;
  }

  async get(name: string): Promise<Client> {
    return (await this.connection(name)).client;
  }

  /** Stops every server started in this run, concurrently. Safe to call more than once. */
  async close(): Promise<void> {
    this.#closed = true;
    const started = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.all(started.map(async (pending) => (await pending.catch(() => undefined))?.close()));
  }
}

/** The error for a name that is not configured: lists the ones that are, or says how to add one. */
export function unknownServerError(name: string, configured: readonly string[]): AttachmentError {
  const add = `add [mcp.${name}] with a command (and args) to .jp/config.toml`;
  const message =
    configured.length === 0
      ? `no MCP servers are configured; ${add}`
      : `no MCP server "${name}" is configured (configured: ${configured.join(', ')}); use one of those or ${add}`;
  return new AttachmentError(name, message, { code: 'mcp_unknown_server' });
}

/** Stops the MCP servers a command started (for its `finally`); nothing when it has none. */
export async function closeMcpClients(mcp: McpClients | undefined): Promise<void> {
  if (mcp instanceof McpClientPool) await mcp.close();
}
