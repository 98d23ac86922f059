import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { configSources, renderSources } from '../config/config-sources.ts';
import { formatKey } from '../config/format-key.ts';
import {
  checkLayer,
  fileLayers,
  parseConfigText,
  readCfgArgs,
  readConfigFiles,
  readConfigText,
  resolveConfig,
  userConfigFile,
  WORKSPACE_CONFIG_LABEL,
  workspaceConfigFile,
} from '../config/load-config.ts';
import { layerFromPath, mergeConfig, type ConfigLayer } from '../config/merge-config.ts';
import { parseKey, parseValue } from '../config/parse-cfg-arg.ts';
import { withoutSecrets } from '../config/secret-fields.ts';
import type { SourcedLayer } from '../config/sourced-layer.ts';
import { conversationConfig, conversationLayers } from '../conversation/conversation-config.ts';
import { Output } from '../output/output.ts';
import { writeFileAtomic } from '../store/atomic-write.ts';
import { ConversationStore } from '../store/conversation-store.ts';
import { findWorkspace, type Workspace } from '../workspace/workspace.ts';

/** The workspace, or `undefined` outside one when the command can do without (`config show`, `config set --user`). */
function optionalWorkspace(globals: GlobalOptions, required: boolean): Workspace | undefined {
  try {
    return findWorkspace(process.cwd(), globals.workspace);
  } catch (error) {
    if (required || globals.workspace !== undefined) throw error;
    return undefined;
  }
}

/**
 * `jp config show [--id ID]`: every effective value and where it came from (default, user file,
 * workspace file, conversation, command line). Outside a workspace, the user's file alone.
 */
export async function configShow(globals: GlobalOptions, options: { id?: string }): Promise<void> {
  const output = new Output(globals);
  const workspace = optionalWorkspace(globals, options.id !== undefined);
  const cli = readCfgArgs(globals.cfg);
  const files = readConfigFiles(workspace?.jpDir);
  let layers: SourcedLayer[] = fileLayers(files);
  let id: string | undefined;
  if (options.id !== undefined && workspace !== undefined) {
    const store = new ConversationStore(workspace.jpDir);
    id = store.resolveId(options.id);
    const scanned = await store.scan(id);
    for (const warning of scanned.warnings) output.warn(warning);
    layers = conversationLayers(files, conversationConfig(id, store.baseConfig(id), scanned.configEvents, store.readableMetadata(id)));
  }
  layers.push(cli);
  const config = resolveConfig(layers);
  const values = configSources(layers, config);
  const workspaceFile = workspace === undefined ? null : workspaceConfigFile(workspace.jpDir);
  if (output.json) {
    output.data({
      ...(id === undefined ? {} : { conversation: id }),
      config,
      sources: Object.fromEntries(values.map((entry) => [formatKey(entry.key), entry.source])),
      files: { user: files.userFile, workspace: workspaceFile },
    });
    return;
  }
  if (id !== undefined) output.line(`# conversation ${id}: its own keys over the config files as they are now`);
  const missing = (file: string) => (existsSync(file) ? '' : ' (not there)');
  output.line(`# user file: ${files.userFile}${missing(files.userFile)}`);
  output.line(`# workspace file: ${workspaceFile === null ? '(none: not in a workspace)' : `${workspaceFile}${missing(workspaceFile)}`}`);
  for (const line of renderSources(values)) output.line(line);
}

/** `.jp/config.toml` may be committed: jp does not write a secret there (RFD 001, secrets). */
function refuseSecrets(layer: ConfigLayer): void {
  const [secret] = withoutSecrets(layer).removed;
  if (secret === undefined) return;
  const segments = secret.split('.');
  const instead =
    segments[0] === 'mcp' && segments[2] === 'env'
      ? `name a variable instead (jp config set ${secret.replace('.env.', '.env_from.')} VAR, or "\${VAR}" as the value)`
      : 'give it through an environment variable';
  throw new UsageError(`${secret} is a secret and .jp/config.toml may be committed: ${instead}, or set it in ${userConfigFile()}`, {
    code: 'secret_in_workspace',
  });
}

/**
 * Replaces a config file's content atomically. A symlink (a dotfiles checkout) stays a link: the file
 * it points to is written. The file keeps its permissions; a new user file is private (0600), as it
 * is the place for literal secrets.
 */
function writeConfigFile(file: string, text: string, user: boolean): void {
  const existing = statSync(file, { throwIfNoEntry: false });
  if (existing === undefined) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic(file, text, user ? { mode: 0o600 } : {});
  } else {
    writeFileAtomic(realpathSync(file), text, { mode: existing.mode & 0o7777 });
  }
}

/**
 * `jp config set [--user] KEY VALUE`: sets one key in `.jp/config.toml`, or with `--user` in the
 * user's file (made when missing, like `git config --global`). The file is edited in place: its
 * comments, order and layout stay as the person wrote them.
 */
export async function configSet(globals: GlobalOptions, key: string, value: string, options: { user?: boolean } = {}): Promise<void> {
  const output = new Output(globals);
  const segments = parseKey(key, 'jp config set');
  const workspace = optionalWorkspace(globals, options.user !== true);
  const file = workspace === undefined || options.user ? userConfigFile() : workspaceConfigFile(workspace.jpDir);
  const display = options.user ? file : WORKSPACE_CONFIG_LABEL;
  const text = readConfigText(file, display) ?? '';
  const current = parseConfigText(text, display);
  const parsed = parseValue(value);
  const layer = checkLayer(layerFromPath(segments, parsed), `jp config set ${key}`);
  if (!options.user) refuseSecrets(layer);
  const next = checkLayer(mergeConfig(current, layer), display);
  // The TOML syntax tree is needed only to edit a file.
  const { editToml } = await import('../config/edit-toml.ts');
  const edited = editToml(text, segments, parsed, next, display);
  writeConfigFile(file, edited, options.user === true);
  if (output.json) output.data({ key, value: parsed, file });
  else output.note(`set ${key} in ${display}`);
}
