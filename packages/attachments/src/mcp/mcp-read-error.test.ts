import { AttachmentError } from '@jp/core';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { mcpReadError, serverMessage } from './mcp-read-error.ts';

const input = 'mcp+s+demo://x';
const url = { server: 's', uri: 'demo://x' };

describe('mcpReadError', () => {
  it.each([
    [new McpError(ErrorCode.InvalidParams, 'MCP error -32602: Resource demo://x not found'), 'mcp_resource_not_found', 'server s has no resource demo://x (it said: Resource demo://x not found); `jp mcp resources s` lists its resources and templates'],
    [new McpError(-32002, 'Resource not found', { uri: 'demo://x' }), 'mcp_resource_not_found', 'server s has no resource demo://x (it said: Resource not found)'],
    [new McpError(ErrorCode.MethodNotFound, 'Method not found'), 'mcp_no_resources', 'server s does not serve resources (it said: Method not found)'],
    [Object.assign(new Error('Request timed out'), { code: 'REQUEST_TIMEOUT' }), 'mcp_timeout', 'server s did not answer the read of demo://x'],
    [Object.assign(new Error('Connection closed'), { code: 'CONNECTION_CLOSED' }), 'mcp_server_exited', 'server s closed the connection while reading demo://x; it may have crashed'],
    [new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: 1500 }), 'mcp_timeout', 'server s did not answer the read of demo://x within 1.5 s'],
    [new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), 'mcp_server_exited', 'server s closed the connection while reading demo://x; it may have crashed'],
    [new McpError(ErrorCode.InternalError, 'disk on fire\n  at somewhere'), 'mcp_server_error', 'server s failed to read demo://x: disk on fire at somewhere'],
    [new Error('Not connected'), 'mcp_read_failed', 'reading demo://x from server s failed: Not connected'],
  ])('%s → %s', (error, code, message) => {
    const mapped = mcpReadError(input, url, error);
    expect(mapped).toBeInstanceOf(AttachmentError);
    expect(mapped.code).toBe(code);
    expect(mapped.message.startsWith(`${input}: ${message}`)).toBe(true);
    expect(mapped.message).not.toContain('\n');
    expect(mapped.cause).toBe(error);
  });

  it('-32601 from a server that offers resources is about the resource, not about resources', () => {
    const mapped = mcpReadError(input, url, new McpError(ErrorCode.MethodNotFound, 'Unknown resource'), true);
    expect(mapped.code).toBe('mcp_resource_not_found');
    expect(mapped.message).toBe(`${input}: server s has no resource demo://x (it said: Unknown resource); \`jp mcp resources s\` lists its resources and templates`);
  });

  it('keeps an AttachmentError from the pool, prefixed once', () => {
    const pool = new AttachmentError('s', 'MCP server s exited with exit code 1', { code: 'mcp_server_exited' });
    const once = mcpReadError(input, url, pool);
    expect(once.message).toBe(`${input}: MCP server s exited with exit code 1`);
    expect(mcpReadError(input, url, once).message).toBe(once.message);
    expect(once.code).toBe('mcp_server_exited');
  });
});

describe('serverMessage', () => {
  it('drops nested SDK prefixes and bounds the length', () => {
    expect(serverMessage(new McpError(-32602, 'MCP error -32602: Resource x not found'))).toBe('Resource x not found');
    expect(serverMessage(new Error('x'.repeat(1000)))).toHaveLength(300);
  });
});
