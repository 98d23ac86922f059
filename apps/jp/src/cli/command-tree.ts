import type { Command } from 'commander';

/** One command of the CLI as completion scripts and the reference docs see it. */
export interface CommandNode {
  /** Words from the root, e.g. `['attachment', 'add']`; empty for `jp` itself. */
  path: string[];
  names: string[];
  description: string;
  options: string[];
  children: CommandNode[];
}

/** The command tree, from the same commander program the CLI runs (help excluded). */
export function commandTree(command: Command, path: string[] = []): CommandNode {
  return {
    path,
    names: [command.name(), ...command.aliases()],
    description: command.description(),
    options: command.options.flatMap((option) => [option.short, option.long].filter((flag): flag is string => flag !== undefined)),
    children: command.commands.filter((child) => child.name() !== 'help').map((child) => commandTree(child, [...path, child.name()])),
  };
}

export function flatten(node: CommandNode): CommandNode[] {
  return [node, ...node.children.flatMap(flatten)];
}
