import type { Json } from '../store/stored-references.ts';
import type { BytePrefilter, LineSpan } from './byte-prefilter.ts';
import { snapshotsOf, textsOf, type SnapshotRef } from './event-texts.ts';
import type { LineHit } from './match-lines.ts';
import { matchLines } from './match-lines.ts';
import type { SearchPattern } from './search-pattern.ts';
import type { SearchScope } from './search-scope.ts';
import type { SnapshotSearch } from './snapshot-search.ts';

/** A hit in one events.jsonl, before it is placed on a conversation's line of turns. */
export interface FileHit {
  /** Byte offset of the stored line it was found in (or that refers to the snapshot). */
  offset: number;
  scope: SearchScope;
  hit: LineHit;
  snapshot?: SnapshotRef | undefined;
  /** Names the text it is in: the stored line and which text of it. */
  source: string;
}

export interface EventsFindings {
  hits: FileHit[];
  /** How many stored lines are not JSON (a torn last line is not one). */
  damaged: number;
  /** Text snapshots whose blob the store does not hold. */
  missing: SnapshotRef[];
}

/** How jp writes a content reference: `"$blob":"<sha256>","size":N,"encoding":"text"|"binary"` (stored-resource.ts). */
const BLOB_REFERENCE = Buffer.from('$blob":"');
const BINARY_AFTER = /^","size":\d+,"encoding":"binary"/;
const NEWLINE = 0x0a;

/**
 * The blobs the stored lines refer to, read from the bytes without parsing: each sha256 with the
 * line it is on; a content reference written as binary is left out (its text is never searched).
 * A line written another way is still found, and parsing it decides.
 */
export function blobReferences(bytes: Buffer): Array<{ sha256: string; line: LineSpan }> {
  const found: Array<{ sha256: string; line: LineSpan }> = [];
  for (let at = bytes.indexOf(BLOB_REFERENCE); at !== -1; at = bytes.indexOf(BLOB_REFERENCE, at + 1)) {
    const from = at + BLOB_REFERENCE.length;
    const sha256 = bytes.toString('latin1', from, from + 64);
    if (BINARY_AFTER.test(bytes.toString('latin1', from + 64, from + 110))) continue;
    const start = bytes.lastIndexOf(NEWLINE, at) + 1;
    const newline = bytes.indexOf(NEWLINE, at);
    found.push({ sha256, line: [start, newline === -1 ? bytes.length : newline] });
  }
  return found;
}

/**
 * Searches one events.jsonl as read: the stored lines the prefilter points at are parsed and their
 * texts matched line by line; with the `resource` scope, every line that refers to a blob is parsed
 * for its snapshots, and each text snapshot searched (`SnapshotSearch`, once per blob). A line that
 * is not JSON is counted and skipped; the last line, cut short by an interrupted append, is
 * skipped silently, as the store reads it.
 */
export function searchEvents(bytes: Buffer, prefilter: BytePrefilter, pattern: SearchPattern, scopes: ReadonlySet<SearchScope>, context: number, snapshots: SnapshotSearch): EventsFindings {
  const hits: FileHit[] = [];
  let damaged = 0;
  const missing: SnapshotRef[] = [];
  // Lines that did not parse, counted once; parsed ones are not kept (a file read without a
  // required text parses every line), and a line parsed twice is one that refers to a blob.
  const failed = new Set<number>();
  const parse = ([start, end]: LineSpan): Json | undefined => {
    if (failed.has(start)) return undefined;
    let json: Json | undefined;
    try {
      const value: unknown = JSON.parse(bytes.toString('utf8', start, end));
      json = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
    } catch {
      json = undefined;
    }
    if (json !== undefined) return json;
    failed.add(start);
    const torn = end === bytes.length && bytes[end - 1] !== NEWLINE;
    if (!torn && bytes.subarray(start, end).toString('utf8').trim() !== '') damaged++;
    return undefined;
  };
  const resources = scopes.has('resource');
  for (const span of prefilter.candidateLines(bytes)) {
    const json = parse(span);
    if (json === undefined) continue;
    const [offset] = span;
    textsOf(json, scopes).forEach(({ scope, text }, i) => {
      for (const hit of matchLines(text, pattern, context)) hits.push({ offset, scope, hit, source: `${offset}:${i}` });
    });
    if (!resources) continue;
    for (const snapshot of snapshotsOf(json)) {
      if (snapshot.inline === undefined) continue;
      for (const hit of snapshots.inline(snapshot.inline)) hits.push({ offset, scope: 'resource', hit, snapshot, source: `${offset}:${snapshot.sha256}` });
    }
  }
  if (resources) {
    for (const { sha256, line } of blobReferences(bytes)) {
      // Most blobs cannot match (their raw bytes lack the required text): no line is parsed for them.
      if (!snapshots.mayMatch(sha256)) continue;
      const json = parse(line);
      if (json === undefined) continue;
      const [offset] = line;
      for (const snapshot of snapshotsOf(json)) {
        if (snapshot.inline !== undefined || snapshot.sha256 !== sha256) continue;
        const found = snapshots.blob(sha256);
        if (found === undefined) missing.push(snapshot);
        for (const hit of found ?? []) hits.push({ offset, scope: 'resource', hit, snapshot, source: `${offset}:${sha256}` });
      }
    }
  }
  return { hits: hits.sort((a, b) => a.offset - b.offset), damaged, missing };
}
