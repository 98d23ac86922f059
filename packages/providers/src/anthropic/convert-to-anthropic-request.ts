import { isKnownEvent, loadedResource, type ConversationEvent, type ToolCallRequestEvent } from '@jp/core';
import type { ConvertedRequest, ProviderRequest } from '../provider.ts';
import { orderAnswer } from '../shared/answer-layout.ts';
import { NOTHING_TO_SEND, queryText } from '../shared/query-text.ts';
import { responseText } from '../shared/response-text.ts';
import { INTERRUPTED_TOOL_RESULT, ToolCallLedger } from '../shared/tool-call-ledger.ts';
import { applyAnthropicCacheControl, type AnthropicCacheTtl, type BlockPosition } from './apply-anthropic-cache-control.ts';
import type { ContentBlockParam, MessageCreateParamsStreaming, MessageParam, Tool } from './anthropic-types.ts';
import { convertResourceToAnthropicBlock } from './convert-resource-to-anthropic-block.ts';
import { convertToolResultToAnthropic } from './convert-tool-result-to-anthropic.ts';
import { anthropicThinking } from '../reasoning/anthropic-thinking.ts';
import { anthropicOutputConfig } from './anthropic-output-config.ts';

export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8192;

type Role = 'user' | 'assistant';
type Message = { role: Role; content: ContentBlockParam[] };

/** Messages with alternating roles: a block of the same role as the last message joins it. */
class MessageList {
  readonly messages: Message[] = [];

  /** Appends blocks; returns the position of the last one (undefined when there were none). */
  push(role: Role, blocks: readonly ContentBlockParam[]): BlockPosition | undefined {
    if (blocks.length === 0) return undefined;
    const last = this.messages.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else this.messages.push({ role, content: [...blocks] });
    return { message: this.messages.length - 1, block: this.messages.at(-1)!.content.length - 1 };
  }
}

/**
 * Events → an Anthropic Messages request. Pure: the same events give the same request, and the
 * request for a longer conversation starts with the messages of a shorter one (cache markers
 * aside), so prompt caching keeps hitting. Per turn, the user message is the query as a text
 * block followed by one block per resource attached at that turn; answers are assistant text,
 * after the thinking blocks Anthropic made for them, sent back as they came in every turn (a
 * prefix that never changes; RFD 028) — reasoning of another provider is left out; tool calls are `tool_use` blocks and their results `tool_result`
 * blocks in the next user message. What Anthropic cannot take is left out with a warning.
 */
