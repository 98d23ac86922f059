import { describe, expect, it } from 'vitest';
import { configKeys, isKnownKey, keyPattern, nearestKey } from './config-keys.ts';
import { checkLayer } from './validate-config.ts';

describe('config keys from the schema', () => {
  it('lists every key with its type and default, names the user picks as placeholders', () => {
    const keys = new Map(configKeys().map((key) => [keyPattern(key.path), key]));
    expect(keys.get('assistant.model')).toEqual({ path: ['assistant', 'model'], type: 'string' });
    expect(keys.get('conversation.compaction.auto')).toMatchObject({ type: '"off" | "ask" | "on"', default: 'ask' });
    expect(keys.get('conversation.lock_timeout_secs')).toMatchObject({ type: 'number', default: 10 });
    expect(keys.get('providers.<provider>.models.<model>.context_window')).toMatchObject({ type: 'integer' });
    expect(keys.get('mcp.<server>.env')).toMatchObject({ type: 'table of strings', default: {} });
    expect(keys.has('assistant.system_prompt')).toBe(true);
  });

  it('knows keys under names the user picks, and not others', () => {
    expect(isKnownKey(['providers', 'openai', 'models', 'gpt-4.1', 'context_window'])).toBe(true);
    expect(isKnownKey(['assistant'])).toBe(true);
    expect(isKnownKey(['assistant', 'modle'])).toBe(false);
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
