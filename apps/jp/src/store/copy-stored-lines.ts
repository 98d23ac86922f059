import { parseStoredLine } from './events-file.ts';
import { readStoredLines } from './stored-lines.ts';
import { hollowStoredLine } from './scan-events-file.ts';
import { externaliseInline, type Payloads } from './stored-resource.ts';
import type { Json } from './stored-references.ts';

/** A blob a copied line refers to, and where, for the message when it is missing. */
export interface SharedBlob {
  size: number;
  where: string;
}

export interface CopiedLines {
  lines: string[];
  /** Blobs the copied lines share with their source, by sha256. */
  shared: Map<string, SharedBlob>;
  turns: number;
  warnings: string[];
}

/**
 * The stored lines of a conversation up to the end of turn `untilTurn` (all of them when
 * undefined), to be written into a fork. Each line is validated; a line referring to blobs is
 * copied as it is — the fork shares the blobs, and none is read, so a conversation with a
 * missing blob can still be forked before the turn that lost it. Inline content (lines written
 * before blobs existed, or by hand) is externalised into `payloads`: forks are written in the
 * current form.
 */
export function copyStoredLines(
  file: string,
  displayName: string,
  conversation: string,
  untilTurn: number | undefined,
  payloads: Payloads,
  branch?: string,
): CopiedLines {
  const { lines: stored, warnings } = readStoredLines(file, displayName, branch);
  const lines: string[] = [];
  const shared = new Map<string, SharedBlob>();
  let turns = 0;
  for (const line of stored) {
    if (untilTurn !== undefined && line.turn > untilTurn) break;
    if ((line.json as { type?: unknown }).type === 'turn_start') turns++;
    // Validate a hollowed copy: the references' shape, then the event without its content.
    const copy = { ...line, json: structuredClone(line.json) };
    const { snapshots, references } = hollowStoredLine(copy, displayName);
    parseStoredLine(copy, displayName);
    const uri = snapshots[0]?.uri;
    for (const ref of references) {
      shared.set(ref.sha256, { size: ref.size, where: `conversation ${conversation} turn ${Math.max(line.turn, 0)}${uri ? `, ${uri}` : ''}` });
    }
    const changed = typeof line.json === 'object' && line.json !== null && externaliseInline(line.json as Json, payloads);
    lines.push(changed ? JSON.stringify(line.json) : line.text);
  }
  return { lines, shared, turns, warnings };
}
