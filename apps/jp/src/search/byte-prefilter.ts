import type { SearchPattern } from './search-pattern.ts';

/** A line of a buffer: `[start, end)` in bytes, its line break left out. */
export type LineSpan = readonly [start: number, end: number];

/**
 * Where the bytes hold text: `raw` is UTF-8 as written (a blob), `json` is a line of events.jsonl,
 * where text sits inside JSON strings, escaped as JSON.stringify escapes it.
 */
export type Medium = 'raw' | 'json';

const NEWLINE = 0x0a;


/**
 * The forms `text` takes in the bytes of `medium`. In events.jsonl text sits in JSON strings,
 * escaped, except in tool arguments and structured answers, stored as JSON values and searched as
 * JSON.stringify writes them (`{"key":"value"}`).
 */
export function forms(text: string, medium: Medium): string[] {
  if (medium === 'raw') return [text];
  return [...new Set([JSON.stringify(text).slice(1, -1), text])];
}

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/**
 * An ASCII text as a case-insensitive expression over bytes read as Latin-1, with the two
 * non-ASCII characters that Unicode case folding maps onto ASCII letters spelled as their UTF-8
 * bytes (ſ for s, the Kelvin sign for k), so that no match the pattern's own `iu` expression finds
 * is missed here. Undefined for a text that is not ASCII.
 */
function foldedSource(text: string): string | undefined {
  if (!/^[\x20-\x7e]*$/.test(text)) return undefined;
  return [...text]
    .map((char) => {
      if (char === 's' || char === 'S') return '(?:s|\\xc5\\xbf)';
      if (char === 'k' || char === 'K') return '(?:k|\\xe2\\x84\\xaa)';
      return escapeRegExp(char);
    })
    .join('');
}

/**
 * Finds, in raw bytes, where a pattern may match, before anything is decoded or parsed: the
 * pattern's required text as bytes (`Buffer.indexOf`), or, for a case-insensitive one with an ASCII
 * required text, an expression over the bytes read as Latin-1. Without either, every line is a
 * candidate. It may give lines that hold no match (the text in a JSON key, say), never miss one.
 */
export class BytePrefilter {
  readonly #needles: Buffer[] = [];
  readonly #folded: RegExp | undefined;

  constructor(pattern: SearchPattern, medium: Medium) {
    if (pattern.required !== undefined) {
      this.#needles = forms(pattern.required, medium).map((form) => Buffer.from(form, 'utf8'));
    } else if (pattern.requiredFolded !== undefined) {
      const sources = forms(pattern.requiredFolded, medium).map(foldedSource);
      if (sources.every((source) => source !== undefined)) this.#folded = new RegExp(sources.join('|'), 'gi');
    }
  }

  /** Whether `bytes` may hold a match at all. */
  mayMatch(bytes: Buffer): boolean {
    if (this.#needles.length > 0) return this.#needles.some((needle) => bytes.indexOf(needle) !== -1);
    if (this.#folded !== undefined) {
      this.#folded.lastIndex = 0;
      return this.#folded.test(bytes.toString('latin1'));
    }
    return true;
  }

  /**
   * Where in `bytes` a match may start, in order (each occurrence of the required text, overlapping
   * ones included); `undefined` when the pattern has no required text, so that a match may be anywhere.
   */
  positions(bytes: Buffer): number[] | undefined {
    if (this.#needles.length > 0) {
      const found: number[] = [];
      for (const needle of this.#needles) for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) found.push(at);
      return this.#needles.length === 1 ? found : found.sort((a, b) => a - b);
    }
    if (this.#folded !== undefined) {
      const found: number[] = [];
      const text = bytes.toString('latin1');
      this.#folded.lastIndex = 0;
      for (let match = this.#folded.exec(text); match !== null; match = this.#folded.exec(text)) {
        found.push(match.index);
        this.#folded.lastIndex = match.index + 1;
      }
      return found;
    }
    return undefined;
  }

  /** The lines of `bytes` that may hold a match, in order, each once. */
  candidateLines(bytes: Buffer): LineSpan[] {
    const lines: LineSpan[] = [];
    const add = (at: number): number => {
      const start = at === 0 ? 0 : bytes.lastIndexOf(NEWLINE, at - 1) + 1;
      const found = bytes.indexOf(NEWLINE, at);
      const end = found === -1 ? bytes.length : found;
      lines.push([start, end]);
      return end + 1;
    };
    if (this.#needles.length > 0) {
      for (const needle of this.#needles) {
        let at = bytes.indexOf(needle);
        while (at !== -1) at = bytes.indexOf(needle, add(at));
      }
      if (this.#needles.length === 1) return lines;
      const seen = new Set<number>();
      return lines.filter(([start]) => !seen.has(start) && seen.add(start) !== undefined).sort((a, b) => a[0] - b[0]);
    }
    if (this.#folded !== undefined) {
      const text = bytes.toString('latin1');
      this.#folded.lastIndex = 0;
      for (let match = this.#folded.exec(text); match !== null; match = this.#folded.exec(text)) this.#folded.lastIndex = add(match.index);
      return lines;
    }
    for (let start = 0; start < bytes.length; ) {
      const found = bytes.indexOf(NEWLINE, start);
      const end = found === -1 ? bytes.length : found;
      if (end > start) lines.push([start, end]);
      start = end + 1;
    }
    return lines;
  }
}
