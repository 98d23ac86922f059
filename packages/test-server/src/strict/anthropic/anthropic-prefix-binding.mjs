// The checks a replayed thinking block goes through (preserved-thinking#how-it-works,
// thinking-troubleshooting#error-thinking-block-signature):
//  - integrity, always: a signature this server did not issue is the plain "Invalid `signature`" 400;
//  - model: a block from a newer model than the requested one is dropped without an error;
//  - prefix and chain, on models that run the check: the prefix must be unchanged, and each block must
//    follow the block it recorded (blocks may be trimmed from the front, not removed from the middle
//    or moved). A failure is a 400, or with prefix_mismatch_behavior "drop_block" the failing block and
//    every later one are dropped and reported.
/** @import { AnthropicModel } from './anthropic-models.mjs' */
/** @import { Rejection } from './anthropic-config-rules.mjs' */
import { BETA } from './anthropic-betas.mjs';
import { blocksOf } from './anthropic-content-rules.mjs';
import { isThinking, prefixHashes } from './anthropic-prefix.mjs';
import { signatureHash, textHash, verifyThinking } from './anthropic-thinking-signature.mjs';

/** @typedef {{ type: 'thinking_dropped' | 'thinking_mismatch_allowed', path: string, reason: string }} InputTransformation */
/** @typedef {{ rejection?: Rejection, transformations: InputTransformation[], previousSignature: string | null }} BindingResult */

const REASONS = {
  system: ' The `system` prompt differs from when the block was created.',
  tools: ' The `tools` list differs from when the block was created.',
  messages: ' A message before the block differs from when the block was created.',
  chain: ' The thinking block before it is missing or out of order.',
};

/**
 * @param {object} input
 * @param {any} input.body
 * @param {AnthropicModel} input.row
 * @param {string} input.secret
 * @param {Set<string>} input.betas
 * @param {'new' | 'legacy'} input.account
 * @returns {BindingResult}
 */
export function checkThinkingBlocks({ body, row, secret, betas, account }) {
  /** @type {{ path: string, i: number, j: number, block: any, payload: any }[]} */
  const chain = [];
  for (const [i, message] of body.messages.entries()) {
    if (message?.role !== 'assistant') continue;
    for (const [j, block] of blocksOf(message.content).entries()) {
      if (!isThinking(block)) continue;
      const path = `messages.${i}.content.${j}`;
      if (block.type === 'redacted_thinking') return reject(`${path}: Invalid \`data\` in \`redacted_thinking\` block`);
      const payload = verifyThinking(secret, block.signature);
      if (!payload) return reject(`${path}: Invalid \`signature\` in \`thinking\` block`);
      if (!payload.omitted && textHash(typeof block.thinking === 'string' ? block.thinking : '') !== payload.text) {
        return reject(`${path}: \`thinking\` or \`redacted_thinking\` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.`);
      }
      chain.push({ path, i, j, block, payload });
    }
  }
  /** @type {InputTransformation[]} */
  const transformations = [];
  const dropped = new Set();
  // The model check applies on every account: a newer model's block is dropped, never an error.
  for (const entry of chain) {
    if (entry.payload.rank > row.rank) {
      dropped.add(entry);
      transformations.push({ type: 'thinking_dropped', path: entry.path, reason: 'model_binding_mismatch' });
    }
  }
  const behavior = body.thinking?.block_binding?.prefix_mismatch_behavior;
  // Enforced by default for accounts created since 2026-08-31; older accounts only when the field is set.
  const enforced = account === 'new' || (behavior !== undefined && behavior !== null);
  if (row.prefixCheck) {
    const failures = chain.map((entry, k) => ({ entry, reason: prefixFailure(body, entry, chain[k - 1]) }));
    const first = failures.findIndex((failure) => failure.reason !== undefined);
    if (first >= 0 && enforced && behavior !== 'drop_block') {
      const { entry, reason } = /** @type {{ entry: any, reason: keyof typeof REASONS }} */ (failures[first]);
      const header = betas.has(BETA.bindingControls)
        ? ''
        : ' That setting requires the `thinking-binding-controls-2026-08-01` value in the `anthropic-beta` header.';
      return reject(`${entry.path}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".${header}${REASONS[reason]}`);
    }
    if (first >= 0 && enforced) {
      for (const { entry } of failures.slice(first)) {
        if (dropped.has(entry)) continue;
        dropped.add(entry);
        transformations.push({ type: 'thinking_dropped', path: entry.path, reason: 'prefix_binding_mismatch' });
      }
    } else if (first >= 0) {
      for (const { entry, reason } of failures) {
        if (reason !== undefined) transformations.push({ type: 'thinking_mismatch_allowed', path: entry.path, reason: 'prefix_binding_mismatch' });
      }
    }
  }
  transformations.sort((a, b) => chain.findIndex((e) => e.path === a.path) - chain.findIndex((e) => e.path === b.path));
  const kept = chain.filter((entry) => !dropped.has(entry));
  return { transformations, previousSignature: kept.at(-1)?.block.signature ?? null };
}

/**
 * @param {any} body
 * @param {{ i: number, j: number, payload: any }} entry
 * @param {{ block: any } | undefined} before  the thinking block before it in the request
 * @returns {keyof typeof REASONS | undefined}
 */
function prefixFailure(body, entry, before) {
  const hashes = prefixHashes(body, entry.i, entry.j);
  if (hashes.prefix !== entry.payload.prefix) {
    if (hashes.tools !== entry.payload.tools) return 'tools';
    if (hashes.system !== entry.payload.system) return 'system';
    return 'messages';
  }
  // Trimming from the front is allowed: the first block present may record a predecessor that is gone.
  if (before !== undefined && entry.payload.previous !== signatureHash(before.block.signature)) return 'chain';
  return undefined;
}

/**
 * @param {string} message
 * @returns {BindingResult}
 */
const reject = (message) => ({ rejection: { message }, transformations: [], previousSignature: null });
