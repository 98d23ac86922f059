import type { ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { AttachmentError } from '@jp/core';
import type { Client } from '@modelcontextprotocol/client';
import { version } from '../version.ts';
import { adoptingTransport, spawnServerEarly } from './early-server-spawn.ts';
import { StderrTail } from './stderr-tail.ts';

/** One configured server, with its paths resolved and its limits in milliseconds. */
export interface StdioServerSettings {
  name: string;
  command: string;
  args: string[];
  /** Set over the SDK's safe default environment (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
  env: Record<string, string>;
  /** Absolute directory the server runs in. */
  cwd: string;
  startupTimeoutMs: number;
  requestTimeoutMs: number;
}

/** A started, initialized server. */
export interface StdioServerConnection {
  client: Client;
  /** Closes the connection and makes sure the child process has exited. */
  close(): Promise<void>;
}

// The v2 SDK's own error codes (SdkErrorCode): strings, unlike the JSON-RPC codes a server sends.
const CONNECTION_CLOSED = 'CONNECTION_CLOSED';
const REQUEST_TIMEOUT = 'REQUEST_TIMEOUT';
/** What a server answers a protocol version it does not speak with (MCP's -32022). */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;
/** How long the `server/discover` probe waits, for a server that refused the 2025 handshake. */
const DISCOVER_PROBE_MS = 3000;
/** How long a server may take to exit once its stdin is closed. */
const CLOSE_GRACE_MS = 1000;

interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/^(?:MCP error -?\d+:\s*)+/, '');
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The child process behind the transport: its exit status, and a way to make sure it is gone. */
class ChildWatch {
  child: ChildProcess | undefined;
  status: ExitStatus | undefined;
  #exited: Promise<void> = Promise.resolve();

  attach(child: ChildProcess | undefined): void {
    if (child === undefined) return;
    this.child = child;
    // Started early (early-server-spawn.ts), it may have exited before it was adopted.
    if (child.exitCode !== null || child.signalCode !== null) {
      this.status = { code: child.exitCode, signal: child.signalCode };
      return;
    }
    this.#exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.status = { code, signal };
        resolve();
      });
    });
  }

  get running(): boolean {
    return this.child !== undefined && this.status === undefined;
  }

  /** Waits up to `ms` for the exit; true when it happened. */
  async waitExit(ms: number): Promise<boolean> {
    if (!this.running) return true;
    await Promise.race([this.#exited, delay(ms)]);
    return !this.running;
  }

  /** SIGTERM, then SIGKILL if the child is still there after a grace period. */
  async terminate(graceMs = 1000): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGTERM');
    if (await this.waitExit(graceMs)) return;
    this.child!.kill('SIGKILL');
    await this.waitExit(graceMs);
  }
}

/**
 * Starts a configured MCP server over stdio and initializes it. Every failure is an
 * `AttachmentError` naming the server and what to change; so is every later request failure that
 * the client pool can explain better than the SDK (a timeout names its setting, a crash quotes the
 * exit status and the server's last stderr line).
 */
