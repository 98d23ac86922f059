/** A row of the strict OpenRouter stand-in's model table; `upstream` names the rules it inherits. */
export interface OpenRouterModel {
  id: string;
  name: string;
  context: number;
  maxCompletion: number;
  input: string[];
  pricing: { prompt: string; completion: string; input_cache_read?: string; input_cache_write?: string };
  upstream: 'gemini3' | 'gemini25' | 'claude-extended' | 'claude-adaptive' | 'openai';
}
export declare const OPENROUTER_MODELS: OpenRouterModel[];
export declare function openRouterModelInfo(row: OpenRouterModel): Record<string, unknown>;
