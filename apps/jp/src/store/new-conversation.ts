import type { ConversationEvent } from '@jp/core';
import type { ConversationMetadata } from './conversation-metadata.ts';

/** What `ConversationStore.create` makes: a new conversation, or a fork of one. */
export interface NewConversation {
  baseConfig: Record<string, unknown>;
  /**
   * A fork's history: the stored lines of conversation `from` up to the end of turn `untilTurn`
   * (all when undefined), copied without reading their blobs. `events` follow them.
   */
  copy?: { from: string; untilTurn: number | undefined } | undefined;
  events: readonly ConversationEvent[];
  title?: string | undefined;
  turnCount: number;
  forkedFrom?: ConversationMetadata['forkedFrom'];
  /** How its base-config.json is read (`CONFIG_VERSION`); a fork that copies turns keeps its source's. */
  configVersion?: number | undefined;
}
