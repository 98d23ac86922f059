import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { UsageError } from '@jp/core';
import { ConfigSchema, type Config } from './config-schema.ts';
import { mergeLayers, type ConfigLayer } from './merge-config.ts';
import { parseCfgArg } from './parse-cfg-arg.ts';
import { withoutSecrets } from './secret-fields.ts';

export function userConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(base, 'jp', 'config.toml');
}

export function workspaceConfigFile(jpDir: string): string {
  return path.join(jpDir, 'config.toml');
}

/** Checks one layer against the schema, naming its source in the error. */
export function validateLayer(layer: ConfigLayer, source: string): ConfigLayer {
  const result = ConfigSchema.safeParse(layer);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    const what = issue.code === 'unrecognized_keys' ? `unknown key ${[...issue.path, ...issue.keys].join('.')}` : `${where}: ${issue.message}`;
    throw new UsageError(`invalid configuration in ${source}: ${what}`, { code: 'invalid_config' });
  }
  return layer;
}

function readTomlLayer(file: string, display: string): ConfigLayer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`cannot read ${display}: ${(error as Error).message}`, { code: 'invalid_config' });
  }
  try {
    return validateLayer(parseToml(text) as ConfigLayer, display);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const first = String((error as Error).message).split('\n')[0];
    throw new UsageError(`${display} is not valid TOML: ${first}`, { code: 'invalid_config' });
  }
}

/**
 * The two configuration files. The user's file is personal and is read afresh by every command;
 * nothing from it is ever written under `.jp/` (RFD 001, secrets). The workspace's file is what a new
 * conversation stores as its base config.
 */
export interface ConfigFiles {
  user: ConfigLayer;
  workspace: ConfigLayer;
}

/** The user's config file (`~/.config/jp/config.toml`), `{}` when there is none. */
export function readUserConfig(): ConfigLayer {
  return readTomlLayer(userConfigFile(), userConfigFile());
}

export function readConfigFiles(jpDir: string | undefined): ConfigFiles {
  return {
    user: readUserConfig(),
    workspace: jpDir === undefined ? {} : readTomlLayer(workspaceConfigFile(jpDir), '.jp/config.toml'),
  };
}

/** The configuration files' layers, lowest precedence first: user config, then workspace config. */
export function readFileLayers(jpDir: string | undefined): ConfigLayer[] {
  const { user, workspace } = readConfigFiles(jpDir);
  return [user, workspace];
}

/** `-c KEY=VALUE` as errors quote it: a secret field's value is left out (`-c "KEY=…"`). */
function cfgArgSource(arg: string, layer: ConfigLayer): string {
  return withoutSecrets(layer).removed.length > 0 ? `-c "${arg.slice(0, arg.indexOf('='))}=…"` : `-c "${arg}"`;
}

/** `-c` arguments as one layer, each validated. */
export function readCfgArgs(args: readonly string[]): ConfigLayer {
  return mergeLayers(
    args.map((arg) => {
      const layer = parseCfgArg(arg);
      return validateLayer(layer, cfgArgSource(arg, layer));
    }),
  );
}

export function resolveConfig(layers: readonly ConfigLayer[], source = 'the merged configuration'): Config {
  const merged = mergeLayers(layers);
  validateLayer(merged, source);
  return ConfigSchema.parse(merged);
}
