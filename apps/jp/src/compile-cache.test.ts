import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { enableCompileCache, type ModuleApi } from './compile-cache.ts';

/** A `node:module` whose `enableCompileCache` records what it was asked. */
function recording(): { api: ModuleApi; calls: (string | undefined)[][] } {
  const calls: (string | undefined)[][] = [];
  return { api: { enableCompileCache: (...args: (string | undefined)[]) => calls.push(args) }, calls };
}

describe('enableCompileCache', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'jp-compile-cache-'));

  it('on a Node without the API (20), does nothing', () => {
    expect(() => enableCompileCache({ XDG_CACHE_HOME: root }, {})).not.toThrow();
  });

  it("keeps the cache under jp's per-user cache once that exists, never in the shared temp directory", () => {
    const cache = path.join(root, 'xdg');
    const { api, calls } = recording();
    enableCompileCache({ XDG_CACHE_HOME: cache }, api);
    // No ~/.cache/jp yet: Node would make every directory of the path, so nothing is asked.
    expect(calls).toEqual([]);
    mkdirSync(path.join(cache, 'jp'), { recursive: true });
    enableCompileCache({ XDG_CACHE_HOME: cache }, api);
    expect(calls).toEqual([[path.join(cache, 'jp', 'compile-cache')]]);
  });

  it('leaves the directory to NODE_COMPILE_CACHE when the user set it', () => {
    const { api, calls } = recording();
    enableCompileCache({ NODE_COMPILE_CACHE: path.join(root, 'mine'), XDG_CACHE_HOME: root }, api);
    expect(calls).toEqual([[]]);
  });
});
