import type { ConversationEvent } from '@jp/core';
import { sha256Of } from './blob-store.ts';
import { parseStoredLine } from './events-file.ts';
import { damagedLine, readStoredLines, type StoredLine } from './stored-lines.ts';
import {
  BadReference,
  contentReference,
  dropReferenceFields,
  formattedReference,
  resourceSlots,
  type BlobReference,
  type Json,
} from './stored-references.ts';

/** What the stream holds of one resource snapshot, known without reading its content. */
export interface SnapshotSummary {
  uri: string;
  /** The resource's display name, when it has one (a file's workspace-relative path). */
  name?: string | undefined;
  /** The turn it is in (0-based). */
  turn: number;
  /** Raw bytes (UTF-8 of text, or the blob). */
  size: number;
  sha256: string;
  /** The tool call whose result carried it; absent for an attachment. */
  toolCallId?: string | undefined;
  /** The name of that tool, from the call's request, when the stream has it (`scanEventsFile` only). */
  tool?: string | undefined;
}

export interface ScannedEvents {
  /** The configuration deltas, in order: enough to know the conversation's configuration. */
  configEvents: ConversationEvent[];
  snapshots: SnapshotSummary[];
  /** Number of turns. */
  turns: number;
  warnings: string[];
}

/** Size and checksum of inline content (lines written before blobs, or by hand). */
function inlineSummary(resource: Json): { size: number; sha256: string } {
  const bytes =
    typeof resource.text === 'string'
      ? Buffer.from(resource.text, 'utf8')
      : typeof resource.blob === 'string'
        ? Buffer.from(resource.blob, 'base64')
        : Buffer.alloc(0);
  return { size: bytes.byteLength, sha256: sha256Of(bytes) };
}

/**
 * Summarises the resources of one stored line and replaces its references by empty
 * placeholders (in place), so the line can be validated without its content. Returns the
 * snapshots and every blob the line refers to (contents and `formatted` alike).
 */
export function hollowStoredLine(stored: StoredLine, displayName: string): { snapshots: SnapshotSummary[]; references: BlobReference[] } {
  const snapshots: SnapshotSummary[] = [];
  const references: BlobReference[] = [];
  const json = stored.json;
  if (typeof json !== 'object' || json === null) return { snapshots, references };
  const toolCallId = (json as Json).type === 'tool_call_response' ? (json as Json).id : undefined;
  try {
    for (const { resource, block } of resourceSlots(json as Json)) {
      const ref = contentReference(resource);
      const summary = ref === undefined ? inlineSummary(resource) : { size: ref.size, sha256: ref.sha256 };
      if (typeof resource.uri === 'string') {
        snapshots.push({
          uri: resource.uri,
          ...(typeof resource.name === 'string' ? { name: resource.name } : {}),
          turn: Math.max(stored.turn, 0),
          ...summary,
          ...(typeof toolCallId === 'string' ? { toolCallId } : {}),
        });
      }
      if (ref !== undefined) {
        references.push({ sha256: ref.sha256, size: ref.size });
        dropReferenceFields(resource);
        if (ref.encoding === 'text') resource.text = '';
        else resource.blob = '';
      }
      for (const holder of block === undefined ? [resource] : [resource, block]) {
        const formatted = formattedReference(holder);
        if (formatted === undefined) continue;
        references.push(formatted);
        delete holder.formatted;
      }
    }
  } catch (error) {
    if (error instanceof BadReference) throw damagedLine(displayName, stored.line, error.message);
    throw error;
  }
  return { snapshots, references };
}

/**
 * Reads `events.jsonl` without reading a single blob: every line must be JSON (a torn last line
 * is skipped with a warning), configuration deltas are validated and kept as events, resource
 * references are checked and summarised from the line itself (size and sha256 are stored next
 * to them). This is what `jp attachment ls|add|rm` and `jp conversation fork` need, and it stays
 * cheap for conversations holding gigabytes of resources.
 */
export function scanEventsFile(file: string, displayName: string = file, branch?: string): ScannedEvents {
  const { lines, warnings } = readStoredLines(file, displayName, branch);
  const configEvents: ConversationEvent[] = [];
  const snapshots: SnapshotSummary[] = [];
  const toolOfCall = new Map<string, string>();
  let turns = 0;
  for (const stored of lines) {
    const json = stored.json as { type?: unknown; id?: unknown; name?: unknown } | null;
    const type = json?.type;
    if (type === 'turn_start') turns++;
    if (type === 'tool_call_request' && typeof json?.id === 'string' && typeof json.name === 'string') toolOfCall.set(json.id, json.name);
    // Only what is used is validated: configuration deltas by their schema, resource summaries by
    // hand. Commands that use the answers read them with `readEventsFile`, which checks them all.
    if (type === 'config_delta') configEvents.push(parseStoredLine(stored, displayName));
    else {
      for (const snapshot of hollowStoredLine(stored, displayName).snapshots) {
        // Which tool returned a resource decides whether it may be read again (`refreshable`).
        const tool = snapshot.toolCallId === undefined ? undefined : toolOfCall.get(snapshot.toolCallId);
        snapshots.push(tool === undefined ? snapshot : { ...snapshot, tool });
      }
    }
  }
  return { configEvents, snapshots, turns, warnings };
}
