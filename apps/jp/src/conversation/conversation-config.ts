import type { ConversationEvent } from '@jp/core';
import type { ConfigLayer } from '../config/merge-config.ts';

/** The layers that make a conversation's configuration: its base config, then every delta in order. */
export function conversationLayers(baseConfig: ConfigLayer, events: readonly ConversationEvent[]): ConfigLayer[] {
  const layers: ConfigLayer[] = [baseConfig];
  for (const event of events) {
    if (event.type === 'config_delta') layers.push((event as { delta: ConfigLayer }).delta);
  }
  return layers;
}
