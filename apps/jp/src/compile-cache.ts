import { existsSync } from 'node:fs';
import * as nodeModule from 'node:module';
import path from 'node:path';
import { userCacheDir } from './config/config-paths.ts';

/** What jp needs of `node:module`: `enableCompileCache` exists from Node.js 22.1 on. */
export interface ModuleApi {
  enableCompileCache?: (directory?: string) => unknown;
}

/**
 * From Node.js 22.1 on, keeps V8's compiled code of jp's chunks between runs (the module compile
 * cache, https://nodejs.org/api/module.html#module-compile-cache; its effect is in
 * docs/performance.md). On Node 20 it does nothing. The cache goes where
 * jp keeps its other per-user caches, `~/.cache/jp/compile-cache` (not Node's default in the shared
 * temp directory, which another user could write to), and only once that directory exists: Node
 * makes every missing directory of the path, and jp never makes a missing home (RFD 034).
 * `NODE_COMPILE_CACHE` still chooses the directory and `NODE_DISABLE_COMPILE_CACHE` turns it off, as
 * Node documents. Enabling never throws (the API reports a failure in its result, ignored here).
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env, api: ModuleApi = nodeModule as ModuleApi): void {
  if (typeof api.enableCompileCache !== 'function') return;
  if (env.NODE_COMPILE_CACHE) {
    api.enableCompileCache();
    return;
  }
  const base = userCacheDir(env);
  if (existsSync(base)) api.enableCompileCache(path.join(base, 'compile-cache'));
}
