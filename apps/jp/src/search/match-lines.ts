import type { MatchRange, SearchPattern } from './search-pattern.ts';

/** One line of a text that matched, with its neighbours for `--context`. */
export interface LineHit {
  /** 1-based line of the text (the query, the answer, the snapshot). */
  line: number;
  /** 1-based column of the first match, in characters (code points). */
  column: number;
  /** The line, whole. */
  text: string;
  ranges: MatchRange[];
  /** Up to `context` lines before and after, never repeating a line a hit before it showed. */
  before: string[];
  after: string[];
}

/** The lines of `text` (a `\r` before a line break is not part of the line). */
export function textLines(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) if (lines[i]!.endsWith('\r')) lines[i] = lines[i]!.slice(0, -1);
  return lines;
}

/** Every line of `text` the pattern matches, with `context` lines around each. */
export function matchLines(text: string, pattern: SearchPattern, context: number): LineHit[] {
  // Most texts hold no match: the pattern's required text decides that without splitting.
  if (pattern.required !== undefined && !text.includes(pattern.required)) return [];
  const lines = textLines(text);
  const found: Array<{ index: number; ranges: MatchRange[] }> = [];
  lines.forEach((line, index) => {
    if (pattern.required !== undefined && !line.includes(pattern.required)) return;
    const ranges = pattern.matchesIn(line);
    if (ranges.length > 0) found.push({ index, ranges });
  });
  return found.map(({ index, ranges }, k) => {
    const previous = k === 0 ? -Infinity : found[k - 1]!.index;
    const next = k === found.length - 1 ? Infinity : found[k + 1]!.index;
    const from = Math.max(0, index - context, previous + context + 1);
    const to = Math.min(lines.length, index + context + 1, next);
    const text = lines[index]!;
    return {
      line: index + 1,
      column: [...text.slice(0, ranges[0]![0])].length + 1,
      text,
      ranges,
      before: lines.slice(Math.min(from, index), index),
      after: lines.slice(index + 1, Math.max(index + 1, to)),
    };
  });
}
