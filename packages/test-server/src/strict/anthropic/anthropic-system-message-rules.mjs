// role:"system" entries in `messages`: which models take them, where they may stand, turn-scoped
// messages (clear_at), tool_addition/tool_removal blocks and per-message effort.
// https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages (#limitations,
// #turn-scoped-system-messages, #mid-conversation-tool-changes) and
// https://platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting (per-message effort with thinking off).
/** @import { AnthropicModel } from './anthropic-models.mjs' */
/** @import { Rejection } from './anthropic-config-rules.mjs' */
import { BETA } from './anthropic-betas.mjs';
import { blocksOf } from './anthropic-content-rules.mjs';

const TURN_SCOPED = "(clear_at: 'next_user_message')";

/** @param {any} message */
const carriesContent = (message) => blocksOf(message.content).length > 0;

/**
 * @param {any} message
 * @param {number} i
 * @param {any} body
 * @param {Set<string>} betas
 * @returns {Rejection | undefined}
 */
function messageFieldsProblem(message, i, body, betas) {
  if (message.clear_at !== undefined) {
    // The documented validation errors, in the page's order; the first is the one without the beta.
    if (!betas.has(BETA.clearAt)) return { message: `messages.${i}.clear_at: Extra inputs are not permitted` };
    if (message.role !== 'system') return { message: `messages.${i}.clear_at: clear_at is only permitted on role 'system' messages` };
    if (message.clear_at !== null && message.clear_at !== 'next_user_message' && message.clear_at !== 'never') {
      return { message: `messages.${i}.clear_at: Input should be 'next_user_message' or 'never'` };
    }
    if (message.clear_at === 'next_user_message') {
      const blocks = blocksOf(message.content);
      if (blocks.some((block) => block?.type !== 'text')) return { message: `messages.${i}: a turn-scoped system message supports text blocks only ${TURN_SCOPED}` };
      if (message.output_config !== undefined) return { message: `messages.${i}: output_config is not permitted on a turn-scoped system message ${TURN_SCOPED}` };
      const marked = blocks.findIndex((block) => block?.cache_control);
      if (marked >= 0) return { message: `messages.${i}.content.${marked}: cache_control is not permitted on a turn-scoped system message ${TURN_SCOPED}` };
    }
  }
  if (message.role === 'system' && message.output_config !== undefined && !betas.has(BETA.messageOutputConfig)) {
    return { message: `messages.${i}.output_config: Extra inputs are not permitted` };
  }
  for (const [j, block] of blocksOf(message.content).entries()) {
    if (block?.type !== 'tool_addition' && block?.type !== 'tool_removal') continue;
    // Tool changes live in system messages and need their beta; without it the block type is unknown.
    if (message.role !== 'system' || !betas.has(BETA.toolChanges)) {
      return { message: `messages.${i}.content.${j}.type: Input tag '${block.type}' found using 'type' does not match any of the expected tags` };
    }
    const name = block.tool?.name;
    if (!Array.isArray(body.tools) || !body.tools.some((/** @type {any} */ tool) => tool?.name === name)) {
      return { message: `messages.${i}.content.${j}.tool.name: '${name}' is not a tool declared in \`tools\`` };
    }
  }
  return undefined;
}

/**
 * @param {any[]} messages
 * @returns {Rejection | undefined}
 */
function placementProblem(messages) {
  for (let start = 0; start < messages.length; start += 1) {
    if (messages[start]?.role !== 'system') continue;
    let end = start;
    while (messages[end + 1]?.role === 'system') end += 1;
    const group = messages.slice(start, end + 1);
    // Consecutive system messages are judged together; an effort-only group (empty content) goes anywhere.
    if (group.some(carriesContent)) {
      if (start === 0) {
        return { message: "messages.0: use the top-level 'system' parameter for the initial system prompt; the directive-only form (content: [] with output_config) is accepted at any position" };
      }
      const before = messages[start - 1];
      const after = messages[end + 1];
      const endsServerTool = before?.role === 'assistant' && blocksOf(before.content).at(-1)?.type?.endsWith('_tool_result');
      if ((before?.role !== 'user' && !endsServerTool) || (after !== undefined && after.role !== 'assistant')) {
        return { message: `messages.${start}: a system message must immediately follow a user turn and precede an assistant turn or end \`messages\`` };
      }
    }
    start = end;
  }
  return undefined;
}

/**
 * Per-message effort cannot change while thinking is off on Sonnet 5.5 (between_tools) and Haiku 5.5 (disabled).
 * @param {any} body
 * @param {AnthropicModel} row
 * @returns {Rejection | undefined}
 */
function effortChangeProblem(body, row) {
  const type = body.thinking?.type;
  if (row.offMaxEffort === null || (type !== 'disabled' && type !== 'between_tools')) return undefined;
  let inEffect = body.output_config?.effort ?? row.effortDefault;
  for (const [i, message] of body.messages.entries()) {
    const effort = message?.role === 'system' ? message.output_config?.effort : undefined;
    if (effort === undefined || effort === null) continue;
    if (effort !== inEffect) {
      return { message: `messages.${i}: output_config.effort '${effort}' differs from the '${inEffect}' in effect before it; effort cannot change when thinking is disabled on this model. Use effort '${inEffect}', or enable thinking.` };
    }
    inEffect = effort;
  }
  return undefined;
}

/**
 * @param {any} body
 * @param {AnthropicModel} row
 * @param {Set<string>} betas
 * @returns {Rejection | undefined}
 */
export function anthropicSystemMessageProblem(body, row, betas) {
  const messages = /** @type {any[]} */ (body.messages);
  for (const [i, message] of messages.entries()) {
    const problem = messageFieldsProblem(message, i, body, betas);
    if (problem) return problem;
  }
  if (!messages.some((message) => message?.role === 'system')) return undefined;
  // Models without mid-conversation system messages: the API's own 400 (captured, README).
  if (!row.systemMessages) {
    return { message: 'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.' };
  }
  return placementProblem(messages) ?? effortChangeProblem(body, row);
}
