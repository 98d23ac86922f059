import { AttachmentError } from '@jp/core';
import { parse, type ParseEntry } from 'shell-quote';

const WRAP = 'wrap it in a script';

function refuse(input: string, what: string, hint = WRAP): AttachmentError {
  return new AttachmentError(input, `${input}: cmd: runs one program without a shell; ${what} is not supported — ${hint}`, {
    code: 'cmd_shell_syntax',
  });
}

interface LineScan {
  /** What shell-quote would silently mend (an unclosed quote, a trailing backslash, a newline) and what to do. */
  problem?: { what: string; hint: string } | undefined;
  /** Whether an unquoted, unescaped `*` or `?` occurs (shell-quote also flags an escaped one). */
  glob: boolean;
}

/**
 * Checks a command line for what shell-quote would silently mend: an unclosed `'`, `"` or `$'`,
 * a trailing backslash, or an unquoted newline (a command separator in a shell). Scanning stops
 * at a `#` that starts a word: the comment is refused on its own.
 */
function scanLine(line: string): LineScan {
  let quote: "'" | '"' | "$'" | undefined;
  let glob = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (quote === '"' || quote === "$'") {
      if (c === '\\') i++;
      else if (c === quote.at(-1)) quote = undefined;
    } else if (c === '\\') {
      if (i === line.length - 1) return { problem: { what: 'a trailing backslash', hint: 'remove it, or write \\\\ for a backslash' }, glob };
      i++;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '$' && line[i + 1] === "'") {
      quote = "$'";
      i++;
    } else if (c === '\n' || c === '\r') {
      return { problem: { what: 'a newline', hint: 'quote it, or put several commands in a script' }, glob };
    } else if (c === '*' || c === '?') {
      glob = true;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) {
      break;
    }
  }
  return { problem: quote === undefined ? undefined : { what: `an unclosed ${quote}`, hint: 'close the quote' }, glob };
}

/** Variables are not expanded: `$NAME` reaches the program as written (`${NAME}` as `$NAME`). */
function literalVariable(name: string): string {
  return /^(\w+|[*@#?$!-])?$/.test(name) ? `$${name}` : `\${${name}}`;
}

function describeEntry(entry: Exclude<ParseEntry, string>): { what: string; hint?: string } {
  if ('comment' in entry) return { what: '`#` (a comment)', hint: 'quote it to pass it to the program' };
  if (entry.op === 'glob') return { what: `the glob \`${entry.pattern}\``, hint: 'quote it to pass it as is, or wrap it in a script' };
  return { what: `\`${entry.op}\`` };
}

/**
 * Splits the command line of the `cmd:` form into words the way a shell would (quotes, escapes,
 * `$'…'`), with shell-quote, and refuses everything that needs a shell: operators (`|`, `>`, `&&`,
 * `;`, …), globs, comments. Variables are not expanded. `input` names the attachment in errors.
 */
export function parseCommandLine(line: string, input: string): string[] {
  const { problem, glob } = scanLine(line);
  if (problem !== undefined) {
    throw new AttachmentError(input, `${input}: ${problem.what} in the command line; ${problem.hint}`, { code: 'cmd_syntax' });
  }
  let entries: ParseEntry[];
  try {
    entries = parse(line, literalVariable) as ParseEntry[];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AttachmentError(input, `${input}: ${reason}; quote the \`$\` to pass it as is`, { code: 'cmd_syntax', cause: error });
  }
  const words: string[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') {
      words.push(entry);
      continue;
    }
    // shell-quote marks an escaped `\*` a glob too; without a real one, the pattern is the literal word.
    if ('op' in entry && entry.op === 'glob' && !glob) {
      words.push(entry.pattern);
      continue;
    }
    const { what, hint } = describeEntry(entry);
    throw refuse(input, what, hint);
  }
  return words;
}
