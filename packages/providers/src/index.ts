export type {
  CallRecord,
  ConvertedRequest,
  FinishReason,
  Provider,
  ProviderRequest,
  ProviderSettings,
  StreamEvent,
  ToolDefinition,
} from './provider.ts';
// Model ids are the core's (a pure parse, ARCHITECTURE §6); re-exported for the provider's callers.
export { KNOWN_PROVIDERS, isKnownProvider, parseModelId, type ModelId, type ProviderId } from '@jp/core';
export { IMPLEMENTED_PROVIDERS, createProvider } from './create-provider.ts';
export { retryAfterMs } from './retry-after.ts';
export { createEchoProvider } from './echo/echo-provider.ts';
export type { EchoRequest, EchoResource, EchoTurn } from './echo/describe-echo-request.ts';
export {
  ANTHROPIC_DEFAULT_API_KEY_ENV,
  ANTHROPIC_DEFAULT_BASE_URL,
  createAnthropicProvider,
} from './anthropic/anthropic-provider.ts';
export { convertToAnthropicRequest, DEFAULT_ANTHROPIC_MAX_TOKENS } from './anthropic/convert-to-anthropic-request.ts';
export { MAX_ANTHROPIC_CACHE_BREAKPOINTS } from './anthropic/apply-anthropic-cache-control.ts';
export { createOpenAIProvider } from './openai/openai-provider.ts';
export { createGoogleProvider } from './google/google-provider.ts';
export { createOpenAICompatibleChatProvider, type OpenAICompatibleVendor } from './openai-compatible/openai-compatible-chat-provider.ts';
export { cdata, escapeXmlAttribute, resourceToXml } from './shared/resource-xml.ts';
export { convertToOpenAIRequest } from './openai/convert-to-openai-request.ts';
export { convertToOpenAICompatibleChatRequest } from './openai-compatible/convert-to-openai-compatible-chat-request.ts';
export { convertToGoogleRequest } from './google/convert-to-google-request.ts';
export { LEVEL_BUDGETS, REASONING_LEVELS, reasoningBudget, reasoningLevel, type ReasoningLevel, type ReasoningSetting } from './reasoning/reasoning-setting.ts';
export { nearestLevel } from './reasoning/reasoning-setting.ts';
export { defaultBaseUrl } from './default-base-url.ts';
export type { AnthropicThinkingType, FactSource, ModelFacts, ModelInfo, ModelPrice, ModelReasoning } from './catalog/model-info.ts';
export { MODEL_FACT_KEYS } from './catalog/model-info.ts';
export { lookupModel, type ModelSources } from './catalog/lookup-model.ts';
export { canonicalModelId, findShippedModel } from './catalog/find-shipped-model.ts';
export { SHIPPED_MODELS, type ShippedModel } from './catalog/shipped-models-table.ts';
export { QUICK_START_MODELS } from './catalog/quick-start-models.ts';
export { fetchModelListing, type ListingSettings } from './catalog/listings/fetch-model-listing.ts';
