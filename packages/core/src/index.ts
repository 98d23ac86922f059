// The core model: zod schemas with their types, and pure functions over them. No I/O, no Node
// modules. Errors are exported here too; with `sideEffects: false` a bundle that imports only
// them does not load the schemas.
export { AnnotationsSchema, type Annotations } from './annotations.ts';
export { Base64BytesSchema } from './base64.ts';
export { ContentRefSchema, type ContentRef } from './content-ref.ts';
export { SHA256_PATTERN } from './sha256-pattern.ts';
export {
  BlobResourceSchema,
  LoadedResourceSchema,
  RefResourceSchema,
  ResourceSchema,
  TextResourceSchema,
  resourceFromJson,
  resourceMetadataJson,
  resourceToJson,
  type BlobResource,
  type LoadedResource,
  type RefResource,
  type Resource,
  type ResourceJson,
  type ResourceMetadataJson,
  type TextResource,
} from './resource.ts';
export {
  isBlobResource,
  isRefResource,
  isTextResource,
  loadedResource,
  mapResources,
  resolveResourceContent,
  resourceByteLength,
  resourceBytes,
  resourceEncoding,
  utf8Text,
  withContentRef,
  withLoadedContent,
} from './resource-content.ts';
export { InputRequestSchema, type InputRequest } from './input-request.ts';
export {
  ContentBlockSchema,
  QuestionBlockSchema,
  ResourceBlockSchema,
  TextBlockSchema,
  ToolContentBlockSchema,
  type ContentBlock,
  type ContentBlockJson,
  type QuestionBlock,
  type ResourceBlock,
  type TextBlock,
  type ToolContentBlock,
} from './content-block.ts';
export {
  ChatRequestEventSchema,
  ChatResponseEventSchema,
  ConfigDeltaEventSchema,
  EVENT_SCHEMAS,
  KNOWN_EVENT_TYPES,
  ToolCallRequestEventSchema,
  ToolCallResponseEventSchema,
  TurnStartEventSchema,
  UsageSchema,
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
export { TEXTUAL_APPLICATION_TYPES, isTextualMimeType, mimeEssence } from './mime-type.ts';
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
export { describeIssues } from './describe-issues.ts';
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
