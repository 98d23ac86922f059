import type { SnapshotRef } from './event-texts.ts';
import type { LineHit } from './match-lines.ts';
import type { SearchScope } from './search-scope.ts';

/** One line that matched, and where: the coordinate `ID:TURN:SCOPE` the other commands take. */
export interface SearchHit extends LineHit {
  /** The conversation, or a branch of it (`<id>~<key>`, RFD 029). */
  conversation: string;
  /** The turn along that conversation; undefined for a title (all turns: `..`). */
  turn: number | undefined;
  scope: SearchScope;
  /** For a resource hit: the snapshot (its URI, name, MIME type and sha256). */
  snapshot?: Omit<SnapshotRef, 'inline'> | undefined;
  /** Names the text the hit is in, so that output can tell hits of one text apart from the next. */
  source: string;
}

/** The hits of one conversation (or branch), in turn order; its title for the heading. */
export interface ConversationHits {
  id: string;
  title: string | undefined;
  hits: SearchHit[];
}
