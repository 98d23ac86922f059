import { readFileSync } from 'node:fs';
import { parse as parseToml, TomlError } from 'smol-toml';
import { UsageError } from '@jp/core';
import { userConfigFile, workspaceConfigFile } from './config-paths.ts';
import type { ConfigLayer } from './merge-config.ts';
import type { SourcedLayer } from './sourced-layer.ts';

// Reading the files is apart from validating them (load-config.ts, validate-config.ts), so that a
// reader that takes what validating them gave before (query/editor-first.ts) loads no schema.

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

/** The two files, each parsed and then passed through `check` (which throws, or gives the layer back). */
export function readConfigFilesWith(jpDir: string | undefined, check: (layer: ConfigLayer, label: string) => ConfigLayer): ConfigFiles {
  const read = (file: string, display: string): ConfigLayer => {
    const text = readConfigText(file, display);
    return text === undefined ? {} : check(parseConfigText(text, display), display);
  };
  const userFile = userConfigFile();
  return {
    user: read(userFile, userFile),
    workspace: jpDir === undefined ? {} : read(workspaceConfigFile(jpDir), WORKSPACE_CONFIG_LABEL),
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
