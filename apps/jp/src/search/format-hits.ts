import { conversationUri, snapshotUri, turnUri } from '../mcp-serve/jp-uris.ts';
import type { Span } from '../output/output.ts';
import { visibleText } from '../output/terminal-text.ts';
import type { MatchRange } from './search-pattern.ts';
import type { ConversationHits, SearchHit } from './search-hit.ts';

/*
 * How hits are written. On a pipe, one line per hit: `ID:TURN:SCOPE:TEXT`, a resource's TEXT
 * being `URI:LINE:TEXT`; with --context, its neighbours have `-` in place of the `:` after SCOPE
 * (and after the URI and line), as grep marks context, and `--` stands between groups that do not
 * touch. On a terminal, hits are grouped under a heading per conversation, matches highlighted.
 * Either way the text is made visible first (RFD 013): a line holds no control character.
 */

/** How a stored URI is shown (`file:` URIs of the workspace relative to it, as `--attach` takes them). */
export type ShowUri = (uri: string) => string;

/** `..` for a title: every turn, as `jp conversation show --turn ..` takes it. */
export function turnField(hit: SearchHit): string {
  return hit.turn === undefined ? '..' : String(hit.turn);
}

/** The `jp://` URI of where a hit is: its turn, its snapshot, or the conversation for a title. */
export function hitUri(hit: SearchHit): string {
  if (hit.snapshot !== undefined) return snapshotUri(hit.conversation, hit.snapshot.sha256);
  return hit.turn === undefined ? conversationUri(hit.conversation) : turnUri(hit.conversation, hit.turn);
}

/** Whether `hit` follows `previous` in the same text with no line between them. */
function touches(previous: SearchHit | undefined, hit: SearchHit): boolean {
  if (previous === undefined || previous.source !== hit.source || previous.conversation !== hit.conversation) return false;
  return hit.line - hit.before.length <= previous.line + previous.after.length + 1;
}

/** The lines of one hit and its context as `[line number, text, is the match]`. */
function block(hit: SearchHit): Array<[number, string, boolean]> {
  return [
    ...hit.before.map((text, i): [number, string, boolean] => [hit.line - hit.before.length + i, text, false]),
    [hit.line, hit.text, true],
    ...hit.after.map((text, i): [number, string, boolean] => [hit.line + 1 + i, text, false]),
  ];
}

/** The lines a pipe gets for one conversation's hits (`separate`: a `--` before the first, after another conversation's). */
export function pipeLines(found: ConversationHits, showUri: ShowUri, context: number, separate: boolean): string[] {
  const out: string[] = [];
  let previous: SearchHit | undefined;
  for (const hit of found.hits) {
    if (context > 0 && (previous !== undefined || separate) && !touches(previous, hit)) out.push('--');
    const coordinate = `${hit.conversation}:${turnField(hit)}:${hit.scope}`;
    for (const [line, text, matched] of block(hit)) {
      const mark = matched ? ':' : '-';
      const where = hit.snapshot === undefined ? '' : `${visibleText(showUri(hit.snapshot.uri))}${mark}${line}${mark}`;
      out.push(`${coordinate}${mark}${where}${visibleText(text)}`);
    }
    previous = hit;
  }
  return out;
}

/** `text` cut to about `width` characters around its first match, with `…` where it was cut; ranges moved to match. */
function window(text: string, ranges: readonly MatchRange[], width: number): { text: string; ranges: MatchRange[] } {
  if (text.length <= width) return { text, ranges: [...ranges] };
  const first = ranges[0]?.[0] ?? 0;
  const start = Math.max(0, Math.min(first - Math.floor(width / 3), text.length - width));
  const end = Math.min(text.length, start + width);
  const cut = `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
  const shift = start > 0 ? 1 - start : 0;
  const moved = ranges
    .filter(([from, to]) => to > start && from < end)
    .map(([from, to]): MatchRange => [Math.max(from, start) + shift, Math.min(to, end) + shift]);
  return { text: cut, ranges: moved };
}

/** A line as spans, each match in the `match` style, every part made visible. */
function highlighted(text: string, ranges: readonly MatchRange[]): Span[] {
  const spans: Span[] = [];
  let at = 0;
  for (const [from, to] of ranges) {
    if (from > at) spans.push(visibleText(text.slice(at, from)));
    spans.push(['match', visibleText(text.slice(Math.max(from, at), to))]);
    at = Math.max(at, to);
  }
  if (at < text.length) spans.push(visibleText(text.slice(at)));
  return spans;
}

/** A terminal's lines for one conversation: a heading (id, title, count), then each hit under it, fitted to `columns`. */
export function terminalLines(found: ConversationHits, showUri: ShowUri, context: number, columns: number): Span[][] {
  const count = `${found.hits.length} match${found.hits.length === 1 ? '' : 'es'}`;
  const lines: Span[][] = [[['heading', found.id], ...(found.title === undefined ? [] : ['  ', visibleText(found.title.replace(/\s+/g, ' '))]), ['dim', `  ${count}`]]];
  let previous: SearchHit | undefined;
  for (const hit of found.hits) {
    if (context > 0 && previous !== undefined && !touches(previous, hit)) lines.push([['dim', '  --']]);
    const coordinate = `  ${turnField(hit)}:${hit.scope}`;
    for (const [line, text, matched] of block(hit)) {
      const mark = matched ? ':' : '-';
      const where = hit.snapshot === undefined ? '' : `${visibleText(showUri(hit.snapshot.uri))}${mark}${line}${mark}`;
      const prefix = `${coordinate}${mark}${where} `;
      const fitted = window(text, matched ? hit.ranges : [], Math.max(40, columns - prefix.length - 1));
      lines.push([['dim', prefix], ...(matched ? highlighted(fitted.text, fitted.ranges) : [['dim', visibleText(fitted.text)] as Span])]);
    }
    previous = hit;
  }
  return lines;
}

/** One hit as `-F json` prints it (the text exact: JSON output escapes what a terminal would act on). */
export function hitJson(hit: SearchHit, context: number): Record<string, unknown> {
  return {
    id: hit.conversation,
    turn: hit.turn ?? null,
    scope: hit.scope,
    uri: hitUri(hit),
    ...(hit.snapshot === undefined ? {} : { resource: hit.snapshot }),
    line: hit.line,
    column: hit.column,
    text: hit.text,
    ...(context > 0 ? { before: hit.before, after: hit.after } : {}),
  };
}
