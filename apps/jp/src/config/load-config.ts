import { readFileSync } from 'node:fs';
import { parse as parseToml, TomlError } from 'smol-toml';
import { UsageError } from '@jp/core';
import { mergeLayers, type ConfigLayer } from './merge-config.ts';
import { cfgArgSplit, parseCfgArg } from './parse-cfg-arg.ts';
import { withoutSecrets } from './secret-fields.ts';
import type { SourcedLayer } from './sourced-layer.ts';
import { checkLayer } from './validate-config.ts';
import { userConfigFile, workspaceConfigFile } from './config-paths.ts';

export { checkLayer, resolveConfig } from './validate-config.ts';
// Where the files are is its own module, so that reading them without validating (completion) loads no schema.
export { userConfigFile, workspaceConfigFile } from './config-paths.ts';

/** How the workspace's config file is named in messages. */
export const WORKSPACE_CONFIG_LABEL = '.jp/config.toml';

/** A config file's text as a layer. A syntax error is one line naming the file, line and column. */
export function parseConfigText(text: string, display: string): ConfigLayer {
  try {
    return parseToml(text) as ConfigLayer;
  } catch (error) {
    const message = String((error as Error).message).split('\n')[0]!.replace(/^Invalid TOML document:\s*/, '');
    const where = error instanceof TomlError ? `${display}:${error.line}:${error.column}` : display;
    throw new UsageError(`${where}: ${message}; fix the file`, { code: 'invalid_config' });
  }
}

/** A config file's text, `undefined` when there is none. */
export function readConfigText(file: string, display: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read ${display}: ${(error as Error).message}`, { code: 'invalid_config' });
  }
}

function readTomlLayer(file: string, display: string): ConfigLayer {
  const text = readConfigText(file, display);
  return text === undefined ? {} : checkLayer(parseConfigText(text, display), display);
}

/**
 * The two configuration files, as they are now: every command reads them afresh, and a
 * conversation follows them for every key it did not set itself (RFD 001, configuration). Nothing
 * of the user's file is ever written under `.jp/` (RFD 001, secrets).
 */
export interface ConfigFiles {
  user: ConfigLayer;
  workspace: ConfigLayer;
  /** Where the user's file is (it may not exist). */
  userFile: string;
}

export function readConfigFiles(jpDir: string | undefined): ConfigFiles {
  const userFile = userConfigFile();
  return {
    user: readTomlLayer(userFile, userFile),
    workspace: jpDir === undefined ? {} : readTomlLayer(workspaceConfigFile(jpDir), WORKSPACE_CONFIG_LABEL),
    userFile,
  };
}

/** The files as layers, lowest precedence first: the user's, then the workspace's. */
export function fileLayers(files: ConfigFiles): SourcedLayer[] {
  return [
    { source: 'user', label: files.userFile, layer: files.user },
    { source: 'workspace', label: WORKSPACE_CONFIG_LABEL, layer: files.workspace },
  ];
}

export function readFileLayers(jpDir: string | undefined): SourcedLayer[] {
  return fileLayers(readConfigFiles(jpDir));
}

/** `-c KEY=VALUE` as errors quote it: a secret field's value is left out (`-c "KEY=…"`). */
function cfgArgSource(arg: string, layer: ConfigLayer): string {
  return withoutSecrets(layer).removed.length > 0 ? `-c "${arg.slice(0, cfgArgSplit(arg))}=…"` : `-c "${arg}"`;
}

/**
 * The `-c` arguments of one command as one layer, each checked on its own and named in errors.
 * Several on one table merge: `-c mcp.x.args=[…] -c mcp.x.cwd=…`.
 */
export function readCfgArgs(args: readonly string[]): SourcedLayer {
  const parts: SourcedLayer[] = args.map((arg) => {
    const layer = parseCfgArg(arg);
    const label = cfgArgSource(arg, layer);
    return { source: 'invocation', label, layer: checkLayer(layer, label) };
  });
  return { source: 'invocation', label: '-c', layer: mergeLayers(parts.map((part) => part.layer)), parts };
}
