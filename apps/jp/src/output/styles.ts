import { createColors } from 'picocolors';

/**
 * The styles jp uses, by meaning rather than by colour, so every command paints the same thing the
 * same way. Applied only to text already made visible (terminal-text.ts): the only escape
 * sequences jp writes are the SGR codes picocolors emits for these.
 */
export interface Styles {
  /** Metadata a reader may skip: ids, timestamps, sizes, digests, hints. */
  dim(text: string): string;
  /** Headings: a conversation, a turn, a declaration. */
  heading(text: string): string;
  /** Who speaks in a conversation: `user:`, `assistant:`. */
  role(text: string): string;
  /** A URI or resource header. */
  resource(text: string): string;
  /** What a search matched, inside the line shown. */
  match(text: string): string;
  good(text: string): string;
  caution(text: string): string;
  bad(text: string): string;
  /** The `jp:` of an error. */
  error(text: string): string;
  /** The `jp: warning:` of a warning. */
  warning(text: string): string;
}

const plainText = (text: string) => text;

export const PLAIN: Styles = {
  dim: plainText,
  heading: plainText,
  role: plainText,
  resource: plainText,
  match: plainText,
  good: plainText,
  caution: plainText,
  bad: plainText,
  error: plainText,
  warning: plainText,
};

export function stylesFor(enabled: boolean): Styles {
  if (!enabled) return PLAIN;
  const c = createColors(true);
  return {
    dim: c.dim,
    heading: c.bold,
    role: (text) => c.bold(c.blue(text)),
    resource: c.cyan,
    match: (text) => c.bold(c.red(text)),
    good: c.green,
    caution: c.yellow,
    bad: c.red,
    error: (text) => c.bold(c.red(text)),
    warning: (text) => c.bold(c.yellow(text)),
  };
}
