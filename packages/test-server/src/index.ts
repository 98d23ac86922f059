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
// Strict stand-ins: each vendor's documented rules, refusals in the vendor's wording (src/strict/README.md).
export { createStrictServer } from './strict/strict-server.mjs';
export type { StrictReply, StrictRejection, StrictServer, StrictServerOptions, StrictToolCall, StrictVendor } from './strict/strict-types.d.mts';
export { ANTHROPIC_MODELS, type AnthropicModel } from './strict/anthropic/anthropic-models.mjs';
export { OPENAI_MODELS, type OpenAIModel } from './strict/openai/openai-models.mjs';
export { GOOGLE_MODELS, type GoogleModel } from './strict/google/google-models.mjs';
export { OPENROUTER_MODELS, type OpenRouterModel } from './strict/openrouter/openrouter-models.mjs';
export { OLLAMA_MODELS, type OllamaModel } from './strict/ollama/ollama-models.mjs';
