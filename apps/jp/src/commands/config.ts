import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { JpError, UsageError } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { isKnownKey, nearestKey } from '../config/config-keys.ts';
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
  type ConfigFiles,
} from '../config/load-config.ts';
import { layerFromPath, mergeConfig, type ConfigLayer } from '../config/merge-config.ts';
import { parseKey, parseValue } from '../config/parse-cfg-arg.ts';
import { withoutSecrets } from '../config/secret-fields.ts';
import type { SourcedLayer } from '../config/sourced-layer.ts';
import { formatTomlValue } from '../config/toml-value.ts';
import { valueAt } from '../config/value-at.ts';
import { conversationConfig, conversationLayers } from '../conversation/conversation-config.ts';
import { Output } from '../output/output.ts';
import { writeFileAtomic } from '../store/atomic-write.ts';
import { ConversationStore } from '../store/conversation-store.ts';
import { findWorkspace, type Workspace } from '../workspace/workspace.ts';

/** The workspace, or `undefined` outside one when the command can do without (`config show`, `config set --user`). */
function optionalWorkspace(globals: GlobalOptions, required: boolean, options: { user?: boolean } = {}): Workspace | undefined {
  try {
    return findWorkspace(process.cwd(), globals.workspace, options);
  } catch (error) {
    if (required || globals.workspace !== undefined) throw error;
    return undefined;
  }
}

/**
 * `jp config show [--id ID]`: every effective value and where it came from (default, user file,
 * workspace file, conversation, command line). Outside a workspace, the user's file alone.
 */
/** The layers `show` and `get` resolve: the files and `-c`, with a conversation's own keys between them for `--id`. */
async function effectiveLayers(globals: GlobalOptions, options: { id?: string }, output: Output): Promise<{ layers: SourcedLayer[]; id: string | undefined; workspace: Workspace | undefined; files: ConfigFiles }> {
  // A conversation may be one of the user workspace's (RFD 032).
  const workspace = optionalWorkspace(globals, options.id !== undefined, { user: options.id !== undefined });
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
  return { layers, id, workspace, files };
}

