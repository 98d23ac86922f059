import { readFileSync } from 'node:fs';
import { JpError } from '@jp/core';
import { selectLine } from './branch-lines.ts';
import { checkTurnShapes } from './turn-shape.ts';
import { unfinishedAppend } from './unfinished-append.ts';

// Reading the lines is apart from validating them as events (events-file.ts), so that a reader
// that needs only their JSON (the editor's template, query/editor-first.ts) loads no schema.

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
