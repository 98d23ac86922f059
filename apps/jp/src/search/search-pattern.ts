import { UsageError } from '@jp/core';
import { requiredLiteral } from './required-literal.ts';

/** How a pattern is read: `--regex`, `-i`, `-w`. */
export interface PatternOptions {
  pattern: string;
  regex?: boolean | undefined;
  ignoreCase?: boolean | undefined;
  word?: boolean | undefined;
}

/** A match in one line: `[start, end)` in UTF-16 units of the line. */
export type MatchRange = readonly [start: number, end: number];

/** A compiled pattern, for one line of text at a time. */
export interface SearchPattern {
  /** Every match in `line`, in order; empty when none. */
  matchesIn(line: string): MatchRange[];
  /**
   * Text every match contains, exactly as written (case-sensitive), when one is sure: raw bytes
   * that do not hold it (its UTF-8, or its JSON-escaped form in events.jsonl) hold no match.
   */
  required: string | undefined;
  /** The same, for a case-insensitive pattern: a text every match contains in some letter case. */
  requiredFolded: string | undefined;
}

/** What a literal pattern escapes: the syntax characters, and `/` (the only other escape the `u` flag allows). */
const SPECIAL = /[\\^$.*+?()[\]{}|/]/g;

/** A letter, a digit or `_` — what a word is made of for `-w`, in any script. */
const WORD = String.raw`[\p{L}\p{N}\p{M}_]`;

/**
 * Compiles a pattern: a literal by default, a JavaScript regular expression (`u` flag) with
 * `--regex`; `-i` ignores case (Unicode case folding); `-w` matches whole words only. A pattern
 * that is empty, holds a line break or does not compile is a usage error saying why.
 */
export function compilePattern(options: PatternOptions): SearchPattern {
  const { pattern } = options;
  if (pattern === '') throw new UsageError('the pattern is empty, which would match every line; give the text to look for', { code: 'usage_error' });
  if (/[\r\n]/.test(pattern)) throw new UsageError('the pattern holds a line break; hits are single lines, so search for one line at a time', { code: 'usage_error' });
  const body = options.regex ? pattern : pattern.replace(SPECIAL, '\\$&');
  const source = options.word ? `(?<!${WORD})(?:${body})(?!${WORD})` : body;
  let expression: RegExp;
  try {
    expression = new RegExp(source, `gu${options.ignoreCase ? 'i' : ''}`);
  } catch (error) {
    const why = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    throw new UsageError(`invalid regular expression ${JSON.stringify(pattern)}: ${why}`, { code: 'bad_pattern' });
  }
  const literal = options.regex ? requiredLiteral(pattern) : pattern;
  return {
    required: options.ignoreCase ? undefined : literal,
    requiredFolded: options.ignoreCase ? literal : undefined,
    matchesIn(line) {
      const ranges: MatchRange[] = [];
      expression.lastIndex = 0;
      for (let match = expression.exec(line); match !== null; match = expression.exec(line)) {
        const start = match.index;
        const end = start + match[0].length;
        ranges.push([start, end]);
        // An empty match moves on by one code point, or the loop would stay where it is.
        if (end === start) expression.lastIndex = end + (line.codePointAt(end)! > 0xffff ? 2 : 1);
        if (expression.lastIndex > line.length) break;
      }
      return ranges;
    },
  };
}
