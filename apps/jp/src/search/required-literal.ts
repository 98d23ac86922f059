/** Escapes that stand for one literal character when written before punctuation (`\.` is `.`). */
const PUNCTUATION = /[^\p{L}\p{N}\s]/u;

/** The length of the escape at `at` (`\\d`, `\\u{1F600}`, `\\x41`, `\\p{L}`, `\\k<name>`, `\\12`). */
function escapeLength(source: string, at: number): number {
  const rest = source.slice(at + 1);
  const sized = /^(?:u\{[^}]*\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[a-zA-Z]|[pP]\{[^}]*\}|k<[^>]*>|\d+)/.exec(rest);
  return 1 + (sized?.[0].length ?? Math.min(1, rest.length));
}

/** Where a group or a class that starts at `at` ends (the index after it), honouring escapes and nesting. */
function skipGroup(source: string, at: number): number {
  let depth = 0;
  for (let i = at; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') i++;
    else if (char === '[') i = skipClass(source, i) - 1;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return i + 1;
  }
  return source.length;
}

function skipClass(source: string, at: number): number {
  for (let i = at + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i + 1;
  }
  return source.length;
}

/** The quantifier at `at`, if any: its length and whether it allows zero repetitions. */
function quantifierAt(source: string, at: number): { length: number; optional: boolean } | undefined {
  const char = source[at];
  let length: number;
  let optional: boolean;
  if (char === '*' || char === '?') [length, optional] = [1, true];
  else if (char === '+') [length, optional] = [1, false];
  else if (char === '{') {
    const braces = /^\{(\d+)(,\d*)?\}/.exec(source.slice(at));
    if (braces === null) return undefined;
    [length, optional] = [braces[0].length, Number(braces[1]) === 0];
  } else return undefined;
  // A lazy or possessive mark after it changes nothing here.
  if (source[at + length] === '?') length++;
  return { length, optional };
}

/**
 * The longest run of characters every match of a JavaScript regular expression (`u` flag, case
 * sensitive) must contain, or `undefined` when none is sure. Conservative: an alternation anywhere
 * gives none, and groups, classes, anchors and escapes that stand for more than one character end
 * a run. A searcher looks for it in raw bytes first and runs the expression only where it is.
 */
export function requiredLiteral(source: string): string | undefined {
  // `|` outside classes and escapes: the parts need not share anything.
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '[') i = skipClass(source, i) - 1;
    else if (source[i] === '|') return undefined;
  }
  const runs: string[] = [];
  let run = '';
  const end = () => {
    if (run !== '') runs.push(run);
    run = '';
  };
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    let literal: string | undefined;
    let next: number;
    if (char === '\\') {
      const escaped = source[i + 1] ?? '';
      literal = PUNCTUATION.test(escaped) ? escaped : undefined;
      next = i + escapeLength(source, i);
    } else if (char === '[') {
      next = skipClass(source, i);
    } else if (char === '(') {
      next = skipGroup(source, i);
    } else if ('.^$'.includes(char)) {
      next = i + 1;
    } else if ('*+?{'.includes(char) && quantifierAt(source, i) !== undefined) {
      // A quantifier with nothing literal before it (after a group or a class).
      next = i + quantifierAt(source, i)!.length;
    } else {
      // A whole code point: a character outside the BMP is two UTF-16 units.
      literal = String.fromCodePoint(source.codePointAt(i)!);
      next = i + literal.length;
    }
    const quantifier = quantifierAt(source, next);
    if (quantifier !== undefined) next += quantifier.length;
    if (literal === undefined) end();
    else if (quantifier === undefined) run += literal;
    else if (quantifier.optional) end();
    else {
      // `a+`, `a{2,}`: one `a` is there for sure, and nothing after it is next to it for sure.
      run += literal;
      end();
    }
    i = next;
  }
  end();
  return runs.reduce<string | undefined>((best, candidate) => (best === undefined || candidate.length > best.length ? candidate : best), undefined);
}
