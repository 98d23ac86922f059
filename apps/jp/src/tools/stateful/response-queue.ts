import type { ContentBlock } from '@jp/core';

interface Queued {
  content: ContentBlock[];
  isError: boolean;
  bytes: number;
}

/**
 * A protocol tool's responses between two replies (RFD 019), kept within `bufferBytes`: the
 * oldest go first when it is over (the newest always stays), and the next reply says how many
 * went. `take` merges what there is, in order, and empties the queue.
 */
export class ResponseQueue {
  private queue: Queued[] = [];
  private queuedBytes = 0;
  private dropped = { responses: 0, bytes: 0 };

  constructor(private readonly bufferBytes: number) {}

  push(content: ContentBlock[], isError: boolean): void {
    const bytes = Buffer.byteLength(JSON.stringify(content));
    this.queue.push({ content, isError, bytes });
    this.queuedBytes += bytes;
    while (this.queuedBytes > this.bufferBytes && this.queue.length > 1) {
      const old = this.queue.shift()!;
      this.queuedBytes -= old.bytes;
      this.dropped.responses += 1;
      this.dropped.bytes += old.bytes;
    }
  }

  /** A response dropped before it was queued (a line longer than the buffer): counted for the next reply. */
  drop(bytes: number): void {
    this.dropped.responses += 1;
    this.dropped.bytes += bytes;
  }

  /** Whether a reply would have something to say: responses, or some dropped. */
  get pending(): boolean {
    return this.queue.length > 0 || this.dropped.bytes > 0;
  }

  take(): { content: ContentBlock[]; isError: boolean } {
    const content: ContentBlock[] = [];
    let isError = false;
    if (this.dropped.bytes > 0) {
      const note = `(${this.dropped.responses} earlier responses, ${this.dropped.bytes} bytes, were dropped: the output went beyond the ${this.bufferBytes}-byte buffer)`;
      content.push({ type: 'text', text: note });
    }
    for (const queued of this.queue) {
      content.push(...queued.content);
      isError ||= queued.isError;
    }
    this.queue = [];
    this.queuedBytes = 0;
    this.dropped = { responses: 0, bytes: 0 };
    return { content, isError };
  }
}