export async function configShow(globals: GlobalOptions, options: { id?: string }): Promise<void> {
  const output = new Output(globals);
  const { layers, id, workspace, files } = await effectiveLayers(globals, options, output);
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

/** `.jp/` may be committed: jp does not write a secret there (RFD 001, secrets). */
function refuseSecrets(layer: ConfigLayer, why: string): void {
  const [secret] = withoutSecrets(layer).removed;
  if (secret === undefined) return;
  const segments = secret.split('.');
  const instead =
    segments[0] === 'mcp' && segments[2] === 'env'
      ? `name a variable instead (jp config set ${secret.replace('.env.', '.env_from.')} VAR, or "\${VAR}" as the value)`
      : 'give it through an environment variable';
  throw new UsageError(`${secret} is a secret and ${why}: ${instead}, or set it in ${userConfigFile()}`, {
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

/** The file a `--user` or workspace edit goes to, and how messages name it. */
function targetFile(globals: GlobalOptions, user: boolean): { file: string; display: string; user: boolean } {
  const workspace = optionalWorkspace(globals, !user);
  const toUser = user || workspace === undefined;
  const file = toUser ? userConfigFile() : workspaceConfigFile(workspace.jpDir);
  return { file, display: toUser ? file : WORKSPACE_CONFIG_LABEL, user: toUser };
}

function exclusive(options: { user?: boolean; id?: string }): void {
  if (options.user && options.id !== undefined) throw new UsageError('--user and --id exclude each other', { code: 'usage_error' });
}

/**
 * `jp config set [--user | --id ID] KEY VALUE`: sets one key in `.jp/config.toml`, with `--user`
 * in the user's file (made when missing, like `git config --global`), with `--id` in a
 * conversation (a key it sets, RFD 014). A file is edited in place: its comments, order and
 * layout stay as the person wrote them.
 */
export async function configSet(globals: GlobalOptions, key: string, value: string, options: { user?: boolean; id?: string } = {}): Promise<void> {
  exclusive(options);
  const output = new Output(globals);
  const segments = parseKey(key, 'jp config set');
  const parsed = parseValue(value);
  const layer = checkLayer(layerFromPath(segments, parsed), `jp config set ${key}`);
  if (options.id !== undefined) {
    refuseSecrets(layer, 'a conversation is stored under .jp/, which may be committed');
    const { setConversationKey } = await import('../conversation/set-conversation-key.ts');
    const { id, changed } = await setConversationKey(globals, options.id, { set: layer });
    if (output.json) output.data({ key, value: parsed, conversation: id, changed });
    else output.note(changed ? `set ${key} in conversation ${id}` : `conversation ${id} already sets ${key} to that`);
    return;
  }
  const { file, display, user } = targetFile(globals, options.user === true);
  const text = readConfigText(file, display) ?? '';
  const current = parseConfigText(text, display);
  if (!user) refuseSecrets(layer, '.jp/config.toml may be committed');
  const next = checkLayer(mergeConfig(current, layer), display);
  // The TOML syntax tree is needed only to edit a file.
  const { editToml } = await import('../config/edit-toml.ts');
  const edited = editToml(text, segments, parsed, next, display);
  writeConfigFile(file, edited, user);
  if (output.json) output.data({ key, value: parsed, file });
  else output.note(`set ${key} in ${display}`);
}

/** " (did you mean assistant.model?)" for a key jp does not know, else nothing. */
function suggestion(segments: readonly string[]): string {
  if (isKnownKey(segments)) return '';
  const near = nearestKey(segments);
  return near === undefined ? '' : ` (did you mean ${near}?)`;
}

/**
 * `jp config unset [--user | --id ID] KEY`: takes a key out of `.jp/config.toml`, the user's file,
 * or what a conversation set (it then follows the files again). A key that is not there is said,
 * and is no error: the result is what was asked.
 */
export async function configUnset(globals: GlobalOptions, key: string, options: { user?: boolean; id?: string } = {}): Promise<void> {
  exclusive(options);
  const output = new Output(globals);
  const segments = parseKey(key, 'jp config unset');
  let where: string;
  let changed: boolean;
  if (options.id !== undefined) {
    const { setConversationKey } = await import('../conversation/set-conversation-key.ts');
    const result = await setConversationKey(globals, options.id, { unset: segments });
    changed = result.changed;
    where = `conversation ${result.id}`;
  } else {
    const { file, display, user } = targetFile(globals, options.user === true);
    const text = readConfigText(file, display) ?? '';
    const { unsetToml } = await import('../config/unset-toml.ts');
    const edited = unsetToml(text, segments, display);
    if (edited !== undefined) writeConfigFile(file, edited, user);
    changed = edited !== undefined;
    where = display;
  }
  if (output.json) output.data({ key, unset: changed, from: where });
  else if (changed) output.note(`unset ${key} in ${where}`);
  else output.note(`nothing to unset: ${where} does not set ${key}${suggestion(segments)}`);
}

/** A value as `config get` prints it: text as it is, anything else as TOML; a table one key a line. */
function valueLines(segments: readonly string[], value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) return [formatTomlValue(value)];
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.flatMap(([name, inner]) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner) && !(inner instanceof Date)
      ? valueLines([...segments, name], inner).map((line) => `${formatKey([name])}.${line}`)
      : [`${formatKey([name])} = ${formatTomlValue(inner)}`],
  );
}

/**
 * `jp config get [--id ID] KEY`: one effective value (a string as it is, so that scripts can use
 * it). An unknown key is a usage error with the nearest known one; a known key with no value, and
 * no default, exits 1.
 */
export async function configGet(globals: GlobalOptions, key: string, options: { id?: string }): Promise<void> {
  const output = new Output(globals);
  const segments = parseKey(key, 'jp config get');
  if (!isKnownKey(segments)) throw new UsageError(`unknown key ${formatKey(segments)}${suggestion(segments)}`, { code: 'unknown_key' });
  const { layers, id } = await effectiveLayers(globals, options, output);
  const config = resolveConfig(layers);
  const value = valueAt(config, segments);
  if (value === undefined) throw new JpError(`${formatKey(segments)} is not set and has no default`, { code: 'not_set' });
  const within = (entry: { key: string[] }) => entry.key.length >= segments.length && segments.every((segment, i) => entry.key[i] === segment);
  const source = configSources(layers, config).find(within)?.source ?? 'default';
  if (output.json) output.data({ key: formatKey(segments), value, source, ...(id === undefined ? {} : { conversation: id }) });
  else for (const line of valueLines(segments, value)) output.line(line);
}
