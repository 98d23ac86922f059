/**
 * The variable each provider's key is read from unless `providers.<name>.api_key_env` says
 * otherwise. Apart from `select-provider.ts`, so that knowing it loads no provider's code.
 */
export const DEFAULT_KEY_ENV: Record<string, string | undefined> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  google: 'GEMINI_API_KEY',
  openrouter: 'OPENROUTER_API_KEY',
};
