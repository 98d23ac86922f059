import { readFileSync } from 'node:fs';
import { JpError, loadSchemas, type ConversationEvent } from '@jp/core';
import {
  BadReference,
  contentReference,
  dropReferenceFields,
  formattedReference,
  resourceSlots,
  type Json,
} from './stored-references.ts';
import type { TurnContent } from './turn-content.ts';
import { unfinishedAppend } from './unfinished-append.ts';
import { checkTurnShapes } from './turn-shape.ts';
import { selectLine } from './branch-lines.ts';

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

/** A stored line, JSON-parsed, with its 1-based number and the turn it belongs to (-1 before the first). */
export interface StoredLine {
  /** The line as written. */
  text: string;
  json: unknown;
  line: number;
  turn: number;
}

/**
 * The lines of `events.jsonl`, JSON-parsed. A last line without its newline that is JSON is a
 * line like the others (a hand edit; the next append adds the newline). One that is not is the
 * trace of a crash in the middle of an append: it is skipped with a warning (the next append cuts
 * it off). Damage anywhere else is an error naming the file and line; jp never rewrites a file it
 * could not parse. Events of unknown types are checked for where they stand (`checkTurnShapes`).
 * A missing file is an empty stream.
 */
export function readStoredLines(file: string, displayName: string, branch?: string): { lines: StoredLine[]; warnings: string[] } {
  let text: string;
  try {
    const bytes = readFileSync(file);
    // Lines of an append that has not finished (killed midway, or still being written) are not there yet.
    const unfinished = unfinishedAppend(file);
    text = (unfinished === undefined ? bytes : bytes.subarray(0, unfinished)).toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { lines: [], warnings: [] };
    throw new JpError(`cannot read ${displayName}: ${code ?? (error as Error).message}`, { code: 'damaged_conversation', cause: error });
  }
  const warnings: string[] = [];
  const raw = text.split('\n');
  const tail = raw.pop()!;
  if (tail.trim() !== '') {
    if (parsesAsJson(tail)) raw.push(tail);
    else warnings.push(`${displayName}: ignored an incomplete last line (${tail.length} bytes) left by an interrupted write`);
  }
  const lines: StoredLine[] = [];
  let turn = -1;
  raw.forEach((line, index) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw damagedLine(displayName, index + 1, 'not valid JSON');
    }
    if ((json as { type?: unknown } | null)?.type === 'turn_start') turn++;
    lines.push({ text: line, json, line: index + 1, turn });
  });
  warnings.push(...checkTurnShapes(lines, displayName, (line, why) => damagedLine(displayName, line, why)));
  // After two clones went on from one turn, one line is the conversation's and the other a branch (RFD 029).
  const selected = selectLine(lines, branch);
  if (selected === undefined) throw new JpError(`${displayName} has no branch ${branch}; \`jp conversation ls\` lists the branches`, { code: 'unknown_conversation' });
  return { lines: selected, warnings };
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function damagedLine(file: string, line: number, why: string): JpError {
  return new JpError(`${file} line ${line} is damaged (${why}); jp will not modify the file: repair or remove that line`, {
    code: 'damaged_conversation',
  });
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
