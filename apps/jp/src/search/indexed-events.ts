import { forms } from './byte-prefilter.ts';
import type { IndexQuery, SearchIndex } from './search-index.ts';
import type { SearchPattern } from './search-pattern.ts';
import { blobReferences } from './search-events.ts';
import type { SnapshotSearch } from './snapshot-search.ts';
import type { StoredBytes } from './stored-bytes.ts';

const REMOVAL = Buffer.from('"type":"removal"');
const TITLE = Buffer.from('"type":"title"');

/** What the index keeps of an events file: the text blobs it refers to, and whether it holds a title or removal event. */
interface EventsExtra {
  refs: string[];
  marks: boolean;
}

/** The index query of a pattern: the forms of its required text; none when it has none (or a non-ASCII one under `-i`). */
export function indexQuery(pattern: SearchPattern): IndexQuery {
  const text = pattern.required ?? (pattern.requiredFolded !== undefined && /^[\x20-\x7e]*$/.test(pattern.requiredFolded) ? pattern.requiredFolded : undefined);
  return { forms: (medium) => (text === undefined ? undefined : forms(text, medium)), ignoreCase: pattern.required === undefined };
}

/**
 * A conversation's events.jsonl, when the search needs it: not when the index knows the file as it
 * is, its filter rules out the pattern, and none of the blobs it refers to may match. `marks`: the
 * file holds a title or a removal event (the activity decides then). A file read that the index
 * did not know is recorded.
 */
export function eventsToSearch(file: string, index: SearchIndex, query: IndexQuery, reader: StoredBytes, snapshots: SnapshotSearch | undefined): { bytes: Buffer | undefined; marks: boolean } {
  const known = index.lookup(file, 'json', query);
  const extra = known.extra as EventsExtra | undefined;
  if (known.fresh && extra !== undefined) {
    if (!known.mayHold && !(snapshots !== undefined && extra.refs.some((sha256) => snapshots.mayMatch(sha256)))) return { bytes: undefined, marks: extra.marks };
    return { bytes: reader.file(file) ?? Buffer.alloc(0), marks: extra.marks };
  }
  const bytes = reader.file(file) ?? Buffer.alloc(0);
  const marks = bytes.includes(REMOVAL) || bytes.includes(TITLE);
  const recorded: EventsExtra = { refs: [...new Set(blobReferences(bytes).map((ref) => ref.sha256))], marks };
  index.record(file, known.stat, bytes, recorded);
  return { bytes, marks };
}
