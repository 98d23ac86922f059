import { JpError } from '@jp/core';
import { parse } from 'shell-quote';

/** Where the editor was named: shown in errors so the user knows which setting to fix. */
export interface EditorChoice {
  value: string;
  source: '$VISUAL' | '$EDITOR' | 'editor.command' | 'the default';
}

/** `$VISUAL`, then `$EDITOR`, then the config key, then `vi`, as git picks its editor. */
export function chooseEditor(env: NodeJS.ProcessEnv, configured: string | undefined): EditorChoice {
  if (env.VISUAL?.trim()) return { value: env.VISUAL, source: '$VISUAL' };
  if (env.EDITOR?.trim()) return { value: env.EDITOR, source: '$EDITOR' };
  if (configured?.trim()) return { value: configured, source: 'editor.command' };
  return { value: 'vi', source: 'the default' };
}

/**
 * The editor's program and arguments. A value may carry arguments and quotes (`code --wait`,
 * `"/opt/My Editor/bin/ed" -n`) and `$VAR`s, read as a shell would read them; it is run without a
 * shell, so a value with pipes, `;` or redirections is refused rather than half-obeyed.
 */
export function editorArgv(choice: EditorChoice, env: NodeJS.ProcessEnv): string[] {
  const words = parse(choice.value, (name) => env[name] ?? '');
  const argv: string[] = [];
  for (const word of words) {
    if (typeof word !== 'string') {
      throw new JpError(`the editor in ${choice.source} (${choice.value}) has shell syntax jp does not run; set it to a program and its arguments`, { code: 'editor_invalid' });
    }
    argv.push(word);
  }
  if (argv.length === 0 || argv[0] === '') {
    throw new JpError(`the editor in ${choice.source} is empty; set $VISUAL or $EDITOR to an editor such as "vi" or "code --wait"`, { code: 'editor_invalid' });
  }
  return argv;
}
