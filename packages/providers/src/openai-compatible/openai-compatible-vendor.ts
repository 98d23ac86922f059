/** The OpenAI-compatible chat-completions vendors jp speaks to. */
export type OpenAICompatibleVendor = 'openrouter' | 'ollama';

export interface OpenAICompatibleVendorDefaults {
  /** Includes `/v1`, as the OpenAI SDK expects. */
  baseUrl: string;
  /** The key's variable; `undefined` when the vendor needs no key. */
  apiKeyEnv: string | undefined;
  /** Whether the vendor takes PDFs as `file` parts (Ollama's compatibility layer takes text and images only). */
  fileParts: boolean;
}

export const OPENAI_COMPATIBLE_VENDORS: Record<OpenAICompatibleVendor, OpenAICompatibleVendorDefaults> = {
  openrouter: { baseUrl: 'https://openrouter.ai/api/v1', apiKeyEnv: 'OPENROUTER_API_KEY', fileParts: true },
  ollama: { baseUrl: 'http://127.0.0.1:11434/v1', apiKeyEnv: undefined, fileParts: false },
};

/**
 * Whether requests carry explicit `cache_control` markers: only OpenRouter, and only for model
 * slugs whose upstream caches by explicit breakpoints (Anthropic and Google); the others cache
 * automatically or not at all, and some reject unknown fields.
 */
export function usesCacheMarkers(vendor: OpenAICompatibleVendor, model: string): boolean {
  return vendor === 'openrouter' && (model.startsWith('anthropic/') || model.startsWith('google/'));
}
