import type { ConversationMetadata } from '../store/conversation-metadata.ts';
import { conversationUri } from './jp-uris.ts';
import type { PathPrivacy } from './public-uri.ts';

/** A `resources/list` entry. */
export interface ConversationEntry {
  uri: string;
  name: string;
  title?: string;
  description: string;
  mimeType: 'text/markdown';
  annotations?: { lastModified: string };
}

/**
 * A conversation as a listed resource: named by its title (its id when it has none), markdown,
 * `lastModified` from its last turn. A conversation whose metadata is damaged is listed by its id,
 * so a client sees it and reading it says what is wrong.
 */
export function conversationEntry(id: string, metadata: ConversationMetadata | undefined, privacy: PathPrivacy): ConversationEntry {
  const uri = conversationUri(id);
  if (metadata === undefined) return { uri, name: id, description: `conversation ${id} (its metadata.json is damaged)`, mimeType: 'text/markdown' };
  const turns = `${metadata.turnCount} turn${metadata.turnCount === 1 ? '' : 's'}`;
  const title = metadata.title === undefined ? undefined : privacy.text(metadata.title);
  return {
    uri,
    name: title ?? id,
    ...(title === undefined ? {} : { title }),
    description: `jp conversation ${id}, ${turns}, created ${metadata.createdAt}`,
    mimeType: 'text/markdown',
    annotations: { lastModified: metadata.lastActivityAt },
  };
}
