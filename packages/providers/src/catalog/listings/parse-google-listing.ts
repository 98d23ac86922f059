import type { ModelFacts } from '../model-info.ts';

/** The fields of one Gemini `models.get`/`models.list` entry jp reads (ai.google.dev/api/models#Model). */
export interface GoogleListedModel {
  name?: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  thinking?: boolean;
}

/**
 * One Gemini listing entry as jp's facts: its token limits (the input limit is the window), and
 * `thinking: false` as a model that does not reason. The listing says nothing of budget ranges or
 * levels, so those come from jp's table.
 */
export function parseGoogleListing(entry: GoogleListedModel): ModelFacts {
  const facts: ModelFacts = {};
  if (typeof entry.inputTokenLimit === 'number') facts.contextWindow = entry.inputTokenLimit;
  if (typeof entry.outputTokenLimit === 'number') facts.maxOutputTokens = entry.outputTokenLimit;
  if (entry.thinking === false) facts.reasoning = false;
  return facts;
}

/** `models/gemini-2.5-flash` → `gemini-2.5-flash`. */
export function googleModelId(name: string): string {
  return name.startsWith('models/') ? name.slice('models/'.length) : name;
}
