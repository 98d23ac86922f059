// Message-content rules: empty and whitespace-only text, user content, prefill, tool_use/tool_result
// pairing, and the thinking-first rule of manual extended thinking.
/** @import { AnthropicModel } from './anthropic-models.mjs' */
/** @import { Rejection } from './anthropic-config-rules.mjs' */

/**
 * A message's content as blocks (a string is shorthand for one text block: SDK MessageParam docs).
 * @param {any} content
 * @returns {any[]}
 */
export const blocksOf = (content) => (typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : []);

/** @param {any} block */
const isText = (block) => block?.type === 'text' && typeof block.text === 'string';

/**
 * Empty text is always a 400; whitespace-only text only when nothing else in that message has content.
 * No Anthropic page states the rule; the wording and the cases are from live 400s recorded in
 * https://github.com/experientiallabs/experiential/pull/804 and https://github.com/anthropics/claude-code/issues/23440.
 * @param {any} body
 * @returns {Rejection | undefined}
 */
function textProblem(body) {
  const system = body.system;
  if (typeof system === 'string' && system !== '' && system.trim() === '') {
    return { message: 'system: text content blocks must contain non-whitespace text' };
  }
  if (Array.isArray(system)) {
    if (system.some((block) => isText(block) && block.text === '')) return { message: 'system: text content blocks must be non-empty' };
    if (system.length > 0 && system.every((block) => isText(block) && block.text.trim() === '')) {
      return { message: 'system: text content blocks must contain non-whitespace text' };
    }
  }
  for (const [i, message] of body.messages.entries()) {
    if (message?.role === 'user' && (message.content === '' || (Array.isArray(message.content) && message.content.length === 0))) {
      return { message: `messages.${i}: user messages must have non-empty content` };
    }
    const blocks = typeof message?.content === 'string' && message.role !== 'user' && message.content === '' ? [] : blocksOf(message?.content);
    if (blocks.some((block) => isText(block) && block.text === '')) return { message: 'messages: text content blocks must be non-empty' };
    const whitespace = blocks.filter((block) => isText(block) && block.text.trim() === '');
    const substantive = blocks.filter((block) => !(isText(block) && block.text.trim() === ''));
    if (whitespace.length > 0 && substantive.length === 0) return { message: 'messages: text content blocks must contain non-whitespace text' };
  }
  return undefined;
}

/**
 * Every tool_use answered by a tool_result in the very next message, and every tool_result answering a
 * tool_use of the message before it. Wording from the API's 400s (cited in the README);
 * https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls
 * @param {any[]} messages
 * @returns {Rejection | undefined}
 */
function toolPairingProblem(messages) {
  for (const [i, message] of messages.entries()) {
    const blocks = blocksOf(message?.content);
    if (message?.role === 'user') {
      const previous = messages[i - 1];
      const asked = new Set(previous?.role === 'assistant' ? blocksOf(previous.content).filter((b) => b?.type === 'tool_use').map((b) => b.id) : []);
      for (const [j, block] of blocks.entries()) {
        if (block?.type === 'tool_result' && !asked.has(block.tool_use_id)) {
          return { message: `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.` };
        }
      }
    }
    if (message?.role !== 'assistant' || i === messages.length - 1) continue;
    const next = messages[i + 1];
    const answered = new Set(next?.role === 'user' ? blocksOf(next.content).filter((b) => b?.type === 'tool_result').map((b) => b.tool_use_id) : []);
    const missing = blocks.filter((b) => b?.type === 'tool_use' && !answered.has(b.id)).map((b) => b.id);
    if (missing.length > 0) {
      return { message: `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.` };
    }
  }
  return undefined;
}

/**
 * In manual extended thinking the final assistant turn of a tool loop must start with a thinking block
 * (https://platform.claude.com/docs/en/build-with-claude/thinking#thinking-with-tool-use: "Adaptive mode
 * relaxes this"). Wording from the API's 400 (README).
 * @param {any} body
 * @returns {Rejection | undefined}
 */
function thinkingFirstProblem(body) {
  if (body.thinking?.type !== 'enabled') return undefined;
  const messages = body.messages;
  const last = messages.at(-1);
  if (last?.role !== 'user' || !blocksOf(last.content).some((b) => b?.type === 'tool_result')) return undefined;
  const index = messages.length - 2;
  const first = blocksOf(messages[index]?.content)[0];
  if (messages[index]?.role !== 'assistant' || first?.type === 'thinking' || first?.type === 'redacted_thinking') return undefined;
  return { message: `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking` };
}

/**
 * @param {any} body
 * @param {AnthropicModel} row
 * @returns {Rejection | undefined}
 */
export function anthropicContentProblem(body, row) {
  if (!Array.isArray(body.messages) || body.messages.length === 0) return { message: 'messages: at least one message is required' };
  const text = textProblem(body);
  if (text) return text;
  // Prefill: https://platform.claude.com/docs/en/api/errors#prefill-not-supported (SDK MessageCreateParams docs).
  if (!row.prefill && body.messages.at(-1)?.role === 'assistant') {
    return { message: 'This model does not support assistant message prefill. The conversation must end with a user message.' };
  }
  return toolPairingProblem(body.messages) ?? thinkingFirstProblem(body);
}
