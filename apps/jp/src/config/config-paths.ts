import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where the user's config file is: `$XDG_CONFIG_HOME/jp/config.toml`, else `~/.config/jp/config.toml`. */
export function userConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(base, 'jp', 'config.toml');
}

export function workspaceConfigFile(jpDir: string): string {
  return path.join(jpDir, 'config.toml');
}

/** jp's per-user cache: `$XDG_CACHE_HOME/jp`, else `~/.cache/jp`; never in a workspace (RFD 031, RFD 034). */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'jp');
}

/**
 * Makes jp's cache directory `cache` (`userCacheDir()`, or where a test puts it) and `parts` below
 * it where missing, from its parent (`~/.cache`) down, each new one readable only by the user, and
 * returns the innermost. The home above is never made (ENOENT instead): a home that does not
 * exist is not jp's to create (RFD 034).
 */
export function makeCacheDir(cache: string, parts: readonly string[] = []): string {
  const dirs = [path.dirname(cache), cache];
  for (const part of parts) dirs.push(path.join(dirs.at(-1)!, part));
  for (const dir of dirs) if (!existsSync(dir)) mkdirSync(dir, { mode: 0o700 });
  return dirs.at(-1)!;
}
