import { AttachmentError } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { isAttachableServerName, mcpDeclaration, parseMcpUrl, tryParseMcpUrl } from './parse-mcp-url.ts';

describe('parseMcpUrl', () => {
  it('splits the server name from the resource URI, which is kept byte for byte', () => {
    expect(parseMcpUrl('mcp+everything+demo://resource/static/document/features.md')).toEqual({
      server: 'everything',
      uri: 'demo://resource/static/document/features.md',
    });
    expect(parseMcpUrl('mcp+fixture+fixture://files/a/./b%20c/../d.txt?x=1#y')).toEqual({
      server: 'fixture',
      uri: 'fixture://files/a/./b%20c/../d.txt?x=1#y',
    });
  });

  it('ends the server name at the first + so the URI may carry its own +', () => {
    expect(parseMcpUrl('mcp+git-server+git+ssh://host/repo')).toEqual({ server: 'git-server', uri: 'git+ssh://host/repo' });
    expect(parseMcpUrl('mcp+s+urn:isbn:0451450523')).toEqual({ server: 's', uri: 'urn:isbn:0451450523' });
  });

  it('accepts the prefix in any case and declares it in lower case; the server name keeps its case', () => {
    const url = parseMcpUrl('MCP+Docs+demo://x');
    expect(url).toEqual({ server: 'Docs', uri: 'demo://x' });
    expect(mcpDeclaration(url)).toBe('mcp+Docs+demo://x');
  });

  it.each([
    ['mcp+everything', /names no resource URI/],
    ['mcp++demo://x', /"" is not a usable MCP server name/],
    ['mcp+my_server+demo://x', /"my_server" is not a usable MCP server name \(letters, digits and "-" only/],
    ['mcp+-x+demo://x', /"-x" is not a usable MCP server name/],
    ['mcp+s+', /"" is not a URI/],
    ['mcp+s+no-scheme/path', /"no-scheme\/path" is not a URI \(it needs a scheme/],
    ['https://example.com', /not an MCP attachment/],
  ])('rejects %s with a one-line error naming it and the form', (input, message) => {
    let error: unknown;
    try {
      parseMcpUrl(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AttachmentError);
    expect((error as AttachmentError).message).toMatch(message);
    expect((error as AttachmentError).message).toContain(input);
    expect((error as AttachmentError).message).toContain('mcp+<server>+<resource uri>');
    expect((error as AttachmentError).attachment).toBe(input);
    expect((error as AttachmentError).exitCode).toBe(4);
    expect(tryParseMcpUrl(input)).toBeUndefined();
  });

  it('tells which configured names can be used in attachments', () => {
    expect(['everything', 'a1', 'my-server', 'X'].every(isAttachableServerName)).toBe(true);
    expect(['my_server', 'a.b', '', '-a', 'a+b'].some(isAttachableServerName)).toBe(false);
  });
});
