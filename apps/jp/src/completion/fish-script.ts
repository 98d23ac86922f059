import { flattenTree, valueOptions, type CompletionNode, type ValueKind } from './completion-spec.ts';
import { pathKey, singleQuoted, steps } from './script-words.ts';

/** `complete` arguments for what a value completes to; `-k` keeps jp's order (most recent conversation first). */
function valueArguments(value: ValueKind): string {
  switch (value.type) {
    case 'dynamic':
      return `-x -k -a ${singleQuoted(`(__jp_values ${value.kind})`)}`;
    case 'files':
      return '-F -r';
    case 'attach':
      return `-F -r -a ${singleQuoted('(__jp_attach_values)')}`;
    case 'dirs':
      return `-x -a ${singleQuoted('(__fish_complete_directories)')}`;
    case 'words':
      return `-x -k -a ${singleQuoted(value.words.join(' '))}`;
    case 'none':
      return '-x';
  }
}

/**
 * Fish: `__jp_cmd` walks the words typed as the bash and zsh scripts do, so a condition names the
 * command exactly (`jp c rm` and `jp attachment rm` differ); values come from `jp __complete`,
 * whose `value<TAB>description` lines are fish's own format.
 */
export function fishScript(root: CompletionNode): string {
  const skipped = valueOptions(root).flatMap((option) => option.flags);
  const stepCases = steps(flattenTree(root))
    .map((step) => `            case ${singleQuoted(`${step.from}|${step.word}`)}\n                set cmd ${singleQuoted(step.to)}`)
    .join('\n');
  const lines = [
    '# jp completion for fish: jp completion fish | source (or save it as ~/.config/fish/completions/jp.fish)',
    'function __jp_cmd',
    '    set -l tokens (commandline -opc)',
    "    set -l cmd ''",
    '    set -l skip 0',
    '    for word in $tokens[2..-1]',
    '        if test $skip = 1',
    '            set skip 0',
    '            continue',
    '        end',
    '        switch $word',
    `            case ${skipped.map(singleQuoted).join(' ')}`,
    '                set skip 1',
    '                continue',
    '        end',
    '        switch "$cmd|$word"',
    stepCases,
    '        end',
    '    end',
    '    echo $cmd',
    'end',
    'function __jp_at',
    '    set -l cmd (__jp_cmd)',
    '    test "$cmd" = "$argv[1]"',
    'end',
    'function __jp_values',
    '    set -l tokens (commandline -opc)',
    '    set -l scope',
    '    for i in (seq 2 (math (count $tokens) - 1))',
    '        switch $tokens[$i]',
    "            case -w --workspace",
    '                set -a scope --workspace $tokens[(math $i + 1)]',
    '            case --id',
    '                set -a scope --id $tokens[(math $i + 1)]',
    '        end',
    '    end',
    '    NODE_EXTRA_CA_CERTS= command jp __complete $scope $argv[1] 2>/dev/null',
    'end',
    '# jp://conversation/<id> URIs once the attachment typed starts with j; file names always',
    'function __jp_attach_values',
    "    string match -q -- 'j*' (commandline -ct); or return",
    '    __jp_values jp-uris',
    'end',
    'complete -c jp -f',
  ];
  for (const node of flattenTree(root)) {
    const here = singleQuoted(`__jp_at ${JSON.stringify(pathKey(node))}`);
    for (const child of node.children) {
      lines.push(`complete -c jp -n ${here} -a ${singleQuoted(child.names.join(' '))} -d ${singleQuoted(child.description.split('\n')[0]!.slice(0, 80))}`);
    }
    if (node.children.length === 0 && node.argument.type !== 'none') lines.push(`complete -c jp -n ${here} ${valueArguments(node.argument)}`);
    for (const option of node.options) {
      const flags = option.flags.map((flag) => (flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`)).join(' ');
      const condition = node === root ? '' : `-n ${here} `;
      const value = option.value === undefined ? '' : ` ${valueArguments(option.value)}`;
      lines.push(`complete -c jp ${condition}${flags} -d ${singleQuoted(option.description.slice(0, 80))}${value}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
