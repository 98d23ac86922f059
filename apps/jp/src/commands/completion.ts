import type { Command } from 'commander';
import { UsageError } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { commandTree, flatten, type CommandNode } from '../cli/command-tree.ts';

/** The words that may follow a command: its subcommands (names and aliases) and its options. */
function wordsAfter(node: CommandNode, globals: string[]): string[] {
  return [...node.children.flatMap((child) => child.names), ...node.options, ...globals];
}

/**
 * Bash: walk the words typed so far to find the deepest command, then offer its subcommands and
 * options; anything else completes file names (attachments are mostly paths).
 */
function bash(root: CommandNode): string {
  const globals = root.options;
  const nodes = flatten(root);
  const cases = nodes
    .map((node) => `    ${JSON.stringify(node.path.join(' '))}) words=${JSON.stringify(wordsAfter(node, node.path.length > 0 ? globals : []).join(' '))} ;;`)
    .join('\n');
  const steps = nodes
    .flatMap((node) => node.children.flatMap((child) => child.names.map((name) => `    ${JSON.stringify(`${node.path.join(' ')}|${name}`)}) path=${JSON.stringify(child.path.join(' '))} ;;`)))
    .join('\n');
  return `# jp completion for bash: eval "$(jp completion bash)"
_jp() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" words="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "$path|\${COMP_WORDS[i]}" in
${steps}
    esac
  done
  case "$path" in
${cases}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(printf '%s\\n' $words | grep -v '^-')" -- "$cur") $(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _jp jp
`;
}

function zsh(root: CommandNode): string {
  return `#compdef jp
# jp completion for zsh: eval "$(jp completion zsh)"
autoload -U +X bashcompinit && bashcompinit
${bash(root).split('\n').slice(1).join('\n')}`;
}

function fish(root: CommandNode): string {
  const lines = ['# jp completion for fish: jp completion fish | source', 'complete -c jp -f'];
  const condition = (node: CommandNode) => {
    if (node.path.length === 0) return `not __fish_seen_subcommand_from ${root.children.flatMap((child) => child.names).join(' ')}`;
    return node.path.map((word) => `__fish_seen_subcommand_from ${word}`).join('; and ');
  };
  for (const node of flatten(root)) {
    for (const child of node.children) {
      lines.push(`complete -c jp -n ${JSON.stringify(condition(node))} -a ${JSON.stringify(child.names.join(' '))} -d ${JSON.stringify(child.description.slice(0, 80))}`);
    }
    for (const option of node.options) {
      const flag = option.startsWith('--') ? `-l ${option.slice(2)}` : `-s ${option.slice(1)}`;
      lines.push(`complete -c jp -n ${JSON.stringify(condition(node))} ${flag}`);
    }
  }
  lines.push(`complete -c jp -n "__fish_seen_subcommand_from query q add" -F`);
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: string, program: Command): string {
  const root = commandTree(program);
  switch (shell) {
    case 'bash':
      return bash(root);
    case 'zsh':
      return zsh(root);
    case 'fish':
      return fish(root);
    default:
      throw new UsageError(`no completion for ${shell}; choose bash, zsh or fish`, { code: 'usage_error' });
  }
}

export function completionCommand(_globals: GlobalOptions, shell: string, program: Command): void {
  process.stdout.write(completionScript(shell, program));
}
