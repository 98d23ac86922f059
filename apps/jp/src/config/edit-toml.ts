import { JpError, UsageError } from '@jp/core';
import { parseTOML, type AST } from 'toml-eslint-parser';
import { sameValue } from './diff-layers.ts';
import { formatKey } from './format-key.ts';
import { parseConfigText } from './load-config.ts';
import type { ConfigLayer } from './merge-config.ts';
import { formatTomlValue } from './toml-value.ts';

/*
 * `jp config set` edits the file the person wrote, in place (RFD 014). toml-eslint-parser gives
 * every key, value, table and comment with its exact place in the text; the edit replaces one
 * value's characters, or inserts one line (or one section), and leaves every other character as
 * it was: comments, blank lines, order, quoting, alignment.
 */

type Path = readonly (string | number)[];

/** A place keys are written: the top of the file, a `[table]` or a `[[table]]`. */
interface Container {
  path: Path;
  table: AST.TOMLTable | undefined;
  items: AST.TOMLKeyValue[];
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

export const keyNames = (key: AST.TOMLKey): string[] => key.keys.map((part) => (part.type === 'TOMLBare' ? part.name : part.value));
const startsWith = (path: Path, prefix: Path): boolean => prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
const splice = (text: string, start: number, end: number, insert: string): string => text.slice(0, start) + insert + text.slice(end);

function cannot(segments: Path, display: string, why: string): UsageError {
  return new UsageError(`cannot set ${formatKey(segments)} in ${display}: ${why}; edit the file by hand`, { code: 'config_edit_unsupported' });
}

/** The line `offset` is on: its start, and its end before the line break. */
export function lineAt(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const newline = text.indexOf('\n', offset);
  const end = newline === -1 ? text.length : newline > 0 && text[newline - 1] === '\r' ? newline - 1 : newline;
  return { start, end };
}

/**
 * Where a new line of `container` goes: after the last line of its part of the file that holds
 * anything (its keys, or the comments under its header), but before comments written directly
 * above the next header, which describe that one. Returns the offset to insert at (a line's end).
 */
function insertionPoint(text: string, ast: AST.TOMLProgram, container: Container, next: AST.TOMLTable | undefined): number {
  const from = container.table === undefined ? 0 : lineAt(text, container.table.key.range[1]).end;
  const to = next === undefined ? text.length : lineAt(text, next.range[0]).start;
  const comments = new Set(ast.comments.map((comment) => comment.range[0]));
  const lines: Array<{ start: number; end: number; blank: boolean; comment: boolean }> = [];
  for (let start = from; start < to; ) {
    const line = lineAt(text, start);
    const content = text.slice(line.start, line.end);
    const indent = content.length - content.trimStart().length;
    if (line.start >= from && line.end > from) lines.push({ ...line, blank: content.trim() === '', comment: comments.has(line.start + indent) });
    const newline = text.indexOf('\n', line.end);
    if (newline === -1) break;
    start = newline + 1;
  }
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.blank) last--;
  if (next !== undefined && last === lines.length - 1) while (last >= 0 && lines[last]!.comment) last--;
  while (last >= 0 && lines[last]!.blank) last--;
  return last >= 0 ? lines[last]!.end : from;
}

/** Sets one key to a value that is not a non-empty table; `undefined` when the key is not written anywhere. */
function assignExisting(text: string, containers: readonly Container[], segments: Path, value: unknown, display: string): string | undefined {
  const visit = (item: AST.TOMLKeyValue, at: Path): string | undefined => {
    const full = [...at, ...keyNames(item.key)];
    if (startsWith(full, segments) && full.length > segments.length) {
      if (isTable(value)) return text;
      throw cannot(segments, display, `${formatKey(segments)} is a table there, set one of its keys`);
    }
    if (full.length === segments.length && startsWith(full, segments)) {
      if (isTable(value) && item.value.type === 'TOMLInlineTable') return text;
      return splice(text, item.value.range[0], item.value.range[1], formatTomlValue(value));
    }
    if (!startsWith(segments, full)) return undefined;
    const rest = segments.slice(full.length);
    const entry = `${formatKey(rest)} = ${formatTomlValue(value)}`;
    if (item.value.type !== 'TOMLInlineTable') return splice(text, item.value.range[0], item.value.range[1], `{ ${entry} }`);
    for (const inner of item.value.body) {
      const edited = visit(inner, full);
      if (edited !== undefined) return edited;
    }
    const lastItem = item.value.body.at(-1);
    if (lastItem === undefined) return splice(text, item.value.range[0], item.value.range[1], `{ ${entry} }`);
    return splice(text, lastItem.range[1], lastItem.range[1], `, ${entry}`);
  };
  for (const container of containers) {
    for (const item of container.items) {
      const edited = visit(item, container.path);
      if (edited !== undefined) return edited;
    }
  }
  return undefined;
}

