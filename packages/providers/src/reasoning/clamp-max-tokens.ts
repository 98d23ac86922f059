import type { ModelInfo } from '../catalog/model-info.ts';

/**
 * The output limit to send: the user's, else the provider's default, never above the model's
 * maximum. Lowering the user's own setting says so; lowering jp's default does not.
 */
export function clampMaxTokens<T extends number | undefined>(
  wanted: number | undefined,
  fallback: T,
  info: ModelInfo | undefined,
): { maxTokens: number | T; warnings: string[] } {
  const limit = info?.maxOutputTokens;
  const maxTokens: number | T = wanted ?? fallback;
  if (limit === undefined || maxTokens === undefined || maxTokens <= limit) return { maxTokens, warnings: [] };
  const warnings = wanted === undefined ? [] : [`assistant.max_tokens = ${wanted} is above ${info!.id}'s maximum of ${limit} output tokens; ${limit} is sent`];
  return { maxTokens: limit, warnings };
}
