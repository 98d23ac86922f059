import type { ConversationEvent } from '@jp/core';
import type { ConfigLayer } from '../config/merge-config.ts';

/** The layers a conversation stores: its base config (the workspace file when it was created), then every delta in order. */
export function conversationLayers(baseConfig: ConfigLayer, events: readonly ConversationEvent[]): ConfigLayer[] {
  const layers: ConfigLayer[] = [baseConfig];
  for (const event of events) {
    if (event.type === 'config_delta') layers.push((event as { delta: ConfigLayer }).delta);
  }
  return layers;
}

/**
 * The layers a conversation's configuration is resolved from: the user's config file as it is now,
 * under what the conversation stores. The user's file is never copied into a conversation
 * (RFD 001, secrets), so its values follow the file; a conversation created before that rule has them in its
 * base config, which still takes precedence.
 */
export function effectiveConversationLayers(userLayer: ConfigLayer, baseConfig: ConfigLayer, events: readonly ConversationEvent[]): ConfigLayer[] {
  return [userLayer, ...conversationLayers(baseConfig, events)];
}
