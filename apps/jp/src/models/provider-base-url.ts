import { defaultBaseUrl } from '@jp/providers';
import type { Config } from '../config/config-schema.ts';

/** Where `provider`'s requests go: `providers.<p>.base_url`, else its default (empty for echo). */
export function providerBaseUrl(config: Pick<Config, 'providers'>, provider: string): string {
  return config.providers[provider]?.base_url ?? defaultBaseUrl(provider) ?? '';
}
