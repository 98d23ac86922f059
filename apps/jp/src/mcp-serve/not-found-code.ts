import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/** MCP's "resource not found" in the 2025 protocol revisions. */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * The SDK answers every "resource not found" with -32602 and `data: {uri}` (what the 2026-07-28
 * revision requires), on every revision. A client of the 2025 revisions expects -32002: for a
 * connection that opened with the 2025 handshake, that one answer gets its code back. Only the
 * SDK's own not-found shape (-32602 with `data` exactly `{uri}`) is changed. Pure.
 */
export function legacyNotFoundCode(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message)) return message;
  const { error } = message;
  const data = error.data as Record<string, unknown> | undefined;
  if (error.code !== -32602 || typeof data !== 'object' || data === null || typeof data.uri !== 'string' || Object.keys(data).length !== 1) return message;
  return { ...message, error: { ...error, code: RESOURCE_NOT_FOUND } };
}
