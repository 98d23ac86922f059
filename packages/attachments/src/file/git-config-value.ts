/**
 * The last value of `section.key` in one git config file's text, as git reads it: section and
 * key names ignore case, `#` and `;` start a comment outside quotes, `"…"` quotes, `\\`, `\"`,
 * `\n`, `\t` and `\b` are escapes, and a `\` at the end of a line continues the value on the
 * next. A key on the header's own line (`[core] excludesFile = x`) counts. `include` and
 * `includeIf` are not followed. `undefined` when the file does not set the key.
 *
 * Hand-written rather than a dependency: jp needs one key of one section, and the git-config
 * parsers on the registry are unmaintained or run `git` itself, which jp must not do unasked.
 */
export function gitConfigValue(text: string, section: string, key: string): string | undefined {
  const wantedSection = section.toLowerCase();
  const wantedKey = key.toLowerCase();
  let current = '';
  let found: string | undefined;
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index]!.trimStart();
    if (line.startsWith('[')) {
      const close = line.indexOf(']');
      if (close < 0) continue;
      const header = line.slice(1, close).trim();
      // `[core]`; a subsection (`[remote "origin"]`, or the old `[a.b]`) is another section.
      current = /^[A-Za-z0-9-]+$/.test(header) ? header.toLowerCase() : `${header.toLowerCase()}\u0000`;
      line = line.slice(close + 1).trimStart();
    }
    if (line === '' || line.startsWith('#') || line.startsWith(';') || current !== wantedSection) continue;
    const name = /^[A-Za-z][A-Za-z0-9-]*/.exec(line)?.[0];
    if (name === undefined || name.toLowerCase() !== wantedKey) continue;
    const rest = line.slice(name.length).trimStart();
    if (rest === '' || rest.startsWith('#') || rest.startsWith(';')) {
      found = 'true'; // a bare key is a boolean true
      continue;
    }
    if (!rest.startsWith('=')) continue;
    const parsed = parseValue(rest.slice(1), lines, index);
    found = parsed.value;
    index = parsed.lastLine;
  }
  return found;
}

const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\', '"': '"', n: '\n', t: '\t', b: '\b' };

/** A value from after its `=`, across continued lines; whitespace outside quotes is trimmed at both ends. */
function parseValue(start: string, lines: readonly string[], index: number): { value: string; lastLine: number } {
  let value = '';
  let quoted = false;
  // Unquoted whitespace is kept only when something follows it on the line.
  let pendingSpace = '';
  let text = start;
  let lastLine = index;
  for (;;) {
    let continued = false;
    for (let i = 0; i < text.length; i++) {
      const char = text[i]!;
      if (char === '\\') {
        if (i === text.length - 1) {
          continued = true;
          break;
        }
        value += pendingSpace + (ESCAPES[text[i + 1]!] ?? text[i + 1]!);
        pendingSpace = '';
        i += 1;
      } else if (char === '"') {
        value += pendingSpace;
        pendingSpace = '';
        quoted = !quoted;
      } else if (!quoted && (char === '#' || char === ';')) {
        break;
      } else if (!quoted && (char === ' ' || char === '\t')) {
        if (value !== '') pendingSpace += char;
      } else {
        value += pendingSpace + char;
        pendingSpace = '';
      }
    }
    if (!continued || lastLine + 1 >= lines.length) return { value, lastLine };
    lastLine += 1;
    text = lines[lastLine]!;
  }
}
