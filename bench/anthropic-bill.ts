// Anthropic's prompt cache, billed request by request: the model both token-economy.ts and
// compaction-bill.ts use. Tokens ≈ bytes / 4 of the request (system and tools as one block, then
// each message block; cache markers removed). A breakpoint's prefix stays cached for `ttlSecs`
// after it was last written or read. Each request reads the longest breakpoint prefix still cached
// (0.1×), writes the rest up to its last breakpoint (1.25×, the 5-minute write price) and pays the
// tail after it at 1×. Output tokens cost 5× (Sonnet 4.5: $15 against $3 per million input tokens).
// Costs are input-token equivalents; dollars at $3 per million.
import { createHash } from 'node:crypto';
import type { MessageCreateParamsStreaming } from '../packages/providers/src/anthropic/anthropic-types.ts';

export const OUTPUT_PRICE = 5;

export interface Sent {
  /** When the request is made, in simulated seconds. */
  at: number;
  request: MessageCreateParamsStreaming;
  /** Bytes the model wrote in answer (billed as output tokens). */
  outputBytes?: number;
}

export interface Bill {
  read: number;
  write: number;
  uncached: number;
  output: number;
  cost: number;
  perTurn: number[];
}

/** Blocks in wire order (system and tools first, as one), each with whether it carries a breakpoint. */
export function blocks(request: MessageCreateParamsStreaming): Array<{ text: string; breakpoint: boolean; newest: boolean }> {
  const strip = (value: unknown) => JSON.stringify(value, (key, v: unknown) => (key === 'cache_control' ? undefined : v));
  const head = { system: request.system, tools: request.tools };
  const out = [{ text: strip(head), breakpoint: JSON.stringify(head).includes('cache_control'), newest: false }];
  const last = request.messages.length - 1;
  request.messages.forEach((message, index) => {
    const content = Array.isArray(message.content) ? message.content : [{ type: 'text', text: message.content }];
    for (const block of content) out.push({ text: strip({ role: message.role, block }), breakpoint: 'cache_control' in (block as object), newest: index === last });
  });
  return out;
}

/** The request's size in tokens (bytes / 4 of its blocks), as the bill counts it. */
export function requestTokens(request: MessageCreateParamsStreaming): number {
  return blocks(request).reduce((sum, block) => sum + Buffer.byteLength(block.text), 0) / 4;
}

/** One cache, charged request by request; `clone` forks it (a counterfactual from the same state). */
export class AnthropicCache {
  private readonly expiry: Map<string, number>;
  private lastAt = Number.NEGATIVE_INFINITY;
  readonly total: Bill = { read: 0, write: 0, uncached: 0, output: 0, cost: 0, perTurn: [] };

  constructor(
    private readonly ttlSecs: number,
    from?: AnthropicCache,
  ) {
    this.expiry = new Map(from?.expiry);
    if (from !== undefined) this.lastAt = from.lastAt;
  }

  clone(): AnthropicCache {
    return new AnthropicCache(this.ttlSecs, this);
  }

  /**
   * Bills one request and returns its cost. With `forgiving`, an ideal cache no provider has:
   * while warm, everything before the newest user message counts as read even where it changed.
   */
  charge({ at, request, outputBytes = 0 }: Sent, forgiving = false): number {
    const list = blocks(request);
    const hash = createHash('sha256');
    let bytes = 0;
    let history = 0; // bytes before the newest message
    const points: Array<{ key: string; bytes: number }> = [];
    for (const block of list) {
      hash.update(block.text);
      bytes += Buffer.byteLength(block.text);
      if (!block.newest) history = bytes;
      if (block.breakpoint) points.push({ key: hash.copy().digest('hex'), bytes });
    }
    let read = 0;
    for (const point of points) if ((this.expiry.get(point.key) ?? -1) >= at) read = Math.max(read, point.bytes);
    if (forgiving) read = at - this.lastAt <= this.ttlSecs ? history : 0;
    this.lastAt = at;
    const lastPoint = points.at(-1)?.bytes ?? 0;
    const write = Math.max(0, lastPoint - read);
    const uncached = bytes - Math.max(read, lastPoint);
    for (const point of points) this.expiry.set(point.key, at + this.ttlSecs);
    const tokens = (n: number) => n / 4;
    const cost = tokens(read) * 0.1 + tokens(write) * 1.25 + tokens(uncached) + tokens(outputBytes) * OUTPUT_PRICE;
    this.total.read += tokens(read);
    this.total.write += tokens(write);
    this.total.uncached += tokens(uncached);
    this.total.output += tokens(outputBytes);
    this.total.cost += cost;
    this.total.perTurn.push(cost);
    return cost;
  }
}

/** A whole session's bill. */
export function bill(requests: readonly Sent[], options: { ttlSecs: number; forgiving?: boolean }): Bill {
  const cache = new AnthropicCache(options.ttlSecs);
  for (const sent of requests) cache.charge(sent, options.forgiving === true);
  return cache.total;
}
