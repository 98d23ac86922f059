import { canonicalModelId, type ModelFacts } from '@jp/providers';
import type { Config } from '../config/config-schema.ts';

/**
 * What the config says of `model` at `provider`: `providers.<p>.models."<id>"` and
 * `providers.<p>.prices."<id>"`, by the id as given or as the catalog names it (a snapshot date
 * dropped). Undefined when it says nothing. `reasoning_efforts = []` with no thinking types or
 * budget says the model does not reason.
 */
export function configuredModelFacts(config: Pick<Config, 'providers'>, provider: string, model: string): ModelFacts | undefined {
  const settings = config.providers[provider];
  if (settings === undefined) return undefined;
  const base = canonicalModelId(model);
  const entry = settings.models?.[model] ?? settings.models?.[base];
  const price = settings.prices?.[model] ?? settings.prices?.[base];
  const facts: ModelFacts = {};
  if (entry?.context_window !== undefined) facts.contextWindow = entry.context_window;
  if (entry?.max_output_tokens !== undefined) facts.maxOutputTokens = entry.max_output_tokens;
  if (entry?.structured_output !== undefined) facts.structuredOutput = entry.structured_output;
  if (entry?.image_input !== undefined) facts.imageInput = entry.image_input;
  if (entry?.pdf_input !== undefined) facts.pdfInput = entry.pdf_input;
  const { reasoning_efforts: efforts, thinking_types: thinkingTypes, thinking_budget: budget } = entry ?? {};
  if (efforts !== undefined || thinkingTypes !== undefined || budget !== undefined) {
    const none = efforts !== undefined && efforts.length === 0 && thinkingTypes === undefined && budget === undefined;
    facts.reasoning = none ? false : { efforts, thinkingTypes, budget };
  }
  if (price !== undefined) facts.price = { input: price.input, output: price.output, cacheRead: price.cache_read ?? price.input, cacheWrite: price.cache_write ?? price.input };
  return Object.keys(facts).length === 0 ? undefined : facts;
}
