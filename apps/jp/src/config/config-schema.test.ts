import { UsageError } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { MAX_TIMEOUT_SECS } from './config-schema.ts';
import { readCfgArgs } from './load-config.ts';

// Every timeout jp sets from configuration: a value a timer cannot hold would fire at once.
const TIMEOUT_KEYS = [
  'conversation.attachment.cmd.timeout_secs',
  'conversation.attachment.http.timeout_secs',
  'conversation.lock_timeout_secs',
  'tools.t.timeout_secs',
  'mcp.m.startup_timeout_secs',
  'mcp.m.request_timeout_secs',
];

/** One `-c` argument setting `key`; a tool `t` or server `m` comes whole, so that it validates. */
function withOwner(key: string, value: string): string[] {
  const leaf = key.split('.').at(-1);
  if (key.startsWith('tools.t.')) return [`tools.t={command="x", description="x", ${leaf}=${value}}`];
  if (key.startsWith('mcp.m.')) return [`mcp.m={command="x", ${leaf}=${value}}`];
  return [`${key}=${value}`];
}

describe('timeouts in the configuration', () => {
  it.each(TIMEOUT_KEYS)('%s is rejected past the longest timer, naming the key and the maximum', (key) => {
    const args = withOwner(key, '3000000');
    expect(() => readCfgArgs(args)).toThrow(UsageError);
    expect(() => readCfgArgs(args)).toThrow(`${key}: at most ${MAX_TIMEOUT_SECS} seconds (about 24 days), the longest timer jp can set`);
  });

  it.each(TIMEOUT_KEYS)('%s takes the maximum itself, and rejects inf and nan', (key) => {
    expect(() => readCfgArgs(withOwner(key, String(MAX_TIMEOUT_SECS)))).not.toThrow();
    expect(() => readCfgArgs(withOwner(key, 'inf'))).toThrow(UsageError);
    expect(() => readCfgArgs(withOwner(key, 'nan'))).toThrow(UsageError);
  });

  it('the maximum fits a timer', () => {
    expect(MAX_TIMEOUT_SECS * 1000).toBeLessThanOrEqual(2 ** 31 - 1);
    expect((MAX_TIMEOUT_SECS + 1) * 1000).toBeGreaterThan(2 ** 31 - 1);
  });
});
