import { UsageError } from './errors/usage-error.ts';

/** Every provider name a model id may start with (ARCHITECTURE §6), implemented or not. */
export const KNOWN_PROVIDERS = ['anthropic', 'echo', 'google', 'ollama', 'openai', 'openrouter'] as const;
export type ProviderId = (typeof KNOWN_PROVIDERS)[number];

export interface ModelId {
  provider: ProviderId;
  /** The rest after the first `/` (`openrouter/anthropic/claude-x` → `anthropic/claude-x`); `echo` alone is model `echo`. */
  model: string;
}

export function isKnownProvider(name: string): name is ProviderId {
  return (KNOWN_PROVIDERS as readonly string[]).includes(name);
}

const EXAMPLE = 'use provider/model, e.g. anthropic/claude-sonnet-5-5, or echo';

/** Splits `provider/model`. Unknown providers and missing models are usage errors (exit 2). */
export function parseModelId(id: string): ModelId {
  const trimmed = id.trim();
  if (trimmed === '') throw new UsageError(`the model id is empty; ${EXAMPLE}`, { code: 'invalid_model_id' });
  const slash = trimmed.indexOf('/');
  const provider = slash === -1 ? trimmed : trimmed.slice(0, slash);
  const model = slash === -1 ? '' : trimmed.slice(slash + 1);
  if (!isKnownProvider(provider)) {
    throw new UsageError(`unknown provider "${provider}" in model id "${trimmed}"; known providers: ${KNOWN_PROVIDERS.join(', ')}`, {
      code: 'unknown_provider',
    });
  }
  if (provider === 'echo') return { provider, model: model === '' ? 'echo' : model };
  if (model === '') {
    throw new UsageError(`model id "${trimmed}" names no model; use ${provider}/<model>`, { code: 'invalid_model_id' });
  }
  return { provider, model };
}
