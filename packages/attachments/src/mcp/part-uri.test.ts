import { describe, expect, it } from 'vitest';
import { numberRepeatedUris, partUri, splitPartUri } from './part-uri.ts';

describe('part URIs', () => {
  it('number the second and later contents under one URI, in order, and leave distinct URIs alone', () => {
    expect(numberRepeatedUris([{ uri: 'a://x' }, { uri: 'a://y' }, { uri: 'a://x' }, { uri: 'a://x' }]).map((item) => item.uri)).toEqual([
      'a://x',
      'a://y',
      'a://x#part=2',
      'a://x#part=3',
    ]);
  });

  it('append to a fragment the server gave, and split back to the server URI', () => {
    expect(partUri('a://x#frag', 2)).toBe('a://x#frag&part=2');
    expect(splitPartUri('a://x#frag&part=2')).toEqual({ uri: 'a://x#frag', part: 2 });
    expect(splitPartUri('a://x#part=12')).toEqual({ uri: 'a://x', part: 12 });
    expect(splitPartUri('a://x')).toEqual({ uri: 'a://x', part: 1 });
  });
});
