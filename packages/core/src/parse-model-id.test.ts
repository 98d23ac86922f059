import { UsageError } from './errors/usage-error.ts';
import { describe, expect, it } from 'vitest';
import { parseModelId } from './parse-model-id.ts';

describe('parseModelId', () => {
  it('splits provider/model at the first slash; echo alone is valid', () => {
    expect(parseModelId('anthropic/claude-sonnet-4-5')).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(parseModelId('openrouter/anthropic/claude-x')).toEqual({ provider: 'openrouter', model: 'anthropic/claude-x' });
    expect(parseModelId('echo')).toEqual({ provider: 'echo', model: 'echo' });
    expect(parseModelId(' echo/v2 ')).toEqual({ provider: 'echo', model: 'v2' });
  });

  it('rejects an unknown provider listing the known ones, as a usage error', () => {
    const error = (() => {
      try {
        parseModelId('mistral/large');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({
      code: 'unknown_provider',
      exitCode: 2,
      message: 'unknown provider "mistral" in model id "mistral/large"; known providers: anthropic, echo, google, ollama, openai, openrouter',
    });
  });

  it('rejects an empty id and a provider without a model', () => {
    expect(() => parseModelId('')).toThrow('the model id is empty; use provider/model, e.g. anthropic/claude-sonnet-5-5, or echo');
    expect(() => parseModelId('anthropic')).toThrow('model id "anthropic" names no model; use anthropic/<model>');
    expect(() => parseModelId('openai/')).toThrow('model id "openai/" names no model; use openai/<model>');
  });
});
