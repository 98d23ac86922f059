import { closeSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync, fstatSync, writeSync } from 'node:fs';
import { JpError } from '@jp/core/errors';
import { parseEvent, serializeEvent, type ConversationEvent } from '@jp/core';

export interface LoadedEvents {
  events: ConversationEvent[];
  /** Things worth telling the user, e.g. a torn last line that was ignored. */
  warnings: string[];
}

/**
 * Reads `events.jsonl`. A last line without its newline is the trace of a crash in the middle of
 * an append: it is ignored with a warning (the next append cuts it off). Damage anywhere else is
 * an error naming the file and line; jp never rewrites a file it could not parse.
 */
export function readEventsFile(file: string, displayName: string = file): LoadedEvents {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { events: [], warnings: [] };
    throw error;
  }
  const warnings: string[] = [];
  const lines = text.split('\n');
  const tail = lines.pop();
  if (tail !== undefined && tail !== '') {
    warnings.push(`${displayName}: ignored an incomplete last line (${tail.length} bytes) left by an interrupted write`);
  }
  const events: ConversationEvent[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw damaged(displayName, index + 1, 'not valid JSON');
    }
    const parsed = parseEvent(json);
    if (!parsed.success) throw damaged(displayName, index + 1, parsed.error);
    events.push(parsed.event);
  });
  return { events, warnings };
}

function damaged(file: string, line: number, why: string): JpError {
  return new JpError(`${file} line ${line} is damaged (${why}); jp will not modify the file: repair or remove that line`, {
    code: 'damaged_conversation',
  });
}

/**
 * Appends events as complete lines in one write, then flushes. The caller holds the
 * conversation's lock. An incomplete last line from an earlier crash is cut off first, so a new
 * event never continues a torn one.
 */
export function appendEvents(file: string, events: readonly ConversationEvent[]): void {
  if (events.length === 0) return;
  const payload = Buffer.from(events.map((event) => `${serializeEvent(event)}\n`).join(''), 'utf8');
  const fd = openSync(file, 'a+');
  try {
    cutTornTail(fd);
    let offset = 0;
    while (offset < payload.byteLength) offset += writeSync(fd, payload, offset, payload.byteLength - offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function cutTornTail(fd: number): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 0x0a) return;
  // Scan backwards for the last newline; everything after it is the torn line.
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.byteLength);
    const read = readSync(fd, chunk, 0, end - start, start);
    const newline = chunk.subarray(0, read).lastIndexOf(0x0a);
    if (newline >= 0) {
      ftruncateSync(fd, start + newline + 1);
      return;
    }
    end = start;
  }
  ftruncateSync(fd, 0);
}
