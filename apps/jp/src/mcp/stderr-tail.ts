/**
 * The end of a child's stderr, kept so an error can quote what the server said last. Only the last
 * `maxBytes` are kept: a chatty server costs nothing, and reading the stream keeps the child from
 * blocking on a full pipe.
 */
export class StderrTail {
  #text = '';

  constructor(private readonly maxBytes = 8192) {}

  push(chunk: Buffer | string): void {
    this.#text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (this.#text.length > this.maxBytes) this.#text = this.#text.slice(-this.maxBytes);
  }

  /** The last non-blank line, trimmed and bounded, or `undefined` when the server wrote nothing. */
  lastLine(maxLength = 200): string | undefined {
    const line = this.#text
      .split(/\r?\n/)
      .map((candidate) => candidate.trim())
      .filter((candidate) => candidate !== '')
      .at(-1);
    if (line === undefined) return undefined;
    return line.length > maxLength ? `${line.slice(0, maxLength - 3)}...` : line;
  }
}
