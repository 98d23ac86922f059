export { createWireServer } from './wire-server.mjs';
export { cutStream, formatSseEvent, jsonResponse, sseResponse } from './responses.mjs';
export {
  anthropicErrorEvent,
  anthropicErrorResponse,
  anthropicStreamEvents,
  anthropicTextStream,
  anthropicToolUseStream,
  splitIntoDeltas,
  type AnthropicScriptedBlock,
  type AnthropicStreamOptions,
  type AnthropicWireUsage,
} from './anthropic-responses.mjs';
export { standaloneReply, startStandaloneServer, type StandaloneServerOptions } from './standalone-server.mjs';
export type {
  HandlerResponse,
  JsonResponse,
  RecordedRequest,
  ScriptedResponse,
  SseEvent,
  StreamCut,
  StreamResponse,
  WireServer,
  WireServerOptions,
} from './wire-types.d.mts';
export * from './openai-responses.mjs';
export * from './google-responses.mjs';
