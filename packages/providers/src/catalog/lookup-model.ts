import { findShippedModel } from './find-shipped-model.ts';
import { mergeModelFacts } from './merge-model-facts.ts';
import type { CatalogLayer, ModelFacts, ModelInfo } from './model-info.ts';

/** What the app found about one model before the shipped table: its config entry and the provider's cached listing. */
export interface ModelSources {
  /** `providers.<p>.models."<id>"`. */
  configured?: ModelFacts | undefined;
  /** The provider's own listing, as cached, with the date it was fetched. */
  listed?: { facts: ModelFacts; fetchedAt: string } | undefined;
}

/**
 * Everything jp knows of `model` at `provider`, highest source first: config, the cached listing,
 * the shipped table (RFD 031). Undefined when no source knows it: the model still runs, with no
 * guessed parameters.
 */
export function lookupModel(provider: string, model: string, sources: ModelSources = {}): ModelInfo | undefined {
  const layers: CatalogLayer[] = [];
  if (sources.configured !== undefined) layers.push({ source: 'config', facts: sources.configured });
  if (sources.listed !== undefined) layers.push({ source: 'listing', reference: `fetched ${sources.listed.fetchedAt}`, facts: sources.listed.facts });
  const shipped = findShippedModel(provider, model);
  if (shipped !== undefined) layers.push({ source: 'table', reference: `${shipped.row.source} (read ${shipped.row.checked})`, facts: shipped.facts });
  return mergeModelFacts(provider, model, layers);
}
