import { describe, expect, it } from 'vitest';
import { configKeyPaths, isKnownKey, keyPattern, nearestKey } from './config-keys.ts';
import { checkLayer } from './validate-config.ts';

describe('config keys from the schema', () => {
  it('lists every key, names the user picks as placeholders, a table of values as one key', () => {
    const keys = configKeyPaths().map(keyPattern);
    expect(keys).toContain('assistant.model');
    expect(keys).toContain('assistant.system_prompt');
    expect(keys).toContain('providers.<provider>.models.<model>.context_window');
    expect(keys).toContain('mcp.<server>.env');
    expect(keys).not.toContain('mcp.<server>.env.<NAME>');
  });

  it('knows keys under names the user picks, and not others', () => {
    expect(isKnownKey(['providers', 'openai', 'models', 'gpt-4.1', 'context_window'])).toBe(true);
    expect(isKnownKey(['assistant'])).toBe(true);
    expect(isKnownKey(['assistant', 'modle'])).toBe(false);
    expect(isKnownKey(['mcp', 'gh', 'env', 'GITHUB_HOST'])).toBe(true);
  });

  it('suggests the nearest key for a typo, in its table or across tables, and nothing for a word far from all', () => {
    expect(nearestKey(['assistant', 'modle'])).toBe('assistant.model');
    expect(nearestKey(['asistant', 'model'])).toBe('assistant.model');
    expect(nearestKey(['providers', 'openai', 'models', 'gpt-4.1', 'context_windw'])).toBe('providers.openai.models."gpt-4.1".context_window');
    expect(nearestKey(['mcp', 'gh', 'comand'])).toBe('mcp.gh.command');
    expect(nearestKey(['assistant', 'zzzzzzzzzz'])).toBeUndefined();
  });

  it('puts the suggestion in the error of an unknown key', () => {
    expect(() => checkLayer({ assistant: { modle: 'echo' } }, '-c "assistant.modle=echo"')).toThrow(
      'invalid configuration in -c "assistant.modle=echo": unknown key assistant.modle (did you mean assistant.model?)',
    );
  });
});
