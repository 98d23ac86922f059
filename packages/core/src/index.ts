export { annotationsSchema, type Annotations } from './annotations.ts';
export { base64BytesSchema } from './base64.ts';
export {
  isBlobResource,
  isTextResource,
  resourceFromJson,
  resourceMetadataJson,
  resourceSchemas,
  resourceToJson,
  type BlobResource,
  type Resource,
  type ResourceJson,
  type ResourceMetadataJson,
  type TextResource,
} from './resource.ts';
export { textResourceFromSource, textResourceFromUtf8, type Utf8Source } from './utf8-text-resource.ts';
export { rememberResourceDigest, resourceByteLength, resourceBytes, resourceSha256, sha256Hex } from './resource-checksum.ts';
export { inputRequestSchema, type InputRequest } from './input-request.ts';
export {
  contentBlockSchemas,
  type ContentBlock,
  type ContentBlockJson,
  type QuestionBlock,
  type ResourceBlock,
  type TextBlock,
} from './content-block.ts';
export {
  KNOWN_EVENT_TYPES,
  eventSchemas,
  eventToJson,
  isKnownEvent,
  isKnownEventType,
  parseEvent,
  serializeEvent,
  type ChatRequestEvent,
  type ChatResponseEvent,
  type ConfigDeltaEvent,
  type ConversationEvent,
  type KnownEvent,
  type KnownEventType,
  type ParseEventResult,
  type ToolCallRequestEvent,
  type ToolCallResponseEvent,
  type TurnStartEvent,
  type UnknownEvent,
  type Usage,
} from './conversation-event.ts';
export { fenceLanguage } from './mime-language.ts';
export { formatResource } from './format-resource.ts';
export {
  contentFromMcpToolResult,
  resourceFromMcpContents,
  resourceFromMcpEmbedded,
  type ConvertedToolResult,
  type McpCallToolResult,
  type McpEmbeddedResource,
  type McpResourceContents,
} from './mcp-conversions.ts';
export { groupTurns, type Turn } from './turns.ts';
export { dedupeReference, dedupeResources, type DedupeOptions } from './dedupe-resources.ts';
export { ExitCode, JpError, isJpError } from './errors/jp-error.ts';
export { UsageError } from './errors/usage-error.ts';
export { AttachmentError } from './errors/attachment-error.ts';
export { ProviderError } from './errors/provider-error.ts';
export { LockedError } from './errors/locked-error.ts';
export {
  parseToolOutput,
  type ParseToolOutputOptions,
  type ParsedToolOutput,
  type ToolErrorMeta,
  type ToolStatus,
} from './parse-tool-output.ts';
