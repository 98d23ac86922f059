import { optionValueCases, walkWords } from './bash-script.ts';
import { flattenTree, type CompletionNode } from './completion-spec.ts';
import { kindWord, optionsAfter, pathKey, singleQuoted } from './script-words.ts';

/** `name:description` items as `_describe` takes them (a colon in the name is escaped). */
function describedItems(items: Array<{ name: string; description: string }>): string {
  return items.map((item) => singleQuoted(`${item.name.replace(/:/g, '\\:')}:${item.description.split('\n')[0]!.slice(0, 100)}`)).join(' ');
}

function commandCases(root: CompletionNode): string {
  return flattenTree(root)
    .map((node) => {
      const subs = describedItems(node.children.flatMap((child) => child.names.map((name) => ({ name, description: child.description }))));
      const opts = describedItems(optionsAfter(node, root).flatMap((option) => option.flags.map((name) => ({ name, description: option.description }))));
      return `    ${JSON.stringify(pathKey(node))}) jp_subs=(${subs}); jp_opts=(${opts}); jp_arg=${JSON.stringify(kindWord(node.argument))} ;;`;
    })
    .join('\n');
}

/**
 * Zsh: a native completion function (no bashcompinit), so subcommands and options are offered
 * with their descriptions and values from `jp __complete` with theirs. It works both as a file
 * `_jp` in `$fpath` and when evaluated after `compinit`.
 */
export function zshScript(root: CompletionNode): string {
  return `#compdef jp
# jp completion for zsh: eval "$(jp completion zsh)" in ~/.zshrc, or save it as _jp in a directory of $fpath
_jp_values() {
  local jp_line jp_value jp_show
  local -a jp_values jp_shown jp_prefixes jp_prefixes_shown
  for jp_line in "\${(@f)$(NODE_EXTRA_CA_CERTS= command jp __complete "\${jp_scope[@]}" "$1" 2>/dev/null)}"; do
    [[ -z $jp_line ]] && continue
    jp_value="\${jp_line%%$'\\t'*}"
    jp_show="$jp_value"
    [[ $jp_line == *$'\\t'* ]] && jp_show="$jp_value  -- \${jp_line#*$'\\t'}"
    if [[ $jp_value == */ ]]; then
      jp_prefixes+=("$jp_value"); jp_prefixes_shown+=("$jp_show")
    else
      jp_values+=("$jp_value"); jp_shown+=("$jp_show")
    fi
  done
  (( \${#jp_values} )) && compadd -l -d jp_shown -a jp_values
  (( \${#jp_prefixes} )) && compadd -S '' -l -d jp_prefixes_shown -a jp_prefixes
}
_jp_kind() {
  case "$1" in
    files) _files ;;
    dirs) _files -/ ;;
    attach) if [[ $jp_cur == jp:* || ( -n $jp_cur && jp:// == $jp_cur* ) ]]; then _jp_values jp-uris; else _files; fi ;;
    words:*) compadd -- \${=\${1#words:}} ;;
    none) ;;
    *) _jp_values "$1" ;;
  esac
}
_jp() {
  local jp_cur="\${words[CURRENT]}" jp_prev="\${words[CURRENT-1]}" jp_cmd="" jp_word jp_i jp_kind="" jp_arg=""
  local -a jp_scope jp_subs jp_opts
${walkWords(root, (index) => `\${words[${index}]}`, '2', 'CURRENT')}
  case "$jp_prev" in
${optionValueCases(root)}
  esac
  if [[ -n $jp_kind ]]; then _jp_kind "$jp_kind"; return; fi
  case "$jp_cmd" in
${commandCases(root)}
  esac
  if [[ $jp_cur == -* ]]; then
    _describe -t options 'jp option' jp_opts
  elif (( \${#jp_subs} )); then
    _describe -t commands 'jp command' jp_subs
  else
    _jp_kind "$jp_arg"
  fi
}
if [[ "\${funcstack[1]}" == _jp ]]; then
  _jp "$@"
else
  (( \${+functions[compdef]} )) || { autoload -Uz compinit && compinit -i; }
  compdef _jp jp
fi
`;
}
