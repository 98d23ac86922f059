import { flattenTree, valueOptions, type CompletionNode } from './completion-spec.ts';
import { kindWord, optionsAfter, pathKey, steps } from './script-words.ts';

/** `case` patterns for a list of flags: `-m|--model`. */
const pattern = (flags: readonly string[]) => flags.join('|');

/**
 * The walk over the words typed before the cursor that bash and zsh share: it finds the command
 * (`jp_cmd`, canonical words), skips the value of every option taking one, and keeps `-w` and
 * `--id` (`jp_scope`) so that values are read from the workspace and conversation named.
 * Variables are prefixed `jp_`: zsh ties `path` to `$PATH`, and `words` is its own.
 */
export function walkWords(root: CompletionNode, word: (index: string) => string, first: string, end: string): string {
  const skipped = valueOptions(root).filter((option) => !option.flags.includes('--workspace') && !option.flags.includes('--id'));
  const stepCases = steps(flattenTree(root))
    .map((step) => `      ${JSON.stringify(`${step.from}|${step.word}`)}) jp_cmd=${JSON.stringify(step.to)} ;;`)
    .join('\n');
  return `  for ((jp_i = ${first}; jp_i < ${end}; jp_i++)); do
    jp_word="${word('jp_i')}"
    case "$jp_word" in
      -w|--workspace) jp_scope+=(--workspace "${word('jp_i + 1')}"); ((jp_i++)); continue ;;
      --id) jp_scope+=(--id "${word('jp_i + 1')}"); ((jp_i++)); continue ;;
      ${pattern(skipped.flatMap((option) => option.flags))}) ((jp_i++)); continue ;;
    esac
    case "$jp_cmd|$jp_word" in
${stepCases}
    esac
  done`;
}

/** `case "$jp_prev"` arms: what the value of each option completes to. */
export function optionValueCases(root: CompletionNode): string {
  return valueOptions(root)
    .map((option) => `    ${pattern(option.flags)}) jp_kind=${JSON.stringify(kindWord(option.value!))} ;;`)
    .join('\n');
}

/** `case "$jp_cmd"` arms: the subcommands, options and argument kind of each command. */
function commandCases(root: CompletionNode): string {
  return flattenTree(root)
    .map((node) => {
      const subs = node.children.flatMap((child) => child.names).join(' ');
      const opts = optionsAfter(node, root)
        .flatMap((option) => option.flags)
        .join(' ');
      return `    ${JSON.stringify(pathKey(node))}) jp_subs=${JSON.stringify(subs)}; jp_opts=${JSON.stringify(opts)}; jp_arg=${JSON.stringify(kindWord(node.argument))} ;;`;
    })
    .join('\n');
}

/**
 * Bash: static words (subcommands, options, choices) are in the script; conversations, models,
 * MCP servers and declared attachments come from `jp __complete` when Tab is pressed. With more
 * than one candidate, a listing (second Tab) shows each with its description, as bash has no
 * place for one otherwise; a single candidate is inserted alone.
 */
export function bashScript(root: CompletionNode): string {
  return `# jp completion for bash: eval "$(jp completion bash)"
_jp_values() {
  local jp_line jp_width=0 jp_n
  local -a jp_values=() jp_descs=()
  while IFS= read -r jp_line; do
    jp_values+=("\${jp_line%%$'\\t'*}")
    if [[ $jp_line == *$'\\t'* ]]; then jp_descs+=("\${jp_line#*$'\\t'}"); else jp_descs+=(""); fi
  done < <(NODE_EXTRA_CA_CERTS= command jp __complete "\${jp_scope[@]}" "$1" "$jp_cur" 2>/dev/null)
  if ((\${#jp_values[@]} == 1)); then
    printf -v jp_line '%q' "\${jp_values[0]}"
    COMPREPLY=("$jp_line")
    [[ $jp_line == */ ]] && compopt -o nospace 2>/dev/null
  elif ((\${#jp_values[@]} > 1)) && [[ \${COMP_TYPE:-9} != 9 ]]; then
    for jp_line in "\${jp_values[@]}"; do ((\${#jp_line} > jp_width)) && jp_width=\${#jp_line}; done
    for ((jp_n = 0; jp_n < \${#jp_values[@]}; jp_n++)); do
      if [[ -n \${jp_descs[jp_n]} ]]; then printf -v jp_line '%-*s  (%s)' "$jp_width" "\${jp_values[jp_n]}" "\${jp_descs[jp_n]}"; else jp_line=\${jp_values[jp_n]}; fi
      COMPREPLY+=("\${jp_line:0:\${COLUMNS:-80}-2}")
    done
  else
    COMPREPLY=("\${jp_values[@]}")
  fi
}
_jp_kind() {
  case "$1" in
    files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$jp_cur")) ;;
    dirs) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$jp_cur")) ;;
    attach)
      # bash splits words at ":": the whole word typed is read from the line, and the part before
      # its last ":" is taken off each jp:// URI offered.
      local jp_typed="\${COMP_LINE:0:COMP_POINT}" jp_line
      jp_typed="\${jp_typed##*[[:space:]]}"
      if [[ -n $jp_typed && ( jp:// == "$jp_typed"* || $jp_typed == jp:* ) ]]; then
        while IFS= read -r jp_line; do COMPREPLY+=("\${jp_line%%$'\\t'*}"); done < <(NODE_EXTRA_CA_CERTS= command jp __complete "\${jp_scope[@]}" jp-uris "$jp_typed" 2>/dev/null)
        local jp_head="\${jp_typed%"\${jp_typed##*:}"}"
        COMPREPLY=("\${COMPREPLY[@]#"$jp_head"}")
      fi
      if [[ $jp_typed != jp:* ]]; then compopt -o filenames 2>/dev/null; COMPREPLY+=($(compgen -f -- "$jp_cur")); fi ;;
    words:*) COMPREPLY=($(compgen -W "\${1#words:}" -- "$jp_cur")) ;;
    none) ;;
    *) _jp_values "$1" ;;
  esac
}
_jp() {
  local jp_cur="\${COMP_WORDS[COMP_CWORD]}" jp_prev="" jp_cmd="" jp_word jp_i jp_kind="" jp_subs="" jp_opts="" jp_arg=""
  local -a jp_scope=()
  COMPREPLY=()
  ((COMP_CWORD > 1)) && jp_prev="\${COMP_WORDS[COMP_CWORD - 1]}"
  # A word with ":" (jp://…) is split there by bash: the word before it is read from the line.
  local jp_typed="\${COMP_LINE:0:COMP_POINT}"
  jp_typed="\${jp_typed##*[[:space:]]}"
  if [[ $jp_typed == *:* ]]; then
    local jp_before="\${COMP_LINE:0:COMP_POINT - \${#jp_typed}}"
    jp_before="\${jp_before%"\${jp_before##*[![:space:]]}"}"
    jp_prev="\${jp_before##*[[:space:]]}"
  fi
${walkWords(root, (index) => `\${COMP_WORDS[${index}]}`, '1', 'COMP_CWORD')}
  case "$jp_prev" in
${optionValueCases(root)}
  esac
  if [[ -n $jp_kind ]]; then _jp_kind "$jp_kind"; return; fi
  case "$jp_cmd" in
${commandCases(root)}
  esac
  if [[ $jp_cur == -* ]]; then
    COMPREPLY=($(compgen -W "$jp_opts" -- "$jp_cur"))
  elif [[ -n $jp_subs ]]; then
    COMPREPLY=($(compgen -W "$jp_subs" -- "$jp_cur"))
  else
    _jp_kind "$jp_arg"
  fi
}
complete -F _jp jp
`;
}
