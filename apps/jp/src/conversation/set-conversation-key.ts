import type { ConfigDeltaEvent } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext } from '../cli/command-context.ts';
import { diffLayers, isNoChange } from '../config/diff-layers.ts';
import { fileLayers, readCfgArgs, readConfigFiles, resolveConfig } from '../config/load-config.ts';
import { getPath, type ConfigLayer } from '../config/merge-config.ts';
import { conversationConfig, conversationLayers, ownLayer } from './conversation-config.ts';
import { conversationWaitNotice } from '../store/lock-wait-notice.ts';

/**
 * `jp config set --id` and `jp config unset --id`: a key the conversation sets, or no longer sets,
 * recorded as a `config_delta` under its lock (RFD 014). Returns the conversation's id and whether
 * anything changed: setting a key to the value the conversation already set, or unsetting one it
 * never set, stores nothing.
 */
export async function setConversationKey(
  globals: GlobalOptions,
  idOption: string,
  change: { set: ConfigLayer } | { unset: string[] },
): Promise<{ id: string; changed: boolean }> {
  const ctx = workspaceContext(globals);
  const { store } = ctx;
  const id = store.resolveId(idOption);
  const files = readConfigFiles(ctx.workspace.jpDir);
  const timeout = resolveConfig([...fileLayers(files), readCfgArgs(globals.cfg)]).conversation.lock_timeout_secs;
  const release = await store.lock(id, timeout * 1000, conversationWaitNotice(ctx, id, timeout * 1000));
  try {
    const scanned = await store.scan(id);
    for (const warning of scanned.warnings) ctx.output.warn(warning);
    const conversation = conversationConfig(id, store.baseConfig(id), scanned.configEvents, store.readableMetadata(id));
    const timestamp = new Date().toISOString();
    let event: ConfigDeltaEvent;
    if ('set' in change) {
      const delta = diffLayers(ownLayer(conversation), change.set).changed;
      if (isNoChange({ changed: delta, removed: [] })) return { id, changed: false };
      // The conversation's configuration with the key must still resolve (a server's table needs its command).
      resolveConfig([...conversationLayers(files, conversation), { source: 'conversation', label: `jp config set --id ${id}`, layer: change.set }]);
      event = { type: 'config_delta', timestamp, delta };
    } else {
      if (getPath(ownLayer(conversation), change.unset) === undefined) return { id, changed: false };
      event = { type: 'config_delta', timestamp, delta: {}, removed: [change.unset] };
    }
    await store.append(id, [event], store.openContent());
    return { id, changed: true };
  } finally {
    release();
  }
}
