/**
 * A `jp://` URI that names nothing in this workspace: an unknown conversation, a turn it does not
 * have, a snapshot it does not hold. The server answers it with MCP's "resource not found"
 * (-32002); any other failure of a read is about that one resource, not the server.
 */
export class ResourceMissing extends Error {
  override readonly name = 'ResourceMissing';

  constructor(
    readonly uri: string,
    message: string,
  ) {
    super(message);
  }
}
