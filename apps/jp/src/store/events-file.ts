import { loadSchemas, type ConversationEvent } from '@jp/core';
import {
  BadReference,
  contentReference,
  dropReferenceFields,
  formattedReference,
  resourceSlots,
  type Json,
} from './stored-references.ts';
import type { TurnContent } from './turn-content.ts';
import { damagedLine, readStoredLines, type StoredLine } from './stored-lines.ts';

const { parseEvent } = await loadSchemas();

export interface LoadedEvents {
  events: ConversationEvent[];
  /** Things worth telling the user, e.g. a torn last line that was ignored. */
  warnings: string[];
}

export interface ReadEventsOptions {
  /** A branch of the conversation (`<id>~<key>`'s key); undefined: the conversation's own line. */
  branch?: string | undefined;
  /** The file as named in messages. */
  displayName?: string;
  /**
   * Where referenced content is read and verified. With it, every blob the events refer to is
   * checked as the file is read (a missing or damaged one is an error naming it) and `formatted`
   * texts are loaded; without it, references are taken as written.
   */
  content?: TurnContent | undefined;
  /** The conversation, as named in messages about missing blobs. */
  conversation?: string | undefined;
}

/** Validates one stored line (references already replaced) into an event, or throws naming the line. */
export function parseStoredLine(stored: StoredLine, displayName: string): ConversationEvent {
  const parsed = parseEvent(stored.json);
  if (!parsed.success) throw damagedLine(displayName, stored.line, parsed.error);
  return parsed.event;
}

/**
 * Reads `events.jsonl`. A resource whose content is a `$blob` reference comes back as a content
 * reference (`ref`); inline content of older lines is taken as it is. With `options.content`, the
 * blobs are read and verified as the file is read (see `ReadEventsOptions.content`).
 */
export function readEventsFile(file: string, options: ReadEventsOptions = {}): LoadedEvents {
  const displayName = options.displayName ?? file;
  const { lines, warnings } = readStoredLines(file, displayName, options.branch);
  const events = lines.map((stored) => {
    if (typeof stored.json === 'object' && stored.json !== null) referencesAsRefs(stored, displayName, options);
    return parseStoredLine(stored, displayName);
  });
  return { events, warnings };
}

/** Turns the `$blob` references of one stored line into content references and `formatted` texts, in place. */
function referencesAsRefs(stored: StoredLine, displayName: string, options: ReadEventsOptions): void {
  const where = `conversation ${options.conversation ?? displayName} turn ${Math.max(stored.turn, 0)}`;
  const text = (sha256: string, uri: unknown): string => Buffer.from(options.content!.readBlob(sha256, String(uri), where)).toString('utf8');
  try {
    for (const slot of resourceSlots(stored.json as Json)) {
      const { resource } = slot;
      const content = contentReference(resource);
      if (content !== undefined) {
        dropReferenceFields(resource);
        resource.ref = { sha256: content.sha256, size: content.size, encoding: content.encoding };
        options.content?.readBlob(content.sha256, String(resource.uri), where);
      }
      for (const holder of slot.block === undefined ? [resource] : [resource, slot.block]) {
        const formatted = formattedReference(holder);
        if (formatted === undefined) continue;
        if (options.content === undefined) delete holder.formatted;
        else holder.formatted = text(formatted.sha256, resource.uri);
      }
    }
  } catch (error) {
    if (error instanceof BadReference) throw damagedLine(displayName, stored.line, error.message);
    throw error;
  }
}
