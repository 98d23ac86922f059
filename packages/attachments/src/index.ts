export {
  DEFAULT_COMMAND_LIMITS,
  DEFAULT_FETCH_LIMITS,
  DEFAULT_LIMITS,
  type AttachmentHandler,
  type AttachmentLimits,
  type CommandLimits,
  type ContentSpool,
  type FetchLimits,
  type FileContentCache,
  type FileStamp,
  type HandlerContext,
  type HandlerLogger,
  type KnownFileContent,
  type McpClients,
  type OversizeDecision,
  type ResolveProgress,
  type SpooledBlob,
} from './handler.ts';
export { AttachmentRegistry, createRegistry } from './registry.ts';
export { schemeOf } from './uri-scheme.ts';
export { createFileHandler } from './file/file-handler.ts';
export { startReadAhead, type ReadAhead, type ReadAheadHost, type ReadAheadRequest } from './file/read-ahead.ts';
export { textMimeType } from './file/file-mime-type.ts';
export { fileStamp } from './file/file-stamp.ts';
export { filePathOf } from './file/workspace-path.ts';
export { listDeclaredFiles } from './file/list-declared-files.ts';
export { createHttpHandler } from './http/http-handler.ts';
export { createCmdHandler } from './cmd/cmd-handler.ts';
export { createMcpHandler } from './mcp/mcp-handler.ts';
export { numberRepeatedUris } from './mcp/part-uri.ts';
export { limitMcpResource } from './mcp/limit-mcp-resource.ts';
export { stderrTail } from './cmd/stderr-tail.ts';
export { outputContent, type OutputContent } from './cmd/output-content.ts';
export { HARD_MAX_BYTES } from './file/oversize-read-length.ts';
export { killProcessGroup, trackProcessGroup } from './cmd/kill-process-group.ts';
