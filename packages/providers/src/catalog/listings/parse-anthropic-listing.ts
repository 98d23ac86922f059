import type { ModelInfo as AnthropicModelInfo } from '@anthropic-ai/sdk/resources/models';
import type { AnthropicThinkingType, ModelFacts } from '../model-info.ts';

const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
const TYPES: readonly AnthropicThinkingType[] = ['adaptive', 'enabled', 'disabled', 'between_tools'];

/**
 * One entry of Anthropic's `GET /v1/models` as jp's facts (the SDK's models.d.ts types it):
 * `max_input_tokens` and `max_tokens`, and from `capabilities` the thinking types and effort
 * levels it supports, structured outputs, image and PDF input. A budget, where `enabled` is
 * supported, runs from 1 024 to below `max_tokens` (ThinkingConfigEnabled). What the entry leaves
 * null stays unknown.
 */
export function parseAnthropicListing(entry: AnthropicModelInfo): ModelFacts {
  const facts: ModelFacts = {};
  if (typeof entry.max_input_tokens === 'number') facts.contextWindow = entry.max_input_tokens;
  if (typeof entry.max_tokens === 'number') facts.maxOutputTokens = entry.max_tokens;
  const capabilities = entry.capabilities;
  if (capabilities === null || capabilities === undefined) return facts;
  const thinking = capabilities.thinking;
  const types = TYPES.filter((type) => thinking?.types?.[type]?.supported === true);
  const efforts = capabilities.effort?.supported ? EFFORTS.filter((level) => capabilities.effort[level]?.supported === true) : [];
  if (thinking?.supported === false) facts.reasoning = false;
  else if (thinking !== undefined) {
    facts.reasoning = {
      thinkingTypes: types,
      ...(efforts.length > 0 ? { efforts } : {}),
      ...(types.includes('enabled') && typeof entry.max_tokens === 'number' ? { budget: { min: 1024, max: entry.max_tokens - 1 } } : {}),
    };
  }
  if (capabilities.structured_outputs !== undefined) facts.structuredOutput = capabilities.structured_outputs.supported;
  if (capabilities.image_input !== undefined) facts.imageInput = capabilities.image_input.supported;
  if (capabilities.pdf_input !== undefined) facts.pdfInput = capabilities.pdf_input.supported;
  return facts;
}
