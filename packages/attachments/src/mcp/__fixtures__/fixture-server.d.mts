import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** Base64 of a real 1×1 PNG, as `fixture://images/pixel.png` serves it. */
export declare const FIXTURE_PNG_BASE64: string;
/** The text of `fixture://docs/readme`. */
export declare const FIXTURE_README: string;
/** Terminal escape sequences (ESC and C1 based), a carriage return and a bidi override, as `--hostile` says them. */
export declare const FIXTURE_HOSTILE_TEXT: string;

export interface FixtureServerOptions {
  /** Delay of `fixture://slow` (default 2000 ms). */
  slowMs?: number;
  /** Every read exits the process (as `--crash-on-read` does). */
  crashOnRead?: boolean;
  /** Escape sequences in its name, version, title and extra resources (as `--hostile` does). */
  hostile?: boolean;
  /** Where `fixture://env` reads FIXTURE_ECHO_ENV from, and the `embedded_resource` tool FIXTURE_EMBED_URIS and FIXTURE_EMBED_TEXT. */
  env?: Record<string, string | undefined>;
}

/** The fixture MCP server, not yet connected to a transport. */
export declare function createFixtureServer(options?: FixtureServerOptions): McpServer;
