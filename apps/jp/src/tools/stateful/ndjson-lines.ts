/**
 * Splits a byte stream into lines (NDJSON). A line longer than `maxLineBytes` is never held in
 * memory whole: its bytes are counted in `droppedBytes` and it is skipped up to its newline, so a
 * tool that floods one endless line costs a bounded buffer. Lines are decoded as UTF-8 after
 * splitting, so a multi-byte character cut across chunks stays intact.
 */
export class NdjsonLines {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;
  /** Bytes of over-long lines thrown away; the caller reads and resets it. */
  droppedBytes = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** The complete lines in `chunk` (with what came before it), without their newlines. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) {
        this.keep(chunk.subarray(start));
        return lines;
      }
      this.keep(chunk.subarray(start, newline));
      if (this.skipping) this.skipping = false;
      else lines.push(this.take());
      this.pending = [];
      this.pendingBytes = 0;
      start = newline + 1;
    }
  }

  /** What is left when the stream ends: a last line without a newline, if any. */
  end(): string[] {
    if (this.skipping || this.pendingBytes === 0) {
      this.skipping = false;
      return [];
    }
    const last = this.take();
    this.pending = [];
    this.pendingBytes = 0;
    return [last];
  }

  private keep(part: Buffer): void {
    if (part.byteLength === 0) return;
    if (this.skipping) {
      this.droppedBytes += part.byteLength;
      return;
    }
    if (this.pendingBytes + part.byteLength > this.maxLineBytes) {
      this.droppedBytes += this.pendingBytes + part.byteLength;
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      return;
    }
    this.pending.push(Buffer.from(part));
    this.pendingBytes += part.byteLength;
  }

  private take(): string {
    return Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
  }
}
