import { JpError, UsageError } from '@jp/core';
import { parseTOML, type AST } from 'toml-eslint-parser';
import { sameValue, withoutKeys } from './diff-layers.ts';
import { keyNames, lineAt } from './edit-toml.ts';
import { formatKey } from './format-key.ts';
import { parseConfigText } from './load-config.ts';
import { getPath, type ConfigLayer } from './merge-config.ts';
import { formatTomlValue } from './toml-value.ts';

/*
 * `jp config unset KEY` takes a key out of the file the person wrote, in place (RFD 014): the lines
 * that write it go (a `key = value` line with its trailing comment, or a whole `[table]` section),
 * a key inside an inline table is taken out of that table, and every other character stays.
 */

type Path = readonly (string | number)[];

const startsWith = (path: Path, prefix: Path): boolean => prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** A table without its empty tables: a key line removed from `[a]` leaves `a = {}` behind, which says nothing. */
function pruned(value: unknown): unknown {
  if (!isTable(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const kept = pruned(inner);
    if (!(isTable(kept) && Object.keys(kept).length === 0)) out[key] = kept;
  }
  return out;
}

/** From the start of the line `start` is on through the end of the line `end` is on, and its line break. */
function wholeLines(text: string, start: number, end: number): [number, number] {
  const from = lineAt(text, start).start;
  const to = lineAt(text, Math.max(start, end - 1)).end;
  const newline = text.startsWith('\r\n', to) ? 2 : text[to] === '\n' ? 1 : 0;
  return [from, to + newline];
}

/**
 * `text` without the key `segments`, or `undefined` when the file does not set it. The result is
 * parsed again and compared with the file's table without that key; a file that could not be
 * changed faithfully is never written.
 */
export function unsetToml(text: string, segments: readonly string[], display: string): string | undefined {
  const current = parseConfigText(text, display);
  if (getPath(current, segments) === undefined) return undefined;
  const ast = parseTOML(text, { tomlVersion: 'latest' });
  const body = ast.body[0].body;
  const edits: Array<{ start: number; end: number; insert: string }> = [];
  const removeItem = (item: AST.TOMLKeyValue, at: Path): void => {
    const full = [...at, ...keyNames(item.key)];
    if (startsWith(full, segments)) {
      const [start, end] = wholeLines(text, item.range[0], item.range[1]);
      edits.push({ start, end, insert: '' });
    } else if (startsWith(segments, full) && item.value.type === 'TOMLInlineTable') {
      // A key inside `env = { A = "1", B = "2" }`: the inline table is written again without it.
      const inner = getPath(current, full as string[]);
      const rest = withoutKeys(isTable(inner) ? inner : {}, [segments.slice(full.length)]);
      edits.push({ start: item.value.range[0], end: item.value.range[1], insert: formatTomlValue(rest) });
    }
  };
  for (const node of body) {
    if (node.type === 'TOMLKeyValue') {
      removeItem(node, []);
      continue;
    }
    const named = node.resolvedKey.slice(0, node.resolvedKey.findIndex((segment) => typeof segment === 'number'));
    if (node.kind === 'array' && (startsWith(segments, named) || startsWith(named, segments))) {
      throw new UsageError(`cannot unset ${formatKey(segments)} in ${display}: ${formatKey(named)} is an array of tables; edit the file by hand`, {
        code: 'config_edit_unsupported',
      });
    }
    if (startsWith(node.resolvedKey, segments)) {
      const [start, end] = wholeLines(text, node.range[0], node.range[1]);
      // The blank lines that set the section apart go with it.
      const blank = /^(?:[ \t]*\r?\n)*/.exec(text.slice(end))![0].length;
      edits.push({ start, end: end + blank, insert: '' });
      continue;
    }
    const before = edits.length;
    for (const item of node.body) removeItem(item, node.resolvedKey);
    // A section left with nothing in it, not even a comment, goes too: `[a]` alone says nothing.
    const next = body[body.indexOf(node) + 1];
    const end = next === undefined ? text.length : lineAt(text, next.range[0]).start;
    const emptied = node.body.length > 0 && edits.length - before === node.body.length && edits.slice(before).every((edit) => edit.insert === '');
    if (emptied && !ast.comments.some((comment) => comment.range[0] >= node.range[0] && comment.range[0] < end)) {
      edits.splice(before);
      edits.push({ start: lineAt(text, node.range[0]).start, end, insert: '' });
    }
  }
  let edited = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) edited = edited.slice(0, edit.start) + edit.insert + edited.slice(edit.end);
  let result: ConfigLayer | undefined;
  try {
    result = parseConfigText(edited, display);
  } catch {
    result = undefined;
  }
  if (result === undefined || !sameValue(pruned(result), pruned(withoutKeys(current, [segments])))) {
    throw new JpError(`cannot unset ${formatKey(segments)} in ${display} in place; nothing was written: edit the file by hand`, { code: 'config_edit_failed' });
  }
  return edited;
}
