import { UsageError } from '@jp/core';
import { QUICK_START_MODELS } from '@jp/providers';
import type { Config } from '../config/config-schema.ts';
import { DEFAULT_KEY_ENV } from './provider-key-env.ts';

/**
 * Each provider's default model when none is configured (the catalog's quick-start models),
 * chosen only when exactly one provider has a key in the environment.
 */
export const DEFAULT_MODELS: Readonly<Record<string, string>> = QUICK_START_MODELS;

/** The model to use when none is configured, with the variable that decided it; or a usage error naming the choices. */
export function defaultModel(config: Config, env: NodeJS.ProcessEnv): { model: string; keyEnv: string } {
  const withKeys = Object.keys(DEFAULT_MODELS).flatMap((name) => {
    const keyEnv = config.providers[name]?.api_key_env ?? DEFAULT_KEY_ENV[name]!;
    return env[keyEnv] ? [{ model: DEFAULT_MODELS[name]!, keyEnv }] : [];
  });
  if (withKeys.length === 1) return withKeys[0]!;
  const how = 'pass -m/--model (e.g. -m echo) or set assistant.model in .jp/config.toml';
  if (withKeys.length === 0) {
    throw new UsageError(`no model configured and no provider key set: ${how}, or export one of ${Object.keys(DEFAULT_MODELS).map((name) => DEFAULT_KEY_ENV[name]).join(', ')}`, { code: 'no_model' });
  }
  throw new UsageError(`no model configured and keys for several providers are set (${withKeys.map((entry) => entry.keyEnv).join(', ')}): ${how}, e.g. -m ${withKeys[0]!.model}`, { code: 'no_model' });
}
