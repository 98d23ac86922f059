import { OPENROUTER_EFFORTS } from '../find-shipped-model.ts';
import type { ModelFacts } from '../model-info.ts';

/** The fields of one OpenRouter `GET /api/v1/models` entry that jp reads (openrouter.ai/docs/api-reference/list-available-models). */
export interface OpenRouterListedModel {
  id: string;
  context_length?: number | null;
  top_provider?: { max_completion_tokens?: number | null } | null;
  supported_parameters?: string[] | null;
  architecture?: { input_modalities?: string[] | null } | null;
  pricing?: { prompt?: string | null; completion?: string | null; input_cache_read?: string | null; input_cache_write?: string | null } | null;
}

/** A price per token as OpenRouter writes it ("0.000003"), per million tokens; undefined when absent or not a number. */
function perMillion(value: string | null | undefined): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? Math.round(number * 1e6 * 1e6) / 1e6 : undefined;
}

/**
 * One OpenRouter listing entry as jp's facts: `context_length`, the top provider's completion
 * limit, `supported_parameters` (`reasoning`, `structured_outputs`), input modalities, and the
 * pricing per token, as dollars per million.
 */
export function parseOpenRouterListing(entry: OpenRouterListedModel): ModelFacts {
  const facts: ModelFacts = {};
  if (typeof entry.context_length === 'number') facts.contextWindow = entry.context_length;
  const limit = entry.top_provider?.max_completion_tokens;
  if (typeof limit === 'number') facts.maxOutputTokens = limit;
  const parameters = entry.supported_parameters;
  if (Array.isArray(parameters)) {
    facts.reasoning = parameters.includes('reasoning') ? { efforts: OPENROUTER_EFFORTS } : false;
    facts.structuredOutput = parameters.includes('structured_outputs');
  }
  const modalities = entry.architecture?.input_modalities;
  if (Array.isArray(modalities)) {
    facts.imageInput = modalities.includes('image');
    facts.pdfInput = modalities.includes('file');
  }
  const input = perMillion(entry.pricing?.prompt);
  const output = perMillion(entry.pricing?.completion);
  if (input !== undefined && output !== undefined) {
    facts.price = { input, output, cacheRead: perMillion(entry.pricing?.input_cache_read) ?? input, cacheWrite: perMillion(entry.pricing?.input_cache_write) ?? input };
  }
  return facts;
}
