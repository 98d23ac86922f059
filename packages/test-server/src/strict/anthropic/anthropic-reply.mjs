// The strict stand-in's answers: a Message (JSON) or its event stream, with signed thinking blocks, the
// usage of the prompt-cache model, `diagnostics` and, under the binding-controls beta, `input_transformations`
// (on message_start when streaming: preserved-thinking#how-it-works). Event order as
// https://platform.claude.com/docs/en/build-with-claude/streaming shows it.
/** @import { AnthropicModel } from './anthropic-models.mjs' */
/** @import { ScriptedResponse, SseEvent } from '../../wire-types.mjs' */
/** @import { StrictReply } from '../strict-types.mjs' */
import { jsonResponse, sseResponse } from '../../responses.mjs';
import { splitIntoDeltas } from '../../anthropic-responses.mjs';
import { estimateTokens } from '../canonical-json.mjs';
import { sampleForSchema } from '../schema-sample.mjs';
import { prefixHashes } from './anthropic-prefix.mjs';
import { signThinking, signatureHash, textHash } from './anthropic-thinking-signature.mjs';

/**
 * @typedef {object} AcceptedRequest
 * @property {any} body
 * @property {AnthropicModel} row
 * @property {string} id
 * @property {{ input_tokens: number, cache_read_input_tokens: number, cache_creation_input_tokens: number }} usage
 * @property {unknown} diagnostics
 * @property {unknown[] | undefined} transformations  present only under the binding-controls beta
 * @property {string | null} previousSignature
 */

/**
 * Whether the model thinks on this request: asked for, or on by default and not turned off.
 * @param {any} body
 * @param {AnthropicModel} row
 */
function thinks(body, row) {
  const type = body.thinking?.type;
  if (type === 'adaptive' || type === 'enabled') return true;
  if (type === 'disabled' || type === 'between_tools') return false;
  return row.thinkingDefault !== 'off';
}

/**
 * @param {AcceptedRequest} accepted
 * @param {StrictReply | undefined} reply
 * @returns {any[]}
 */
function replyBlocks({ body, row }, reply) {
  if (reply?.blocks) return reply.blocks.map((block) => ({ ...block }));
  const display = body.thinking?.display ?? row.display;
  /** @type {any[]} */
  const blocks = [];
  if (reply?.thinking !== false && thinks(body, row)) {
    blocks.push({ type: 'thinking', thinking: display === 'summarized' ? (reply?.thinkingText ?? 'Considering the request.') : '' });
  }
  const schema = body.output_config?.format?.schema;
  const text = reply?.text ?? (schema ? JSON.stringify(sampleForSchema(schema)) : 'ok');
  if (text !== '') blocks.push({ type: 'text', text });
  for (const call of reply?.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
  return blocks;
}

/**
 * The answer's content with every thinking block signed to its prefix and chained to the one before.
 * @param {AcceptedRequest} accepted
 * @param {StrictReply | undefined} reply
 * @param {string} secret
 */
export function signedContent(accepted, reply, secret) {
  const { body, row } = accepted;
  const blocks = replyBlocks(accepted, reply);
  const index = body.messages.length;
  let previous = accepted.previousSignature;
  blocks.forEach((block, j) => {
    if (block.type !== 'thinking') return;
    const draft = { ...body, messages: [...body.messages, { role: 'assistant', content: blocks.slice(0, j) }] };
    const hashes = prefixHashes(draft, index, j);
    const text = typeof block.thinking === 'string' ? block.thinking : '';
    block.thinking = text;
    block.signature = signThinking(secret, {
      model: row.id,
      rank: row.rank,
      ...hashes,
      previous: previous === null ? null : signatureHash(previous),
      text: textHash(text),
      omitted: text === '',
    });
    previous = block.signature;
  });
  return blocks;
}

/** @param {string} name @param {Record<string, unknown>} data @returns {SseEvent} */
const event = (name, data) => ({ event: name, data: { type: name, ...data } });

/**
 * @param {any} block
 * @param {number} index
 * @returns {SseEvent[]}
 */
function blockEvents(block, index) {
  /** @param {Record<string, unknown>} delta */
  const delta = (delta) => event('content_block_delta', { index, delta });
  const stop = event('content_block_stop', { index });
  if (block.type === 'thinking') {
    const deltas = splitIntoDeltas(block.thinking).map((thinking) => delta({ type: 'thinking_delta', thinking }));
    return [event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }), ...deltas, delta({ type: 'signature_delta', signature: block.signature }), stop];
  }
  if (block.type === 'tool_use') {
    const json = JSON.stringify(block.input ?? {});
    return [event('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }), delta({ type: 'input_json_delta', partial_json: json }), stop];
  }
  const deltas = splitIntoDeltas(block.text).map((text) => delta({ type: 'text_delta', text }));
  return [event('content_block_start', { index, content_block: { type: 'text', text: '' } }), ...deltas, stop];
}

/**
 * @param {AcceptedRequest} accepted
 * @param {StrictReply | undefined} reply
 * @param {string} secret
 * @returns {ScriptedResponse}
 */
export function renderAnthropicReply(accepted, reply, secret) {
  const content = signedContent(accepted, reply, secret);
  const stopReason = reply?.stopReason ?? (content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
  // Signatures are not output text: the estimate counts what the model wrote.
  const output = Math.max(1, estimateTokens(content.map((block) => (block.type === 'thinking' ? block.thinking : block))));
  const usage = { ...accepted.usage, cache_creation: { ephemeral_5m_input_tokens: accepted.usage.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 }, output_tokens: output, service_tier: 'standard' };
  const message = {
    id: accepted.id,
    type: 'message',
    role: 'assistant',
    model: accepted.row.id,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: accepted.diagnostics,
    usage,
    ...(accepted.transformations === undefined ? {} : { input_transformations: accepted.transformations }),
  };
  if (accepted.body.stream !== true) return jsonResponse(200, message);
  const start = { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } };
  return sseResponse([
    event('message_start', { message: start }),
    event('ping', {}),
    ...content.flatMap(blockEvents),
    event('message_delta', {
      delta: { stop_reason: stopReason, stop_sequence: null, stop_details: null, container: null },
      usage: { ...accepted.usage, output_tokens: output, output_tokens_details: null, server_tool_use: null },
    }),
    event('message_stop', {}),
  ]);
}
