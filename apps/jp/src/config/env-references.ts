/**
 * `${NAME}` references to jp's environment in configuration values (RFD 001, secrets). A value is stored as
 * written and expanded only when it is used, so a configuration can name a secret without holding
 * it. `$${` writes a literal `${`; any other `$` is itself.
 */

/** An environment variable's name as a reference may spell it. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

type Piece = { literal: string } | { variable: string };

/** The value cut into literal text and references, or a description of its first bad `${`. */
function pieces(value: string): Piece[] | { error: string } {
  const out: Piece[] = [];
  let literal = '';
  let i = 0;
  while (i < value.length) {
    if (value.startsWith('$${', i)) {
      literal += '${';
      i += 3;
    } else if (value.startsWith('${', i)) {
      const end = value.indexOf('}', i + 2);
      const name = end === -1 ? undefined : value.slice(i + 2, end);
      if (name === undefined || !ENV_NAME.test(name)) {
        return { error: `"${value.slice(i, end === -1 ? undefined : end + 1)}" is not a reference: write \${NAME} with letters, digits and _, or $\${ for a literal \${` };
      }
      if (literal !== '') out.push({ literal });
      literal = '';
      out.push({ variable: name });
      i = end + 1;
    } else {
      literal += value[i];
      i += 1;
    }
  }
  if (literal !== '') out.push({ literal });
  return out;
}

/** Why the value's references are malformed, or `undefined` when they are fine. */
export function referenceError(value: string): string | undefined {
  const parsed = pieces(value);
  return 'error' in parsed ? parsed.error : undefined;
}

/** True when the value is one or more `${NAME}` references and nothing else: it names secrets but holds none. */
export function isReferenceOnly(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const parsed = pieces(value);
  return !('error' in parsed) && parsed.length > 0 && parsed.every((piece) => 'variable' in piece);
}

/**
 * The value with every `${NAME}` replaced by `lookup(NAME)`. `lookup` throws for a variable that
 * is not set, so the error can name where the reference was written. The value is assumed valid
 * (the config schema checks it with `referenceError`).
 */
export function expandReferences(value: string, lookup: (name: string) => string): string {
  const parsed = pieces(value);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.map((piece) => ('variable' in piece ? lookup(piece.variable) : piece.literal)).join('');
}