export async function connectStdioServer(settings: StdioServerSettings): Promise<StdioServerConnection> {
  const { name } = settings;
  const fail = (message: string, code: string, cause?: unknown) => new AttachmentError(name, `MCP server ${name} ${message}`, { code, cause });

  const cwdStats = await stat(settings.cwd).catch(() => undefined);
  if (cwdStats === undefined || !cwdStats.isDirectory()) {
    throw fail(`cannot start: its directory ${settings.cwd} does not exist (mcp.${name}.cwd)`, 'mcp_spawn_failed');
  }

  // The server starts while the SDK loads (POSIX; on Windows the SDK's cross-spawn finds commands).
  let early = process.platform === 'win32' ? undefined : spawnServerEarly(settings);
  let sdk;
  try {
    sdk = await Promise.all([import('@modelcontextprotocol/client'), import('@modelcontextprotocol/client/stdio')]);
  } catch (error) {
    early?.child.kill('SIGKILL');
    throw error;
  }
  const [{ Client }, { StdioClientTransport, getDefaultEnvironment }] = sdk;
  // A subclass, because the SDK probes the protocol era on a second, throwaway child when given its
  // own StdioClientTransport; a subclass is probed in place, on the one child of this start.
  class SingleChildStdioTransport extends StdioClientTransport {}

  /**
   * One spawn and handshake. `legacy` is the 2025 `initialize` handshake, which every server but a
   * modern-only one accepts; `auto` asks `server/discover` first and speaks 2026-07-28 (RFD 018).
   */
  const open = (mode: 'auto' | 'legacy') => {
    // The first start adopts the process begun early; a second one (the 2026 handshake) spawns its own.
    const Transport = early === undefined ? SingleChildStdioTransport : adoptingTransport(SingleChildStdioTransport, early);
    early = undefined;
    const transport = new Transport({
      command: settings.command,
      args: settings.args,
      env: { ...getDefaultEnvironment(), ...settings.env },
      cwd: settings.cwd,
      stderr: 'pipe',
    });
    const tail = new StderrTail();
    transport.stderr?.on('data', (chunk: Buffer) => tail.push(chunk));
    const watch = new ChildWatch();
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      // The SDK keeps the child private; its exit status is what makes a crash explainable.
      watch.attach((transport as unknown as { _process?: ChildProcess })._process);
    };
    const client = new Client(
      { name: 'jp', version },
      { versionNegotiation: { mode, probe: { timeoutMs: Math.min(DISCOVER_PROBE_MS, settings.startupTimeoutMs) } } },
    );
    const state = { transport, tail, watch, client, protocolError: undefined as string | undefined };
    client.onerror = (error) => {
      state.protocolError ??= messageOf(error);
    };
    return state;
  };

  let state = open('legacy');

  /** ` with exit code 3 (stderr: "…")`, once the exit and the last output have arrived. */
  const exitDetails = async (): Promise<string> => {
    const { watch, tail, protocolError } = state;
    await watch.waitExit(500);
    await new Promise((resolve) => setImmediate(resolve)); // stderr is piped through a stream: let it drain
    const status = watch.status;
    let text = status?.code != null ? ` with exit code ${status.code}` : status?.signal != null ? ` on signal ${status.signal}` : '';
    const line = tail.lastLine();
    if (line !== undefined) text += ` (stderr: "${line}")`;
    else if (protocolError !== undefined) text += ` (${protocolError})`;
    return text;
  };

  for (let mode: 'auto' | 'legacy' = 'legacy'; ; mode = 'auto') {
    if (mode === 'auto') state = open('auto');
    try {
      await state.client.connect(state.transport, { timeout: settings.startupTimeoutMs });
      break;
    } catch (error) {
      const exited = !state.watch.running && state.watch.child !== undefined;
      if (mode === 'legacy' && codeOf(error) === UNSUPPORTED_PROTOCOL_VERSION) {
        // A server that refuses every 2025 version (an SDK-v2 server with legacy: 'reject') gets
        // one more start, negotiated through `server/discover` (2026-07-28).
        await state.watch.terminate();
        continue;
      }
      const details = exited || codeOf(error) === CONNECTION_CLOSED ? await exitDetails() : '';
      await state.watch.terminate();
      throw startupError(settings, error, details, state.protocolError, fail, exited);
    }
  }
  const { client, watch } = state;

  const request = client.request.bind(client);
  client.request = (async (message: Parameters<typeof request>[0], ...rest: unknown[]) => {
    // request(message, options) or request(message, resultSchema, options)
    const withSchema = rest.length > 1 || (typeof rest[0] === 'object' && rest[0] !== null && '~standard' in rest[0]);
    const options = (withSchema ? rest[1] : rest[0]) as { signal?: AbortSignal; timeout?: number } | undefined;
    const call = (merged: object) => (withSchema ? (request as (...args: unknown[]) => Promise<unknown>)(message, rest[0], merged) : (request as (...args: unknown[]) => Promise<unknown>)(message, merged));
    if (!watch.running && watch.child !== undefined) {
      throw fail(`exited earlier in this run${await exitDetails()}`, 'mcp_server_exited');
    }
    try {
      return await call({ timeout: settings.requestTimeoutMs, ...options });
    } catch (error) {
      const code = codeOf(error);
      if (code === REQUEST_TIMEOUT) {
        throw fail(
          `did not answer ${message.method} within ${settings.requestTimeoutMs / 1000} s; raise mcp.${name}.request_timeout_secs if it is only slow`,
          'mcp_timeout',
          error,
        );
      }
      if (code === CONNECTION_CLOSED && !(options?.signal?.aborted ?? false)) {
        const details = await exitDetails();
        const what = watch.running ? 'closed the connection' : 'exited';
        throw fail(`${what} during ${message.method}${details}`, 'mcp_server_exited', error);
      }
      throw error;
    }
  }) as typeof client.request;

  return {
    client,
    async close() {
      // The stdio shutdown MCP describes: close its input, give it a moment, then SIGTERM and
      // SIGKILL. A second is enough for a server with nothing to finish; the SDK alone waits two
      // seconds at each step.
      if (watch.running) {
        watch.child!.stdin?.end();
        if (!(await watch.waitExit(CLOSE_GRACE_MS))) await watch.terminate();
      }
      await client.close().catch(() => undefined);
      await watch.terminate();
    },
  };
}

function startupError(
  settings: StdioServerSettings,
  error: unknown,
  exitDetails: string,
  protocolError: string | undefined,
  fail: (message: string, code: string, cause?: unknown) => AttachmentError,
  exited: boolean,
): AttachmentError {
  const { name, command } = settings;
  const code = codeOf(error);
  if (code === 'ENOENT') {
    const where = command.includes('/') ? `${command} does not exist` : `"${command}" was not found on PATH`;
    return fail(`cannot start: the command ${where} (mcp.${name}.command); install it or give its full path`, 'mcp_spawn_failed', error);
  }
  if (code === 'EACCES') return fail(`cannot start: ${command} is not executable (mcp.${name}.command)`, 'mcp_spawn_failed', error);
  // Other errno codes from spawn (EPERM, ENOTDIR, …); the SDK's own codes are words in capitals too, so match the E prefix.
  if (typeof code === 'string' && /^E[A-Z0-9]+$/.test(code)) return fail(`cannot start ${command}: ${messageOf(error)}`, 'mcp_spawn_failed', error);
  if (code === REQUEST_TIMEOUT) {
    const said = protocolError === undefined ? '' : ` (${protocolError})`;
    return fail(
      `did not answer initialize within ${settings.startupTimeoutMs / 1000} s${said}; check that \`${command}\` runs an MCP server on stdio, or raise mcp.${name}.startup_timeout_secs`,
      'mcp_startup_timeout',
      error,
    );
  }
  if (code === CONNECTION_CLOSED || exited) return fail(`exited during startup${exitDetails}`, 'mcp_server_exited', error);
  return fail(`failed to initialize: ${messageOf(error)}`, 'mcp_startup_failed', error);
}
