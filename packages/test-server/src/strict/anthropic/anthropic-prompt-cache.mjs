// A small model of Anthropic prompt caching, enough to check a client's cache accounting:
//  - the prompt renders as tools, then system, then messages; a breakpoint (cache_control on a block,
//    or the top-level automatic one on the last block) caches the prefix up to and including it;
//  - a request reads the longest prefix written before, found at a breakpoint or up to 20 blocks
//    before one; prefixes shorter than the model's minimum are not written;
//  - the thinking configuration and effort are part of the messages' prefix.
// https://platform.claude.com/docs/en/build-with-claude/prompt-caching,
// https://platform.claude.com/docs/en/build-with-claude/thinking#thinking-and-prompt-caching.
// Tokens are estimated as ceil(chars / 4) of each block's canonical JSON; TTLs are not modelled.
/** @import { AnthropicModel } from './anthropic-models.mjs' */
import { canonicalJson, estimateTokens, sha256 } from '../canonical-json.mjs';
import { blocksOf } from './anthropic-content-rules.mjs';

/**
 * @typedef {object} Segment
 * @property {string} key  rolling hash of the prefix ending with this block
 * @property {number} tokens  tokens of the prefix ending with this block
 * @property {boolean} breakpoint
 */

/**
 * The request as a list of cacheable blocks with rolling prefix hashes.
 * @param {any} body
 * @returns {{ segments: Segment[], total: number }}
 */
export function promptSegments(body) {
  /** @type {{ value: unknown, breakpoint: boolean }[]} */
  const raw = [];
  for (const tool of Array.isArray(body.tools) ? body.tools : []) raw.push({ value: { tool }, breakpoint: Boolean(tool?.cache_control) });
  const system = typeof body.system === 'string' ? (body.system === '' ? [] : [{ type: 'text', text: body.system }]) : (body.system ?? []);
  for (const block of system) raw.push({ value: { system: block }, breakpoint: Boolean(block?.cache_control) });
  // Changing thinking or effort starts the messages' cache over.
  const config = canonicalJson({ model: body.model, thinking: body.thinking?.type ?? null, budget: body.thinking?.budget_tokens ?? null, effort: body.output_config?.effort ?? null });
  for (const [i, message] of (body.messages ?? []).entries()) {
    for (const [j, block] of blocksOf(message?.content).entries()) {
      raw.push({ value: { config, i, role: message.role, block }, breakpoint: Boolean(block?.cache_control) });
    }
  }
  if (body.cache_control && raw.length > 0) /** @type {{ breakpoint: boolean }} */ (raw.at(-1)).breakpoint = true;
  let key = sha256(String(body.model));
  let tokens = 0;
  const segments = raw.map(({ value, breakpoint }) => {
    key = sha256(`${key}\u0000${canonicalJson(value)}`);
    tokens += estimateTokens(value);
    return { key, tokens, breakpoint };
  });
  return { segments, total: tokens };
}

/** A per-server cache: prefixes written so far. */
export class PromptCache {
  /** @type {Map<string, number>} */
  #written = new Map();

  /**
   * Usage for one request, writing the prefixes it caches.
   * @param {any} body
   * @param {AnthropicModel} row
   * @returns {{ input_tokens: number, cache_read_input_tokens: number, cache_creation_input_tokens: number }}
   */
  account(body, row) {
    const { segments, total } = promptSegments(body);
    let read = 0;
    segments.forEach((segment, index) => {
      if (!segment.breakpoint) return;
      // The lookback: a hit at the breakpoint or on one of the 20 blocks before it.
      for (let back = index; back >= 0 && back >= index - 20; back -= 1) {
        const candidate = /** @type {Segment} */ (segments[back]);
        if (this.#written.has(candidate.key)) {
          read = Math.max(read, candidate.tokens);
          break;
        }
      }
    });
    let written = read;
    for (const segment of segments) {
      if (!segment.breakpoint || segment.tokens < row.cacheMin || segment.tokens <= read) continue;
      this.#written.set(segment.key, segment.tokens);
      written = Math.max(written, segment.tokens);
    }
    return { input_tokens: total - written, cache_read_input_tokens: read, cache_creation_input_tokens: written - read };
  }
}
