import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { conversationsRoot } from '../store/list-conversations.ts';
import { ConversationReader } from './conversation-reader.ts';
import { announceUpdate, createJpMcpServer, type McpServerWithSubscriptions } from './jp-mcp-server.ts';
import { legacyNotFoundCode } from './not-found-code.ts';
import { pathPrivacy } from './public-uri.ts';
import { ConversationWatcher } from './watch-conversations.ts';

export interface ServeOptions {
  root: string;
  jpDir: string;
  /** Poll instead of watching the files. */
  poll?: boolean;
}

/**
 * The stdio transport, with the 2025 revisions' not-found code put back on a connection of that era
 * (`legacyNotFoundCode`), and a promise that settles when the client goes away.
 */
class ServeTransport implements Transport {
  readonly #inner = new StdioServerTransport();
  legacy = false;
  readonly closed: Promise<void>;
  #settle: () => void = () => undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];

  constructor() {
    this.closed = new Promise((resolve) => (this.#settle = resolve));
  }

  async start(): Promise<void> {
    this.#inner.onclose = () => {
      this.onclose?.();
      this.#settle();
    };
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onmessage = (message) => this.onmessage?.(message);
    await this.#inner.start();
  }

  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(this.legacy ? legacyNotFoundCode(message) : message);
  }

  async close(): Promise<void> {
    await this.#inner.close();
    this.#settle();
  }
}

/**
 * `jp mcp serve`: this workspace's conversations over MCP on stdin/stdout until the client closes
 * them. Read-only; changes are noticed by a `ConversationWatcher` shared by the connection's server.
 */
export async function serveConversations(options: ServeOptions): Promise<void> {
  const reader = new ConversationReader(options.jpDir);
  const privacy = pathPrivacy(options.root);
  let current: McpServerWithSubscriptions | undefined;
  const report = () => undefined;
  const watcher = new ConversationWatcher(
    conversationsRoot(options.jpDir),
    {
      listChanged: () => {
        if (current?.isConnected()) current.sendResourceListChanged();
      },
      updated: (id) => {
        if (current !== undefined) announceUpdate(current, id).catch(report);
      },
    },
    { poll: options.poll === true },
  );
  const followers = new Map<string, number>();
  const transport = new ServeTransport();
  const handle = serveStdio(
    (ctx) => {
      transport.legacy = ctx.era === 'legacy';
      const server = createJpMcpServer(
        {
          reader,
          privacy,
          watching: watcher.mode,
          follow: (id) => {
            followers.set(id, (followers.get(id) ?? 0) + 1);
            watcher.follow(id);
          },
          unfollow: (id) => {
            const left = (followers.get(id) ?? 1) - 1;
            if (left > 0) followers.set(id, left);
            else {
              followers.delete(id);
              watcher.unfollow(id);
            }
          },
        },
        ctx.era,
      );
      current = server;
      return server;
    },
    { transport, onerror: report },
  );
  try {
    await transport.closed;
  } finally {
    watcher.close();
    await handle.close().catch(report);
  }
}