export function convertToAnthropicRequest(
  request: ProviderRequest,
  options: { cacheTtl?: AnthropicCacheTtl | undefined } = {},
): ConvertedRequest<MessageCreateParamsStreaming> {
  const warnings: string[] = [];
  const list = new MessageList();
  let newestResourceBlock: BlockPosition | undefined;
  const calls = new ToolCallLedger(warnings);

  /** A tool call left without a result (an interrupted turn) gets an error result, or Anthropic rejects the request. */
  const closePendingCalls = () => {
    const results = calls.closeAll().map(
      ({ id }): ContentBlockParam => ({ type: 'tool_result', tool_use_id: id, content: INTERRUPTED_TOOL_RESULT, is_error: true }),
    );
    list.push('user', results);
  };

  /** An answer whose thinking came with it: its text and calls wait to be put back in their streamed order. */
  let answer: { layout: Record<string, unknown>[]; text?: string; calls: ToolCallRequestEvent[] } | undefined;
  const flushAnswer = () => {
    if (answer === undefined) return;
    const { layout, text, calls: answered } = answer;
    answer = undefined;
    for (const part of orderAnswer(layout, text, answered)) {
      if (part.kind === 'reasoning') list.push('assistant', [part.item as unknown as ContentBlockParam]);
      else if (part.kind === 'text') list.push('assistant', [{ type: 'text', text: part.text }]);
      else list.push('assistant', [{ type: 'tool_use', id: part.call.id, name: part.call.name, input: part.call.arguments }]);
    }
  };

  const handle = (event: ConversationEvent) => {
    if (!isKnownEvent(event)) return; // events of a newer jp are kept on disk, not sent
    const partOfAnswer = event.type === 'tool_call_request' || (event.type === 'chat_response' && event.reasoning === undefined);
    if (!partOfAnswer) flushAnswer();
    switch (event.type) {
      case 'chat_request': {
        closePendingCalls();
        const text = queryText(event.content);
        const blocks: ContentBlockParam[] = text === undefined ? [] : [{ type: 'text', text }];
        let lastResource: number | undefined;
        for (const resource of event.resources) {
          const converted = convertResourceToAnthropicBlock(loadedResource(resource));
          if (converted.warning !== undefined) warnings.push(converted.warning);
          else lastResource = blocks.push(converted.block) - 1;
        }
        if (blocks.length === 0) blocks.push({ type: 'text', text: NOTHING_TO_SEND });
        const end = list.push('user', blocks);
        if (end !== undefined && lastResource !== undefined) {
          newestResourceBlock = { message: end.message, block: end.block - (blocks.length - 1 - lastResource) };
        }
        return;
      }
      case 'chat_response': {
        if (event.reasoning !== undefined) {
          if (event.opaque?.provider !== 'anthropic' || event.opaque.items.length === 0) return;
          closePendingCalls();
          // Thinking blocks go back exactly as they came, in their place among the text and calls (issue V).
          answer = { layout: event.opaque.items, calls: [] };
          return;
        }
        const text = responseText(event);
        if (text === undefined || text === '') return;
        if (answer !== undefined) {
          answer.text = text;
          return;
        }
        closePendingCalls();
        list.push('assistant', [{ type: 'text', text }]);
        return;
      }
      case 'tool_call_request':
        calls.open(event.id, event.name);
        if (answer !== undefined) answer.calls.push(event);
        else list.push('assistant', [{ type: 'tool_use', id: event.id, name: event.name, input: event.arguments }]);
        return;
      case 'tool_call_response': {
        if (calls.answer(event.id) === undefined) return;
        const content = convertToolResultToAnthropic(event.content);
        list.push('user', [{ type: 'tool_result', tool_use_id: event.id, ...(content.length > 0 ? { content } : {}), is_error: event.isError }]);
        return;
      }
      case 'turn_start':
      case 'config_delta':
        return;
    }
  };

  for (const event of request.events) handle(event);
  flushAnswer();

  const plan = anthropicThinking(request.reasoning, request.modelInfo, {
    maxTokens: request.maxTokens,
    defaultMaxTokens: DEFAULT_ANTHROPIC_MAX_TOKENS,
    showReasoning: request.showReasoning,
  });
  warnings.push(...plan.warnings);
  const params: MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: plan.maxTokens,
    messages: list.messages as MessageParam[],
    stream: true,
  };
  if (plan.thinking !== undefined) params.thinking = plan.thinking;
  // Anthropic compares this request with the one that gave the previous response and says why its
  // cache missed (cache-diagnostics; `DiagnosticsParam` in the SDK); null opts the first one in.
  params.diagnostics = { previous_message_id: request.previousResponseId ?? null };
  if (request.thinkingBinding === 'drop_block' && request.modelInfo?.prefixBoundThinking === true) withDropBlock(params);
  const outputConfig = anthropicOutputConfig(plan.effort, request, warnings);
  if (outputConfig !== undefined) params.output_config = outputConfig;
  if (request.system !== undefined && request.system !== '') params.system = [{ type: 'text', text: request.system }];
  if (request.tools !== undefined && request.tools.length > 0) {
    params.tools = request.tools.map(
      (tool): Tool => ({ name: tool.name, description: tool.description, input_schema: tool.parameters as Tool.InputSchema }),
    );
  }
  return { request: applyAnthropicCacheControl(params, newestResourceBlock, options.cacheTtl), warnings };
}

/** The beta the `block_binding` setting needs (preserved-thinking#preserved-thinking-controls). */
export const THINKING_BINDING_BETA = 'thinking-binding-controls-2026-08-01';

/**
 * Asks the API to drop thinking blocks whose prefix no longer matches, rather than refuse the
 * request (`thinking.block_binding.prefix_mismatch_behavior = "drop_block"`, under the
 * `thinking-binding-controls-2026-08-01` beta). It is accepted with adaptive and enabled thinking
 * only: with none asked for, these models think adaptively by default, so that is sent.
 */
function withDropBlock(params: MessageCreateParamsStreaming): void {
  const thinking = params.thinking ?? { type: 'adaptive' };
  if (thinking.type !== 'adaptive' && thinking.type !== 'enabled') return;
  params.thinking = { ...thinking, block_binding: { prefix_mismatch_behavior: 'drop_block' } } as unknown as MessageCreateParamsStreaming['thinking'];
}
