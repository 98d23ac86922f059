import type { ModelFacts } from '../model-info.ts';

/** The fields of Ollama's `POST /api/show` answer jp reads (docs.ollama.com/api/show). */
export interface OllamaShow {
  capabilities?: string[];
  model_info?: Record<string, unknown>;
}

/**
 * Ollama's description of a local model as jp's facts: its context length (`<arch>.context_length`
 * in `model_info`), and from `capabilities` whether it thinks and reads images.
 */
export function parseOllamaShow(show: OllamaShow): ModelFacts {
  const facts: ModelFacts = {};
  for (const [key, value] of Object.entries(show.model_info ?? {})) {
    if (key.endsWith('.context_length') && typeof value === 'number') facts.contextWindow = value;
  }
  if (Array.isArray(show.capabilities)) {
    facts.reasoning = show.capabilities.includes('thinking') ? {} : false;
    facts.imageInput = show.capabilities.includes('vision');
  }
  return facts;
}
