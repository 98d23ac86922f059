import { AttachmentError } from '@jp/core';
import type { McpUrl } from './parse-mcp-url.ts';

/** JSON-RPC and MCP error codes the handler tells apart (the SDK's `ErrorCode`, plus MCP's -32002). */
export const McpErrorCode = {
  connectionClosed: -32000,
  requestTimeout: -32001,
  resourceNotFound: -32002,
  methodNotFound: -32601,
  invalidParams: -32602,
} as const;

/** The v2 SDK's own errors (`SdkError`) carry words, not JSON-RPC numbers. */
const SDK_ERROR_CODES: Record<string, number> = { CONNECTION_CLOSED: McpErrorCode.connectionClosed, REQUEST_TIMEOUT: McpErrorCode.requestTimeout };

/** The JSON-RPC code of an SDK error (duck-typed: the SDK's types module is heavy), the SDK's own words mapped to theirs. */
export function mcpErrorCode(error: unknown): number | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string') return SDK_ERROR_CODES[code];
  return typeof code === 'number' ? code : undefined;
}

/**
 * What the server said, without the SDK's `MCP error -32602: ` prefixes (a server built on the SDK
 * nests them), on one line and bounded.
 */
export function serverMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const text = raw.replace(/^(?:MCP error -?\d+:\s*)+/, '').replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

/**
 * The attachment error for a failed `resources/read`, naming the attachment as given. Errors the
 * client pool already phrased (start-up failures, a server that exited, a timeout naming its
 * setting) are `AttachmentError`s and keep their words, prefixed with the attachment.
 * `offersResources`: the server's capabilities include `resources`, so a "method not found" is
 * about this resource (some servers answer an unknown URI so), not about resources as a whole.
 */
export function mcpReadError(input: string, url: McpUrl, error: unknown, offersResources = false): AttachmentError {
  const { server, uri } = url;
  if (error instanceof AttachmentError) {
    const message = error.message.startsWith(input) ? error.message : `${input}: ${error.message}`;
    return new AttachmentError(input, message, { code: error.code, cause: error });
  }
  const said = serverMessage(error);
  const options = (code: string) => ({ code, cause: error });
  const notFound = () =>
    new AttachmentError(
      input,
      `${input}: server ${server} has no resource ${uri} (it said: ${said}); \`jp mcp resources ${server}\` lists its resources and templates`,
      options('mcp_resource_not_found'),
    );
  switch (mcpErrorCode(error)) {
    case McpErrorCode.methodNotFound:
      // Some servers answer a URI they do not know so; only one without the resources capability
      // really does not serve resources.
      if (offersResources) return notFound();
      return new AttachmentError(input, `${input}: server ${server} does not serve resources (it said: ${said})`, options('mcp_no_resources'));
    case McpErrorCode.invalidParams:
    case McpErrorCode.resourceNotFound:
      return notFound();
    case McpErrorCode.requestTimeout: {
      const ms = (error as { data?: { timeout?: unknown } }).data?.timeout;
      const within = typeof ms === 'number' ? ` within ${ms / 1000} s` : '';
      return new AttachmentError(input, `${input}: server ${server} did not answer the read of ${uri}${within}`, options('mcp_timeout'));
    }
    case McpErrorCode.connectionClosed:
      return new AttachmentError(
        input,
        `${input}: server ${server} closed the connection while reading ${uri}; it may have crashed`,
        options('mcp_server_exited'),
      );
    case undefined:
      return new AttachmentError(input, `${input}: reading ${uri} from server ${server} failed: ${said}`, options('mcp_read_failed'));
    default:
      return new AttachmentError(input, `${input}: server ${server} failed to read ${uri}: ${said}`, options('mcp_server_error'));
  }
}
