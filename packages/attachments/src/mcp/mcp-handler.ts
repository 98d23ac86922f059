import { AttachmentError } from '@jp/core';
import type { AttachmentHandler } from '../handler.ts';

// Placeholder until this handler is written (issue B): it claims its schemes so the registry
// routes to it, and fails every call with a clear message.
export function createMcpHandler(): AttachmentHandler {
  const missing = (input: string): never => {
    throw new AttachmentError(input, `cannot attach ${input}: this kind of attachment is not supported yet`, { code: 'attachment_unsupported' });
  };
  return {
    schemes: ['mcp+'],
    validate: async (input) => missing(input),
    resolve: async (declarations) => missing(declarations[0] ?? ''),
    refresh: async (uri) => missing(uri),
    covers: () => false,
  };
}
