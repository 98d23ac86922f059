import { describe, expect, it } from 'vitest';
import { parseScopes } from './search-scope.ts';

describe('parseScopes', () => {
  it('defaults to every scope but reasoning', () => {
    expect([...parseScopes(undefined)]).toEqual(['user', 'assistant', 'tool', 'resource', 'title']);
    expect([...parseScopes([])]).toEqual(['user', 'assistant', 'tool', 'resource', 'title']);
  });

  it('takes comma-separated and repeated names, and all', () => {
    expect([...parseScopes(['user,title', 'Tool'])]).toEqual(['user', 'title', 'tool']);
    expect(parseScopes(['all']).has('reasoning')).toBe(true);
  });

  it('refuses an unknown scope, naming the ones there are (exit 2)', () => {
    expect(() => parseScopes(['answers'])).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringContaining('user, assistant, reasoning, tool, resource, title') }));
  });
});
