/** A stream a status line is drawn on: stderr, or a stand-in in tests. */
export interface StatusStream {
  write(text: string): unknown;
  isTTY?: boolean | undefined;
  columns?: number | undefined;
}

/** The width assumed when a terminal reports none: some CI ptys and `stty cols 0` say 0 columns. */
const UNKNOWN_COLUMNS = 80;

/**
 * `line` cut to fit a terminal `columns` wide, one column short of it so the cursor never wraps.
 * A terminal reporting 0 or no columns has an unknown width, taken as 80: cutting to the reported
 * width would leave nothing of the line.
 */
export function fitLine(line: string, columns: number | undefined): string {
  const width = Math.max(20, (columns !== undefined && columns > 0 ? columns : UNKNOWN_COLUMNS) - 1);
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/** Every status line made, so a line written from outside Output can erase them first. */
const LINES = new Set<StatusLine>();

/** Erases whatever a status line has drawn: for text written around Output (stray-output.ts). */
export function clearStatusLines(): void {
  for (const line of LINES) line.clear();
}

/**
 * The one line at the bottom of a terminal that jp redraws in place — resolution progress, retry
 * notices, the spinner while the model is asked — and erases before anything else is written
 * there. `Output` owns the one of stderr and everything that draws takes it from there, so whoever
 * draws next replaces what the last one drew and one `clear` leaves the line empty. Callers make
 * untrusted text visible before drawing it.
 */
export class StatusLine {
  private drawn = false;

  constructor(private readonly stream: StatusStream) {
    LINES.add(this);
  }

  /** Whether the stream is a terminal: nothing may be drawn on anything else. */
  get isTerminal(): boolean {
    return this.stream.isTTY === true;
  }

  draw(line: string): void {
    this.stream.write(`\r\x1b[2K${fitLine(line, this.stream.columns)}`);
    this.drawn = true;
  }

  clear(): void {
    if (this.drawn) this.stream.write('\r\x1b[2K');
    this.drawn = false;
  }
}
