import type { ModelFacts } from './model-info.ts';
import { SHIPPED_MODELS, type ShippedModel } from './shipped-models-table.ts';

/**
 * OpenRouter's unified `reasoning.effort` values (openrouter.ai/docs/use-cases/reasoning-tokens):
 * it maps each onto the routed model's own control.
 */
export const OPENROUTER_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

/**
 * A model id as jp's table names it: a snapshot date or `-latest` dropped
 * (`claude-sonnet-4-5-20250929` and `gpt-5-2025-08-07` find their model's row).
 */
export function canonicalModelId(model: string): string {
  return model.replace(/-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, '');
}

function row(provider: keyof typeof SHIPPED_MODELS, model: string): ShippedModel | undefined {
  const id = canonicalModelId(model);
  return SHIPPED_MODELS[provider].find((candidate) => candidate.id === id);
}

/**
 * jp's shipped row for `model` at `provider`. An OpenRouter id names its vendor
 * (`anthropic/claude-opus-5.5`) and finds that vendor's row, with OpenRouter's own reasoning
 * control: its unified efforts where the vendor's model reasons. Undefined when jp has no row.
 */
export function findShippedModel(provider: string, model: string): { row: ShippedModel; facts: ModelFacts } | undefined {
  if (provider === 'anthropic' || provider === 'openai' || provider === 'google') {
    const found = row(provider, model);
    return found === undefined ? undefined : { row: found, facts: found };
  }
  if (provider !== 'openrouter') return undefined;
  const slash = model.indexOf('/');
  const vendor = model.slice(0, slash);
  if (vendor !== 'anthropic' && vendor !== 'openai' && vendor !== 'google') return undefined;
  // OpenRouter writes Claude's versions with dots (claude-opus-5.5); Anthropic with dashes.
  const id = vendor === 'anthropic' ? model.slice(slash + 1).replaceAll('.', '-') : model.slice(slash + 1);
  const found = row(vendor, id);
  if (found === undefined) return undefined;
  const { prefixBoundThinking: _bound, reasoning, ...rest } = found;
  return { row: found, facts: { ...rest, reasoning: reasoning === false ? false : { efforts: OPENROUTER_EFFORTS } } };
}
