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