function setLeaf(text: string, segments: readonly string[], value: unknown, display: string): string {
  const ast = parseTOML(text, { tomlVersion: 'latest' });
  const body = ast.body[0].body;
  const tables = body.filter((node): node is AST.TOMLTable => node.type === 'TOMLTable');
  const root: Container = { path: [], table: undefined, items: body.filter((node): node is AST.TOMLKeyValue => node.type === 'TOMLKeyValue') };
  const containers: Container[] = [root, ...tables.map((table) => ({ path: table.resolvedKey, table, items: table.body }))];
  for (const table of tables) {
    const named = table.resolvedKey.slice(0, table.resolvedKey.findIndex((segment) => typeof segment === 'number'));
    if (table.kind === 'array' && startsWith(segments, named)) throw cannot(segments, display, `${formatKey(named)} is an array of tables`);
    if (table.kind === 'standard' && startsWith(table.resolvedKey, segments)) {
      if (isTable(value)) return text;
      throw cannot(segments, display, `${formatKey(segments)} is a table there, set one of its keys`);
    }
  }
  const assigned = assignExisting(text, containers, segments, value, display);
  if (assigned !== undefined) return assigned;

  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const host = containers
    .filter((container) => container.table?.kind !== 'array' && container.path.length < segments.length && startsWith(segments, container.path))
    .reduce((best, container) => (container.path.length > best.path.length ? container : best), root);
  const rest = segments.slice(host.path.length);
  const ownsByDottedKeys = host.items.some((item) => item.key.keys.length > 1 && keyNames(item.key)[0] === rest[0]);
  if (rest.length === 1 || ownsByDottedKeys || host.path.length >= 2) {
    const next = host.table === undefined ? tables[0] : tables[tables.indexOf(host.table) + 1];
    const at = insertionPoint(text, ast, host, next);
    const lastItem = host.items.at(-1);
    const indent = lastItem === undefined ? '' : text.slice(lineAt(text, lastItem.range[0]).start, lastItem.range[0]);
    const line = `${indent}${formatKey(rest)} = ${formatTomlValue(value)}`;
    if (at === 0 && host.table === undefined) return `${line}${newline}${text.length > 0 && text.trimStart().startsWith('[') ? newline : ''}${text}`;
    return splice(text, at, at, `${newline}${line}`);
  }
  // A table nobody wrote yet: a new section at the end, `[a]` or `[a.b]`, the rest as a dotted key.
  const section = segments.slice(0, Math.min(segments.length - 1, 2));
  const separator = text.length === 0 ? '' : text.endsWith(`${newline}${newline}`) ? '' : text.endsWith(newline) ? newline : `${newline}${newline}`;
  return `${text}${separator}[${formatKey(section)}]${newline}${formatKey(segments.slice(section.length))} = ${formatTomlValue(value)}${newline}`;
}

/** Every leaf of a value: a table is set key by key, as merging it would (an empty table is a leaf). */
function leaves(value: unknown, at: string[] = []): Array<[string[], unknown]> {
  if (!isTable(value) || Object.keys(value).length === 0) return [[at, value]];
  return Object.entries(value).flatMap(([key, inner]) => leaves(inner, [...at, key]));
}

/**
 * `text` (a config file, possibly empty) with `segments` set to `value`. The result is parsed again
 * and compared with `expected` (the file's table with the value merged in): a file that could not
 * be changed faithfully is never written.
 */
export function editToml(text: string, segments: readonly string[], value: unknown, expected: ConfigLayer, display: string): string {
  let edited = text;
  for (const [path, leaf] of leaves(value)) edited = setLeaf(edited, [...segments, ...path], leaf, display);
  let result: ConfigLayer | undefined;
  try {
    result = parseConfigText(edited, display);
  } catch {
    result = undefined;
  }
  if (result === undefined || !sameValue(result, expected)) {
    throw new JpError(`cannot change ${formatKey(segments)} in ${display} in place; nothing was written: edit the file by hand`, { code: 'config_edit_failed' });
  }
  return edited;
}
