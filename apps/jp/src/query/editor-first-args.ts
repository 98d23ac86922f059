/**
 * What `jp q` asks when the editor-first path may take it (`editor-first.ts`): no text, and only
 * options whose effect on the template is read without building the session.
 */
export interface EditorFirstQuery {
  new: boolean;
  id: string | undefined;
  model: string | undefined;
}

const VALUED: Readonly<Record<string, 'id' | 'model'>> = { '--id': 'id', '--model': 'model', '-m': 'model' };

/**
 * `jp q|query [-n|--new] [--id ID] [-m|--model ID] [-e|--edit]` with no text, each option at most
 * once, on a terminal (stdin and stdout; asked last, since reading `process.stdin` sets it up).
 * Anything else — text, another option or a global one, `--new` with `--id`, a value that looks
 * like an option — is `undefined`: the CLI takes it as always, with its own messages.
 */
export function editorFirstQuery(args: readonly string[], atTerminal: () => boolean): EditorFirstQuery | undefined {
  if (args[0] !== 'q' && args[0] !== 'query') return undefined;
  const asked: EditorFirstQuery = { new: false, id: undefined, model: undefined };
  const seen = new Set<string>();
  for (let at = 1; at < args.length; at++) {
    const arg = args[at]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const key = name === '-n' || name === '--new' ? 'new' : name === '-e' || name === '--edit' ? 'edit' : VALUED[name];
    if (key === undefined || seen.has(key)) return undefined;
    seen.add(key);
    if (key === 'new' || key === 'edit') {
      if (eq !== -1) return undefined;
      if (key === 'new') asked.new = true;
      continue;
    }
    const value = eq === -1 ? args[++at] : arg.slice(eq + 1);
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    asked[key] = value;
  }
  return (asked.new && asked.id !== undefined) || !atTerminal() ? undefined : asked;
}
