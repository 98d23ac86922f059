import { AttachmentError } from '@jp/core';

/** An MCP attachment: which configured server, and the resource URI exactly as the server knows it. */
export interface McpUrl {
  server: string;
  uri: string;
}

/**
 * Server names as they may appear in `mcp+<server>+<uri>`: letters, digits and `-`. The whole
 * `mcp+<server>+<scheme>` prefix must read as one URI scheme for the registry to route it here,
 * and a scheme takes neither `_` nor anything else outside `[A-Za-z0-9+.-]`; `+` separates, and `.`
 * would make the config key `mcp.<server>` ambiguous.
 */
export const MCP_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

const PREFIX = /^mcp\+/i;
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

const FORM = 'write mcp+<server>+<resource uri>, e.g. mcp+everything+demo://resource/static/document/features.md';

/** Whether a configured server name can be used in an attachment URL. */
export function isAttachableServerName(name: string): boolean {
  return MCP_SERVER_NAME.test(name);
}

/**
 * Splits `mcp+<server>+<uri>` (pure). The server name ends at the first `+` after `mcp+`; the rest
 * is the resource URI, kept byte for byte (it may itself contain `+`, as in `git+ssh://…`).
 */
export function parseMcpUrl(input: string): McpUrl {
  if (!PREFIX.test(input)) {
    throw new AttachmentError(input, `${input} is not an MCP attachment; ${FORM}`, { code: 'mcp_url_invalid' });
  }
  const rest = input.slice(4);
  const plus = rest.indexOf('+');
  if (plus === -1) {
    throw new AttachmentError(input, `${input} names no resource URI after the server; ${FORM}`, { code: 'mcp_url_invalid' });
  }
  const server = rest.slice(0, plus);
  const uri = rest.slice(plus + 1);
  if (!MCP_SERVER_NAME.test(server)) {
    throw new AttachmentError(
      input,
      `${input}: "${server}" is not a usable MCP server name (letters, digits and "-" only, starting with a letter or digit); ${FORM}`,
      { code: 'mcp_url_invalid' },
    );
  }
  if (!URI_SCHEME.test(uri)) {
    throw new AttachmentError(input, `${input}: "${uri}" is not a URI (it needs a scheme such as demo:); ${FORM}`, { code: 'mcp_url_invalid' });
  }
  return { server, uri };
}

/** The declaration of an MCP attachment: the URL in its one spelling, `mcp+<server>+<uri>`. */
export function mcpDeclaration(url: McpUrl): string {
  return `mcp+${url.server}+${url.uri}`;
}

/** Like `parseMcpUrl`, `undefined` instead of an error. */
export function tryParseMcpUrl(input: string): McpUrl | undefined {
  try {
    return parseMcpUrl(input);
  } catch {
    return undefined;
  }
}
