// The core's schemas (zod), each next to its type in its own module, and what parses or encodes
// with them. A second entry so that `@jp/core` itself loads no zod: code that validates imports
// this one (the query's store, tools, MCP results); start-up paths and light commands never do.
export { AnnotationsSchema } from './annotations.ts';
export { Base64BytesSchema } from './base64.ts';
export { ContentRefSchema } from './content-ref.ts';
export {
  BlobResourceSchema,
  LoadedResourceSchema,
  RefResourceSchema,
  ResourceSchema,
  TextResourceSchema,
  resourceFromJson,
  resourceToJson,
} from './resource.ts';
export { InputRequestSchema } from './input-request.ts';
export { FreshnessNoticeSchema } from './freshness-notice.ts';
export { ContentBlockSchema, QuestionBlockSchema, ResourceBlockSchema, TextBlockSchema, ToolContentBlockSchema } from './content-block.ts';
export {
  ChatRequestEventSchema,
  ChatResponseEventSchema,
  ConfigDeltaEventSchema,
  EVENT_SCHEMAS,
  ToolCallRequestEventSchema,
  ToolCallResponseEventSchema,
  TurnStartEventSchema,
  UsageSchema,
  eventToJson,
  parseEvent,
  serializeEvent,
} from './conversation-event.ts';
export { contentFromMcpToolResult, resourceFromMcpContents, resourceFromMcpEmbedded } from './mcp-conversions.ts';
export { describeIssues } from './describe-issues.ts';
export { parseToolOutput } from './parse-tool-output.ts';
export { SupersededMarkSchema } from './superseded-mark-schema.ts';
export { CompactionEventSchema, CompactionSummarySchema } from './compaction/compaction-event.ts';
export { BranchRemovalEventSchema, RemovalEventSchema, TitleEventSchema } from './record-events.ts';
