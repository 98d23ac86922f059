/*
 * Bracketed paste (xterm's mode 2004): with it on, the terminal wraps pasted text in
 * ESC [200~ … ESC [201~. readline would end the line at the paste's first newline, so the filter
 * stands between the terminal and readline: inside a paste it turns line breaks and tabs into
 * visible stand-ins (␤, ␉) that readline keeps on one line, and drops the markers. `restore`
 * turns them back when the line is submitted. A marker split across reads is held until it
 * completes.
 */

const START = '\u001b[200~';
const END = '\u001b[201~';
export const PASTED_NEWLINE = '\u2424';
export const PASTED_TAB = '\u2409';

/** Turns bracketed paste on (write it before reading a message) and off. */
export const BRACKETED_PASTE_ON = '\u001b[?2004h';
export const BRACKETED_PASTE_OFF = '\u001b[?2004l';

/** How many characters at the end of `text` could begin `marker`. */
function partialMarker(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length -= 1) {
    if (marker.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}

const pasted = (text: string) => text.replace(/\r\n|\r|\n/g, PASTED_NEWLINE).replace(/\t/g, PASTED_TAB);

export class PasteFilter {
  private pasting = false;
  private held = '';

  /** What readline should see of `chunk`. */
  push(chunk: string): string {
    let text = this.held + chunk;
    this.held = '';
    let out = '';
    for (;;) {
      const marker = this.pasting ? END : START;
      const at = text.indexOf(marker);
      if (at === -1) {
        const keep = partialMarker(text, marker);
        const body = text.slice(0, text.length - keep);
        this.held = text.slice(text.length - keep);
        return out + (this.pasting ? pasted(body) : body);
      }
      out += this.pasting ? pasted(text.slice(0, at)) : text.slice(0, at);
      text = text.slice(at + marker.length);
      this.pasting = !this.pasting;
    }
  }
}

/** The message as typed and pasted: the stand-ins back to line breaks and tabs. */
export function restorePasted(line: string): string {
  return line.replaceAll(PASTED_NEWLINE, '\n').replaceAll(PASTED_TAB, '\t');
}
