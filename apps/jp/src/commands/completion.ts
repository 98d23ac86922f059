import type { Command } from 'commander';
import { UsageError } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { bashScript } from '../completion/bash-script.ts';
import { completionTree } from '../completion/completion-spec.ts';
import { fishScript } from '../completion/fish-script.ts';
import { zshScript } from '../completion/zsh-script.ts';

export function completionScript(shell: string, program: Command): string {
  const root = completionTree(program);
  switch (shell) {
    case 'bash':
      return bashScript(root);
    case 'zsh':
      return zshScript(root);
    case 'fish':
      return fishScript(root);
    default:
      throw new UsageError(`no completion for ${shell}; choose bash, zsh or fish`, { code: 'usage_error' });
  }
}

export function completionCommand(_globals: GlobalOptions, shell: string, program: Command): void {
  process.stdout.write(completionScript(shell, program));
}
