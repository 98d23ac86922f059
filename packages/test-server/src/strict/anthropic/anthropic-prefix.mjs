// The prefix a thinking block is bound to: top-level `system`, `tools`, and every message before the
// block, with earlier thinking blocks left out (they form their own chain) and compared canonically
// (key order and cache_control markers do not count).
// https://platform.claude.com/docs/en/build-with-claude/preserved-thinking#how-it-works and #what-counts-as-an-edit
import { canonicalJson, sha256 } from '../canonical-json.mjs';
import { blocksOf } from './anthropic-content-rules.mjs';

/** @param {any} block */
export const isThinking = (block) => block?.type === 'thinking' || block?.type === 'redacted_thinking';

/**
 * @param {any} system
 * @returns {any[]}
 */
const systemBlocks = (system) => (typeof system === 'string' ? (system === '' ? [] : [{ type: 'text', text: system }]) : Array.isArray(system) ? system : []);

/**
 * @param {any} message
 * @param {number} [upTo] only the blocks before this index
 */
const messageWithoutThinking = (message, upTo) => {
  const { content: _content, ...rest } = message ?? {};
  const blocks = blocksOf(message?.content).slice(0, upTo).filter((block) => !isThinking(block));
  return { ...rest, content: blocks };
};

/**
 * Tools in the prefix: every tool, except one declared with `defer_loading: true` that no
 * `tool_addition` before the position has referenced ("An unreferenced deferred tool isn't part of the prefix").
 * @param {any} body
 * @param {number} messageIndex
 */
function visibleTools(body, messageIndex) {
  if (!Array.isArray(body.tools)) return [];
  const added = new Set();
  for (const message of body.messages.slice(0, messageIndex + 1)) {
    for (const block of blocksOf(message?.content)) if (block?.type === 'tool_addition') added.add(block.tool?.name);
  }
  return body.tools.filter((/** @type {any} */ tool) => tool?.defer_loading !== true || added.has(tool.name));
}

/**
 * Hashes of the prefix before messages[messageIndex].content[blockIndex]: system, tools and the whole prefix.
 * @param {any} body  a request, or the request plus the answer being generated as its last message
 * @param {number} messageIndex
 * @param {number} blockIndex
 * @returns {{ system: string, tools: string, prefix: string }}
 */
export function prefixHashes(body, messageIndex, blockIndex) {
  const system = canonicalJson(systemBlocks(body.system));
  const tools = canonicalJson(visibleTools(body, messageIndex));
  const messages = body.messages.slice(0, messageIndex).map((/** @type {any} */ message) => messageWithoutThinking(message));
  messages.push(messageWithoutThinking(body.messages[messageIndex], blockIndex));
  return { system: sha256(system), tools: sha256(tools), prefix: sha256(`${system}\u0000${tools}\u0000${canonicalJson(messages)}`) };
}
