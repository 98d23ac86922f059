import { spawn, type ChildProcess } from 'node:child_process';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/*
 * A server's process is started before the client SDK is loaded, so that loading the SDK (~55 ms
 * of module compile on jp's thread) overlaps the server's own start (a Node server: ~200 ms in its
 * own process) instead of preceding it (RFD 029, "MCP attach overhead"). The SDK's stdio transport
 * then adopts that process instead of spawning one: `adoptingTransport` wires it exactly as the
 * SDK 2.4.0's `start()` wires the process it spawns. Until then the child's output waits in its
 * paused pipes; nothing is lost.
 */

/** What the SDK's `getDefaultEnvironment()` passes a server on POSIX, read without loading the SDK. */
const INHERITED = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

export function defaultServerEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED) {
    const value = process.env[key];
    // As the SDK does: a shell function exported through the environment is not a value.
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return env;
}

export interface EarlyServer {
  child: ChildProcess;
  /** Resolves once the process runs; rejects with the spawn error (ENOENT, EACCES) as the SDK's `start()` would. */
  spawned: Promise<void>;
}

/** Starts a server's process as the SDK would (no shell, stdin and stdout piped), before the SDK is loaded. */
export function spawnServerEarly(settings: { command: string; args: string[]; env: Record<string, string>; cwd: string }): EarlyServer {
  const child = spawn(settings.command, settings.args, {
    env: { ...defaultServerEnvironment(), ...settings.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
    cwd: settings.cwd,
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', reject);
  });
  spawned.catch(() => undefined); // the adopting transport reports it
  return { child, spawned };
}

/** The SDK transport's private parts that its `start()` sets up, which the adopting `start()` sets up alike. */
interface TransportInternals {
  _process: ChildProcess | undefined;
  _readBuffer: { append(chunk: Buffer): void };
  _stderrStream: NodeJS.WritableStream | null;
  processReadBuffer(): void;
}

/** A subclass of the SDK's stdio transport whose `start()` adopts `early` instead of spawning. */
export function adoptingTransport(Base: typeof StdioClientTransport, early: EarlyServer): typeof StdioClientTransport {
  return class AdoptingStdioTransport extends Base {
    override async start(): Promise<void> {
      const self = this as unknown as TransportInternals;
      if (self._process !== undefined) throw new Error('this MCP transport is already started');
      const { child, spawned } = early;
      self._process = child;
      child.on('error', (error) => this.onerror?.(error));
      child.on('close', () => {
        self._process = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          self._readBuffer.append(chunk);
          self.processReadBuffer();
        } catch (error) {
          this.onerror?.(error as Error);
          this.close().catch(() => undefined);
        }
      });
      child.stdout?.on('error', (error) => this.onerror?.(error));
      if (self._stderrStream !== null && child.stderr !== null) child.stderr.pipe(self._stderrStream);
      await spawned;
    }
  };
}
