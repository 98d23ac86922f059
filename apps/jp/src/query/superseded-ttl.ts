import type { Config } from '../config/config-schema.ts';

/**
 * The prompt-cache lifetime jp assumes for `omit-when-cold` (RFD 020): `conversation.history.cache_ttl_secs`
 * when set, else the provider's documented one — Anthropic 5 minutes, an hour with
 * `providers.anthropic.cache_ttl = "1h"`; OpenAI keeps a cached prefix 5 to 10 minutes of inactivity
 * (up to an hour off-peak): 10 minutes, the longer, so a cache that may still be warm is not
 * thrown away; Google's implicit cache publishes no lifetime: 5 minutes, like the others. Other
 * providers (local ones, echo): 5 minutes.
 */
export function supersededTtlSecs(config: Config, provider: string): number {
  const set = config.conversation.history.cache_ttl_secs;
  if (set !== undefined) return set;
  if (provider === 'anthropic') return config.providers.anthropic?.cache_ttl === '1h' ? 3600 : 300;
  if (provider === 'openai') return 600;
  return 300;
}
