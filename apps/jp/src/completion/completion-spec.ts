import type { Command, Option } from 'commander';
import type { DynamicKind } from './completion-values.ts';

/**
 * What a value completes to: one of `jp __complete`'s kinds (read from `.jp/` when Tab is
 * pressed), file or directory names (the shell's own), an attachment (file names, and the
 * `jp://conversation/<id>` URIs once `j` is typed), fixed words, or nothing (free text).
 */
export type ValueKind = { type: 'dynamic'; kind: DynamicKind } | { type: 'files' } | { type: 'dirs' } | { type: 'attach' } | { type: 'words'; words: string[] } | { type: 'none' };

export interface CompletionOption {
  flags: string[];
  description: string;
  /** What its value completes to; `undefined` for a flag that takes none. */
  value: ValueKind | undefined;
}

/** One command as the completion scripts see it. */
export interface CompletionNode {
  /** Canonical words from the root (`['conversation', 'use']`); empty for `jp`. */
  path: string[];
  names: string[];
  description: string;
  options: CompletionOption[];
  children: CompletionNode[];
  /** What its positional arguments complete to (a command with subcommands takes none). */
  argument: ValueKind;
}

const dynamic = (kind: DynamicKind): ValueKind => ({ type: 'dynamic', kind });

/** Values of options by their long name; an option not named here takes free text. */
const OPTION_VALUES: Record<string, ValueKind> = {
  '--id': dynamic('conversations'),
  '--model': dynamic('models'),
  '--workspace': { type: 'dirs' },
  '--attach': { type: 'attach' },
  '--schema': { type: 'files' },
};

/** Values of positional arguments by their name in `--help`. */
const ARGUMENT_VALUES: Record<string, ValueKind> = {
  id: dynamic('conversations'),
  server: dynamic('mcp-servers'),
  'url-or-index': dynamic('attachments'),
  url: { type: 'files' },
  dir: { type: 'dirs' },
  text: { type: 'files' },
  shell: { type: 'words', words: ['bash', 'zsh', 'fish'] },
};

function optionValue(option: Option): ValueKind | undefined {
  if (!option.required && !option.optional) return undefined;
  if (option.argChoices !== undefined) return { type: 'words', words: [...option.argChoices] };
  return OPTION_VALUES[option.long ?? ''] ?? { type: 'none' };
}

function argumentValue(command: Command): ValueKind {
  const first = command.registeredArguments[0];
  if (first === undefined) return { type: 'none' };
  if (first.argChoices !== undefined) return { type: 'words', words: [...first.argChoices] };
  return ARGUMENT_VALUES[first.name()] ?? { type: 'none' };
}

/** The tree of commands completion offers, from the same commander program the CLI runs (help and hidden ones left out). */
export function completionTree(command: Command, path: string[] = []): CompletionNode {
  const visible = command.commands.filter((child) => child.name() !== 'help' && !(child as Command & { _hidden?: boolean })._hidden);
  return {
    path,
    names: [command.name(), ...command.aliases()],
    description: command.description(),
    options: command.options
      .filter((option) => !option.hidden)
      .map((option) => ({
        flags: [option.short, option.long].filter((flag): flag is string => flag !== undefined),
        description: option.description,
        value: optionValue(option),
      })),
    children: visible.map((child) => completionTree(child, [...path, child.name()])),
    argument: visible.length > 0 ? { type: 'none' } : argumentValue(command),
  };
}

export function flattenTree(node: CompletionNode): CompletionNode[] {
  return [node, ...node.children.flatMap(flattenTree)];
}

/** Every option taking a value anywhere in the tree, once per flag spelling: walking the words typed must skip their values. */
export function valueOptions(root: CompletionNode): CompletionOption[] {
  const byFlag = new Map<string, CompletionOption>();
  for (const node of flattenTree(root)) for (const option of node.options) if (option.value !== undefined) for (const flag of option.flags) byFlag.set(flag, option);
  return [...new Set(byFlag.values())];
}
