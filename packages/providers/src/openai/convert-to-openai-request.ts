import { isKnownEvent, loadedResource, type ChatRequestEvent, type ConversationEvent, type ToolCallRequestEvent } from '@jp/core';
import type { ConvertedRequest, ProviderRequest } from '../provider.ts';
import { orderAnswer } from '../shared/answer-layout.ts';
import { NOTHING_TO_SEND, queryText } from '../shared/query-text.ts';
import { responseText } from '../shared/response-text.ts';
import { INTERRUPTED_TOOL_RESULT, ToolCallLedger } from '../shared/tool-call-ledger.ts';
import { formatToolResultText } from './format-tool-result-text.ts';
import type { FunctionTool, OpenAIResponsesRequest, ResponseInputContent, ResponseInputItem } from './openai-types.ts';
import { clampMaxTokens } from '../reasoning/clamp-max-tokens.ts';
import { meetsStrictSchema } from '../shared/meets-strict-schema.ts';
import { openaiReasoning } from '../reasoning/openai-reasoning.ts';
import { resourceWireForm } from './resource-wire-form.ts';

/** The user message of one turn: the query, then one part per resource attached at that turn. */
function userContent(event: ChatRequestEvent, warnings: string[]): ResponseInputContent[] {
  const text = queryText(event.content);
  const content: ResponseInputContent[] = text === undefined ? [] : [{ type: 'input_text', text }];
  for (const resource of event.resources) {
    const form = resourceWireForm(loadedResource(resource), 'openai', { pdf: true });
    switch (form.type) {
      case 'text':
        content.push({ type: 'input_text', text: form.xml });
        break;
      case 'image':
        content.push({ type: 'input_image', detail: 'auto', image_url: form.dataUrl });
        break;
      case 'pdf':
        content.push({ type: 'input_file', filename: form.filename, file_data: form.dataUrl });
        break;
      case 'skip':
        warnings.push(form.warning);
        break;
    }
  }
  if (content.length === 0) content.push({ type: 'input_text', text: NOTHING_TO_SEND });
  return content;
}

/**
 * Events → a Responses API request (`POST /v1/responses`). Pure: the same events give the same
 * request, and the `input` of a longer conversation starts with the `input` of a shorter one, so
 * OpenAI's automatic prefix caching keeps hitting. Per turn, a user message holds the query as
 * `input_text` followed by that turn's resources (text as XML in `input_text`, images as
 * `input_image` data URLs, PDFs as `input_file`); answers are assistant messages; tool calls are
 * `function_call` items and their results `function_call_output` items; reasoning items (with
 * their encrypted content) go back where they came. Nothing is stored at OpenAI (`store: false`):
 * every request carries the whole conversation.
 */
export function convertToOpenAIRequest(request: ProviderRequest): ConvertedRequest<OpenAIResponsesRequest> {
  const warnings: string[] = [];
  const input: ResponseInputItem[] = [];
  const calls = new ToolCallLedger(warnings);

  /** A call left without a result (an interrupted turn) gets an error output, or the API rejects the request. */
  const closePendingCalls = () => {
    for (const { id } of calls.closeAll()) input.push({ type: 'function_call_output', call_id: id, output: `Error: ${INTERRUPTED_TOOL_RESULT}` });
  };

  /** An answer with reasoning items: its message and calls wait to be put back in their streamed order (issue V). */
  let answer: { layout: Record<string, unknown>[]; text?: string; calls: ToolCallRequestEvent[] } | undefined;
  const flushAnswer = () => {
    if (answer === undefined) return;
    const { layout, text, calls: answered } = answer;
    answer = undefined;
    for (const part of orderAnswer(layout, text, answered)) {
      if (part.kind === 'reasoning') input.push(part.item as unknown as ResponseInputItem);
      else if (part.kind === 'text') input.push({ type: 'message', role: 'assistant', content: part.text });
      else input.push({ type: 'function_call', call_id: part.call.id, name: part.call.name, arguments: JSON.stringify(part.call.arguments) });
    }
  };

  const handle = (event: ConversationEvent) => {
    if (!isKnownEvent(event)) return; // events of a newer jp are kept on disk, not sent
    if (!(event.type === 'tool_call_request' || (event.type === 'chat_response' && event.reasoning === undefined))) flushAnswer();
    switch (event.type) {
      case 'chat_request': {
        closePendingCalls();
        const content = userContent(event, warnings);
        if (content.length > 0) input.push({ type: 'message', role: 'user', content });
        return;
      }
      case 'chat_response': {
        // OpenAI's own reasoning items go back in place, encrypted content and all; another
        // provider's reasoning, and reasoning without them, are never sent (RFD 028).
        if (event.reasoning !== undefined && event.opaque?.provider === 'openai' && event.opaque.items.length > 0) {
          closePendingCalls();
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
        input.push({ type: 'message', role: 'assistant', content: text });
        return;
      }
      case 'tool_call_request':
        calls.open(event.id, event.name);
        if (answer !== undefined) answer.calls.push(event);
        else input.push({ type: 'function_call', call_id: event.id, name: event.name, arguments: JSON.stringify(event.arguments) });
        return;
      case 'tool_call_response':
        if (calls.answer(event.id) === undefined) return;
        input.push({ type: 'function_call_output', call_id: event.id, output: formatToolResultText(event.content, event.isError) });
        return;
      case 'turn_start':
      case 'config_delta':
        return;
    }
  };

  for (const event of request.events) handle(event);
  flushAnswer();

  const params: OpenAIResponsesRequest = { model: request.model, input, stream: true, store: false };
  if (request.system !== undefined && request.system !== '') params.instructions = request.system;
  const limit = clampMaxTokens(request.maxTokens, undefined, request.modelInfo);
  warnings.push(...limit.warnings);
  if (limit.maxTokens !== undefined) params.max_output_tokens = limit.maxTokens;
  const mapped = openaiReasoning(request.reasoning, request.showReasoning === true, request.modelInfo);
  warnings.push(...mapped.warnings);
  if (mapped.reasoning !== undefined) {
    params.reasoning = mapped.reasoning;
    // Nothing is stored at OpenAI, so the reasoning comes back encrypted, to be sent again.
    if (mapped.reasoning.effort !== 'none') params.include = ['reasoning.encrypted_content'];
  }
  if (request.tools !== undefined && request.tools.length > 0) {
    params.tools = request.tools.map(
      (tool): FunctionTool => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: false }),
    );
  }
  if (request.schema !== undefined) {
    params.text = { format: { type: 'json_schema', name: 'answer', schema: request.schema, strict: meetsStrictSchema(request.schema) } };
  }
  return { request: params, warnings };
}
