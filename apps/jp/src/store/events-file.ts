import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { JpError } from '@jp/core/errors';
import { parseEvent, rememberResourceDigest, type ConversationEvent } from '@jp/core';
import type { BlobStore } from './blob-store.ts';
import {
  BadReference,
  contentReference,
  dropReferenceFields,
  formattedReference,
  resourceSlots,
  type BlobReference,
  type Json,
} from './stored-resource.ts';

export interface LoadedEvents {
  events: ConversationEvent[];
  /** Things worth telling the user, e.g. a torn last line that was ignored. */
  warnings: string[];
}

export interface ReadEventsOptions {
  /** The file as named in messages. */
  displayName?: string;
  /** Where `$blob` references are read from; without it a reference cannot be resolved. */
  blobs?: BlobStore | undefined;
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
 * The complete lines of `events.jsonl`, JSON-parsed. A last line without its newline is the trace
 * of a crash in the middle of an append: it is skipped with a warning (the next append cuts it
 * off). Damage anywhere else is an error naming the file and line; jp never rewrites a file it
 * could not parse. A missing file is an empty stream.
 */
export function readStoredLines(file: string, displayName: string): { lines: StoredLine[]; warnings: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], warnings: [] };
    throw error;
  }
  const warnings: string[] = [];
  const raw = text.split('\n');
  const tail = raw.pop();
  if (tail !== undefined && tail !== '') {
    warnings.push(`${displayName}: ignored an incomplete last line (${tail.length} bytes) left by an interrupted write`);
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
  return { lines, warnings };
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
 * Reads `events.jsonl` with every resource's content: `$blob` references are read from the blob
 * store and verified against their sha256 (a damaged blob is an error naming it; a missing one
 * an error naming the conversation and turn). Inline content of older lines is taken as it is.
 */
export function readEventsFile(file: string, options: ReadEventsOptions = {}): LoadedEvents {
  const displayName = options.displayName ?? file;
  const { lines, warnings } = readStoredLines(file, displayName);
  // A blob referred to many times (a file attached fifty times) is read, verified and decoded once.
  const cache: BlobCache = { bytes: new Map(), texts: new Map(), arrays: new Map() };
  const events = lines.map((stored) => {
    const patches = typeof stored.json === 'object' && stored.json !== null ? inlineReferences(stored, displayName, options, cache) : [];
    const event = parseStoredLine(stored, displayName);
    for (const patch of patches) patch(event);
    return event;
  });
  return { events, warnings };
}

/**
 * Replaces the references of one stored event by their content, in place. Text goes in as text;
 * bytes are set on the parsed event afterwards (returned patches), so they are never base64'd.
 */
interface BlobCache {
  bytes: Map<string, Buffer>;
  /** Decoded text, and whether the bytes were valid UTF-8 (only then is the text exactly them). */
  texts: Map<string, { text: string; exact: boolean }>;
  arrays: Map<string, Uint8Array>;
}

function inlineReferences(
  stored: StoredLine,
  displayName: string,
  options: ReadEventsOptions,
  cache: BlobCache,
): Array<(event: ConversationEvent) => void> {
  const patches: Array<(event: ConversationEvent) => void> = [];
  const load = (ref: BlobReference, uri: unknown): Buffer => {
    const cached = cache.bytes.get(ref.sha256);
    if (cached !== undefined) return cached;
    const where = `conversation ${options.conversation ?? displayName} turn ${Math.max(stored.turn, 0)}`;
    const what = `${where}, ${String(uri)}`;
    const bytes = options.blobs?.read(ref.sha256, what);
    if (bytes === undefined) {
      const blob = options.blobs?.displayPath(ref.sha256) ?? ref.sha256;
      throw new JpError(
        `${where} refers to blob ${blob} (${String(uri)}), which is missing; restore it from a backup, or fork the conversation before that turn`,
        { code: 'missing_blob' },
      );
    }
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    cache.bytes.set(ref.sha256, buffer);
    return buffer;
  };
  const decode = (ref: BlobReference, uri: unknown): { text: string; exact: boolean } => {
    let decoded = cache.texts.get(ref.sha256);
    if (decoded === undefined) {
      const bytes = load(ref, uri);
      decoded = { text: bytes.toString('utf8'), exact: isUtf8(bytes) };
      cache.texts.set(ref.sha256, decoded);
    }
    return decoded;
  };
  const loadText = (ref: BlobReference, uri: unknown): string => decode(ref, uri).text;
  try {
    for (const slot of resourceSlots(stored.json as Json)) {
      const { resource } = slot;
      const content = contentReference(resource);
      if (content !== undefined) {
        dropReferenceFields(resource);
        // The bytes were verified against their sha256 when read: the parsed resource keeps that
        // digest, unless a "text" blob is not UTF-8 (damage by hand), whose decoded text differs.
        const verified = load(content, resource.uri);
        const digest = { sha256: content.sha256, byteLength: verified.byteLength };
        const remember = (event: ConversationEvent) => rememberResourceDigest(slot.locate(event), digest);
        if (content.encoding === 'text') {
          const { text, exact } = decode(content, resource.uri);
          resource.text = text;
          if (exact) patches.push(remember);
        } else {
          let blob = cache.arrays.get(content.sha256);
          if (blob === undefined) {
            blob = new Uint8Array(verified.buffer, verified.byteOffset, verified.byteLength);
            cache.arrays.set(content.sha256, blob);
          }
          resource.blob = '';
          const shared = blob;
          patches.push((event) => Object.assign(slot.locate(event), { blob: shared }), remember);
        }
      }
      const formatted = formattedReference(resource);
      if (formatted !== undefined) resource.formatted = loadText(formatted, resource.uri);
      const blockFormatted = slot.block === undefined ? undefined : formattedReference(slot.block);
      if (blockFormatted !== undefined) slot.block!.formatted = loadText(blockFormatted, resource.uri);
    }
  } catch (error) {
    if (error instanceof BadReference) throw damagedLine(displayName, stored.line, error.message);
    throw error;
  }
  return patches;
}
