import type { ConfigDeltaEvent, ConversationEvent } from '@jp/core';
import { applyChange, diffLayers, isNoChange, withoutKeys, type LayerChange } from '../config/diff-layers.ts';
import { fileLayers, type ConfigFiles } from '../config/config-files.ts';
import { mergeLayers, type ConfigLayer } from '../config/merge-config.ts';
import { withoutSecrets } from '../config/secret-fields.ts';
import type { SourcedLayer } from '../config/sourced-layer.ts';
import type { ConversationMetadata } from '../store/conversation-metadata.ts';

/*
 * A conversation's configuration is a three-way merge (RFD 001, configuration): the config files
 * as they are now, then the keys the conversation set itself (its `config_delta` events without a
 * source: `--model`, `--reasoning`, `--attach`, `jp attachment add|rm`, `jp config set --id`; one
 * with `removed` takes keys back, `jp config unset --id`), then this command's `-c` and `--model`,
 * which it never stores (RFD 014). A key it never set follows the files. What the files said is kept as a record only:
 * `base-config.json` is the workspace file as the conversation first saw it, and each
 * `config_delta` with `source: "files"` says how it changed before a turn.
 */

/**
 * `metadata.json`'s `configVersion` for conversations written under this rule. A conversation
 * without it was written by an earlier jp, whose base-config.json holds the values it was created
 * with (the workspace file then, for the oldest with the user's file merged in). So that it keeps
 * working, that file is a layer under the files: a key the files set now follows them, a key they
 * no longer set keeps its value from then. A fork made without turns by an earlier jp has its
 * source's whole configuration flattened there, its own keys among them: that is read as keys the
 * fork set, as before.
 */
export const CONFIG_VERSION = 2;

export interface ConversationConfig {
  /** A conversation written by an earlier jp: the values it was created with, under the files. */
  created: SourcedLayer | undefined;
  /** What the conversation set itself, in order. */
  own: SourcedLayer[];
  /** The workspace file as the conversation last saw it, secret values left out. */
  filesSeen: ConfigLayer;
}

function isFilesDelta(event: ConversationEvent): event is ConfigDeltaEvent & { source: 'files' } {
  return event.type === 'config_delta' && (event as ConfigDeltaEvent).source === 'files';
}

/** A files delta's change, as `applyChange` takes it. */
function changeOf(event: ConfigDeltaEvent): LayerChange {
  return { changed: event.delta, removed: event.removed ?? [] };
}

/** Reads a conversation's stored configuration: its base config, then its deltas in order (other events are skipped). */
export function conversationConfig(
  id: string,
  baseConfig: ConfigLayer,
  events: readonly ConversationEvent[],
  metadata: Pick<ConversationMetadata, 'configVersion' | 'forkedFrom'> | undefined,
): ConversationConfig {
  const label = `conversation ${id}`;
  const legacy = metadata !== undefined && metadata.configVersion === undefined;
  const legacyFork = legacy && metadata.forkedFrom !== undefined && metadata.forkedFrom.turn === null;
  const base: SourcedLayer = { source: 'conversation', label: `${label} (base-config.json)`, layer: baseConfig };
  let own: SourcedLayer[] = legacyFork ? [base] : [];
  let created = legacy && !legacyFork ? base : undefined;
  let filesSeen = baseConfig;
  for (const event of events) {
    if (event.type !== 'config_delta') continue;
    if (isFilesDelta(event)) {
      filesSeen = applyChange(filesSeen, changeOf(event));
      continue;
    }
    // `jp config unset --id`: keys the conversation no longer sets, which follow the files again.
    const { delta, removed = [] } = event as ConfigDeltaEvent;
    if (removed.length > 0) {
      own = own.map((sourced) => ({ ...sourced, layer: withoutKeys(sourced.layer, removed) }));
      if (created !== undefined) created = { ...created, layer: withoutKeys(created.layer, removed) };
    }
    if (Object.keys(delta).length > 0 || removed.length === 0) own.push({ source: 'conversation', label, layer: delta });
  }
  return { created, own, filesSeen };
}

/** The configuration a new conversation stores of the files: the workspace file without its secret values. */
export function filesRecord(files: ConfigFiles): ConfigLayer {
  return withoutSecrets(files.workspace).kept;
}

/** The layers a conversation's configuration is resolved from (before this command's `-c`): the files now, then its own keys. */
export function conversationLayers(files: ConfigFiles, conversation: ConversationConfig): SourcedLayer[] {
  return [...(conversation.created === undefined ? [] : [conversation.created]), ...fileLayers(files), ...conversation.own];
}

/** Everything the conversation set, as one layer. */
export function ownLayer(conversation: ConversationConfig): ConfigLayer {
  return mergeLayers(conversation.own.map((sourced) => sourced.layer));
}

/**
 * The record of how the workspace file changed since the conversation last saw it, as the event a
 * turn stores, or `undefined` when it did not. Secret values are left out (a change of one is not
 * recorded). The user's file is never recorded: nothing of it is written under `.jp/`.
 */
export function filesDelta(conversation: ConversationConfig, files: ConfigFiles, timestamp: string): ConfigDeltaEvent | undefined {
  const change = diffLayers(conversation.filesSeen, filesRecord(files));
  if (isNoChange(change)) return undefined;
  return { type: 'config_delta', timestamp, source: 'files', delta: change.changed, ...(change.removed.length > 0 ? { removed: change.removed } : {}) };
}
