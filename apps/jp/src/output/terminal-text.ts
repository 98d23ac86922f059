/**
 * Text made safe for a terminal. jp prints text it does not control — answers, reasoning, titles,
 * file and resource names, what servers and tools said — and a terminal acts on control characters:
 * ESC and the C1 controls start sequences that can write the clipboard (OSC 52), plant links
 * (OSC 8), clear the screen or retitle the window; CR, BS and friends overwrite what was shown.
 *
 * Every such character is shown instead of sent, as the escape a programmer would write for it:
 * C0 controls except `\n` and `\t`, DEL and the C1 controls as `\xNN` (`\x1b`, `\x9b`), and the
 * bidi embedding, override and isolate controls, which reorder how a line reads, as `\uNNNN`
 * (`\u202e`). One scheme covers all of them, which caret notation and `␛`-style pictures do not,
 * and ESC stays distinct from CSI (gh's `^[` is both). The mapping is per code point, with no state,
 * so text streamed in pieces is safe however it is split: no piece can finish a sequence another
 * started. jp's own styling, if it ever has some, is added after this, never passed through it.
 */

/** What a terminal would act on: C0 but `\t` and `\n`, DEL, C1, and the explicit bidi controls. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** What JSON.stringify leaves raw that a terminal would act on (it escapes C0 itself). */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const hex = (code: number, width: number) => code.toString(16).padStart(width, '0');

function shown(character: string): string {
  const code = character.charCodeAt(0);
  return code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
}

/** `text` with every character a terminal would act on written visibly; other text is unchanged. */
export function visibleText(text: string): string {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text) ? text.replace(UNSAFE, shown) : text;
}

/** What `visibleName` writes besides `visibleText`: the line breaks and tabs a name must not carry onto the screen. */
const LINE_CONTROLS = /[\t\n]/g;

/**
 * A name (a file name, a completion candidate) on one line: `visibleText`, with `\t` and `\n`
 * written as `\x09` and `\x0a` too. `fromVisibleName` turns it back.
 */
export function visibleName(text: string): string {
  return visibleText(text).replace(LINE_CONTROLS, shown);
}

/** Escapes `visibleName` writes: `\xNN` of C0, DEL and C1, `\uNNNN` of the bidi controls. */
const SHOWN_FORM = /\\x([0-9a-f]{2})|\\u(202[a-e]|206[6-9])/g;

/**
 * The text a visible name stands for, so a person can type what they were shown: each `\xNN` of a
 * control character and each `\uNNNN` of a bidi control back to the character. Other backslashes
 * stay as they are.
 */
export function fromVisibleName(text: string): string {
  return text.replace(SHOWN_FORM, (form, byte: string | undefined, bidi: string | undefined) => {
    const code = parseInt(byte ?? bidi!, 16);
    const character = String.fromCharCode(code);
    return bidi !== undefined || visibleName(character) !== character ? character : form;
  });
}

/**
 * `JSON.stringify(value)` with DEL, C1 and bidi controls written as `\u` escapes: the same JSON
 * value, exactly the same text once parsed, and nothing a terminal would act on when printed.
 * `indent` lays it out over lines, as `JSON.stringify`'s third argument does.
 */
export function terminalSafeJson(value: unknown, indent?: number): string {
  const json = JSON.stringify(value, undefined, indent) ?? 'null';
  return json.replace(UNSAFE_IN_JSON, (character) => `\\u${hex(character.charCodeAt(0), 4)}`);
}
