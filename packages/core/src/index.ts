// The core model: the types of resources, content blocks and events, and pure functions over
// them. This entry builds no schema and loads no zod, so start-up paths and light commands stay
// light; the schemas, and what parses or encodes with them (schemas.ts), arrive through
// `loadSchemas()` — the one lazy boundary of the core. No I/O, no Node modules.
export type { Annotations } from './annotations.ts';
export type { ContentRef } from './content-ref.ts';
export { SHA256_PATTERN } from './sha256-pattern.ts';
export type { BlobResource, LoadedResource, RefResource, Resource, ResourceJson, ResourceMetadataJson, TextResource } from './resource.ts';
export {
  isBlobResource,
  isRefResource,
  isTextResource,
  loadedResource,
  mapResources,
  resourceMetadataJson,
  resolveResourceContent,
  resourceByteLength,
  resourceBytes,
  resourceEncoding,
  utf8Text,
  withContentRef,
  withLoadedContent,
} from './resource-content.ts';
export type { InputRequest } from './input-request.ts';
export type { ContentBlock, ContentBlockJson, QuestionBlock, ResourceBlock, TextBlock, ToolContentBlock } from './content-block.ts';
export type {
  ChatRequestEvent,
  ChatResponseEvent,
  ReasoningOpaque,
  ConfigDeltaEvent,
  ConversationEvent,
  KnownEvent,
  KnownEventType,
  ParseEventResult,
  ToolCallRequestEvent,
  ToolCallResponseEvent,
  TurnStartEvent,
  UnknownEvent,
  Usage,
} from './conversation-event.ts';
export type { BranchRemovalEvent, RemovalEvent, TitleEvent } from './record-events.ts';
export { KNOWN_EVENT_TYPES, isKnownEvent, isKnownEventType } from './event-types.ts';
export { fenceLanguage } from './mime-language.ts';
export { TEXTUAL_APPLICATION_TYPES, isTextualMimeType, mimeEssence } from './mime-type.ts';
export { formatResource } from './format-resource.ts';
export type { FreshnessNotice } from './freshness-notice.ts';
export { requestTextWithNotices } from './request-text.ts';
export type { FramedTool, RequestFrame } from './request-frame.ts';
export type { ConvertedToolResult, McpCallToolResult, McpEmbeddedResource, McpResourceContents } from './mcp-conversions.ts';
export { groupTurns, turnNumber, type Turn } from './turns.ts';
export {
  SUPERSEDED_POLICIES,
  cacheIsCold,
  decideSuperseded,
  isSupersededStub,
  lastActivityAt,
  recordedSuperseded,
  stubSuperseded,
  supersededCandidates,
  supersededStub,
  type SupersededMark,
  type SupersededOptions,
  type SupersededPolicy,
} from './superseded-snapshots.ts';
export { dedupeReference, dedupeResources, type DedupeOptions } from './dedupe-resources.ts';
export { ExitCode, JpError, isJpError } from './errors/jp-error.ts';
export { UsageError } from './errors/usage-error.ts';
export { KNOWN_PROVIDERS, isKnownProvider, parseModelId, type ModelId, type ProviderId } from './parse-model-id.ts';
export { AttachmentError } from './errors/attachment-error.ts';
export { ProviderError } from './errors/provider-error.ts';
export { LockedError } from './errors/locked-error.ts';
export type { ParseToolOutputOptions, ParsedToolOutput, ToolErrorMeta, ToolStatus } from './parse-tool-output.ts';

/**
 * The core's schemas (zod) and what parses or encodes with them: events, resources, MCP results,
 * tool output. Loaded on first call, so nothing that never validates pays for zod; a bundler makes
 * them a chunk of their own (apps/jp/test/bundle-boundaries.e2e.test.ts checks the built chunks).
 * Modules that validate take them once, at the top: `const { parseEvent } = await loadSchemas();`.
 */
export function loadSchemas(): Promise<typeof import('./schemas.ts')> {
  return import('./schemas.ts');
}
export { hasUrlSecrets, REDACTED, redactUrlSecrets } from './redact-url-secrets.ts';
export * from './compaction/index.ts';
export { planBranches, type BranchLine, type BranchPlan, type TurnNode } from './branches/plan-branches.ts';
export { dropStaleThinking } from './stale-thinking.ts';
export type { CacheMiss, DroppedBlock, ModelCallEvent } from './model-call-event.ts';
