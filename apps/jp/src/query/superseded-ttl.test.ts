import { describe, expect, it } from 'vitest';
import { readCfgArgs, resolveConfig } from '../config/load-config.ts';
import { supersededTtlSecs } from './superseded-ttl.ts';

const config = (...args: string[]) => resolveConfig(args.length === 0 ? [] : [readCfgArgs(args)]);

describe('supersededTtlSecs', () => {
  it("takes the provider's documented prompt-cache lifetime", () => {
    expect(supersededTtlSecs(config(), 'anthropic')).toBe(300);
    expect(supersededTtlSecs(config('providers.anthropic.cache_ttl=1h'), 'anthropic')).toBe(3600);
    expect(supersededTtlSecs(config(), 'openai')).toBe(600);
    expect(supersededTtlSecs(config(), 'google')).toBe(300);
    expect(supersededTtlSecs(config(), 'echo')).toBe(300);
  });

  it('conversation.history.cache_ttl_secs overrides it', () => {
    expect(supersededTtlSecs(config('conversation.history.cache_ttl_secs=5', 'providers.anthropic.cache_ttl=1h'), 'anthropic')).toBe(5);
  });
});
