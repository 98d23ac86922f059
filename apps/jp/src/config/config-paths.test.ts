import { existsSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeCacheDir, userCacheDir } from './config-paths.ts';

describe('makeCacheDir', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'jp-cache-dir-'));

  it('makes ~/.cache, ~/.cache/jp and the parts below, each readable only by the user', () => {
    const home = path.join(root, 'home');
    mkdirSync(home);
    const cache = userCacheDir({ XDG_CACHE_HOME: path.join(home, '.cache') });
    expect(makeCacheDir(cache, ['models'])).toBe(path.join(home, '.cache', 'jp', 'models'));
    for (const dir of ['.cache', '.cache/jp', '.cache/jp/models']) expect(statSync(path.join(home, dir)).mode & 0o777).toBe(0o700);
    // Made already: nothing to do, and no error.
    expect(makeCacheDir(cache, ['models'])).toBe(path.join(home, '.cache', 'jp', 'models'));
  });

  it('never makes a missing home: ENOENT, and nothing is created', () => {
    const home = path.join(root, 'no-home');
    expect(() => makeCacheDir(path.join(home, '.cache', 'jp'), ['models'])).toThrow(/ENOENT/);
    expect(existsSync(home)).toBe(false);
  });
});
