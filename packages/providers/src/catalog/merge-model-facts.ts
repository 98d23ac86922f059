import { MODEL_FACT_KEYS, type CatalogLayer, type ModelInfo } from './model-info.ts';

/**
 * The facts of `layers`, highest first: each fact comes whole from the first layer that has it
 * (`reasoning` too: efforts of one source are never mixed with thinking types of another).
 * Undefined when no layer has any fact.
 */
export function mergeModelFacts(provider: string, id: string, layers: readonly CatalogLayer[]): ModelInfo | undefined {
  const info: ModelInfo = { provider, id, sources: {}, references: {} };
  let any = false;
  for (const key of MODEL_FACT_KEYS) {
    const layer = layers.find((candidate) => candidate.facts[key] !== undefined);
    if (layer === undefined) continue;
    (info as unknown as Record<string, unknown>)[key] = layer.facts[key];
    info.sources[key] = layer.source;
    if (layer.reference !== undefined) info.references[layer.source] = layer.reference;
    any = true;
  }
  return any ? info : undefined;
}
