import type { CompletionNode, ValueKind } from './completion-spec.ts';

/**
 * Pieces every completion script is built from. The scripts say what a position completes to as
 * one word: a `jp __complete` kind (`conversations`), `files`, `dirs`, `none`, or `words:a b`.
 */
export function kindWord(value: ValueKind): string {
  switch (value.type) {
    case 'dynamic':
      return value.kind;
    case 'words':
      return `words:${value.words.join(' ')}`;
    default:
      return value.type;
  }
}

/** `"conversation use"`: a command's path as the scripts compare it. */
export function pathKey(node: CompletionNode): string {
  return node.path.join(' ');
}

/** The steps from a command to each child, by every name the child answers to. */
export function steps(nodes: readonly CompletionNode[]): Array<{ from: string; word: string; to: string }> {
  return nodes.flatMap((node) => node.children.flatMap((child) => child.names.map((word) => ({ from: pathKey(node), word, to: pathKey(child) }))));
}

/** The options offered after a command: its own, then (below the root) the global ones. */
export function optionsAfter(node: CompletionNode, root: CompletionNode): CompletionNode['options'] {
  return node === root ? node.options : [...node.options, ...root.options];
}

/** A string as a single-quoted shell word; bash, zsh and fish all read `'\''` as a quote inside one. */
export function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
