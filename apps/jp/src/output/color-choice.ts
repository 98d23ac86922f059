/** What decides colour for one output stream. */
export interface ColorInputs {
  /** Whether the stream is a terminal. */
  isTTY: boolean | undefined;
  /** `--no-color` was given (false) or not (true). */
  color: boolean;
  format: 'text' | 'json';
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * Whether jp colours what it writes to one stream (RFD 016). In order:
 * 1. `-F json` never: JSON is for programs.
 * 2. `--no-color` never: the flag typed for this run outranks the environment.
 * 3. `FORCE_COLOR` set to anything but `0` or `false`: always, even into a pipe (as Node, chalk
 *    and gh's CLICOLOR_FORCE); `0` or `false` turns colour off.
 * 4. `NO_COLOR` set to a non-empty value (no-color.org): never.
 * 5. Otherwise only when the stream is a terminal that is not `TERM=dumb`.
 * Decided per stream: `jp … | less` keeps colour in its errors on the terminal, not in the pipe.
 */
export function colorEnabled(inputs: ColorInputs): boolean {
  if (inputs.format === 'json' || !inputs.color) return false;
  const force = inputs.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (inputs.env.NO_COLOR !== undefined && inputs.env.NO_COLOR !== '') return false;
  return inputs.isTTY === true && inputs.env.TERM !== 'dumb';
}
