import { isKnownEvent, loadedResource, type ChatRequestEvent, type ConversationEvent } from '@jp/core';
import { formatToolResultText } from '../openai/format-tool-result-text.ts';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from '../openai/openai-types.ts';
import { resourceWireForm } from '../openai/resource-wire-form.ts';
import type { ConvertedRequest, ProviderRequest } from '../provider.ts';
import { NOTHING_TO_SEND, queryText } from '../shared/query-text.ts';
import { responseText } from '../shared/response-text.ts';
import { INTERRUPTED_TOOL_RESULT, ToolCallLedger } from '../shared/tool-call-ledger.ts';
import { applyOpenRouterCacheControl, type UserMessageSlots } from './apply-openrouter-cache-control.ts';
import { clampMaxTokens } from '../reasoning/clamp-max-tokens.ts';
import { meetsStrictSchema } from '../shared/meets-strict-schema.ts';
import { openaiCompatibleReasoning } from '../reasoning/openai-compatible-reasoning.ts';
import { OPENAI_COMPATIBLE_VENDORS, usesCacheMarkers, type OpenAICompatibleVendor } from './openai-compatible-vendor.ts';

/** The user message of one turn (the query, then its resources) and where it can take cache markers. */
function userContent(
  event: ChatRequestEvent,
  vendor: OpenAICompatibleVendor,
  warnings: string[],
): { content: ChatCompletionContentPart[]; lastText: number | undefined; resourceText: number | undefined } {
  const text = queryText(event.content);
  const content: ChatCompletionContentPart[] = text === undefined ? [] : [{ type: 'text', text }];
  let lastText = content.length > 0 ? 0 : undefined;
  let resourceText: number | undefined;
  for (const resource of event.resources) {
    const form = resourceWireForm(loadedResource(resource), vendor, { pdf: OPENAI_COMPATIBLE_VENDORS[vendor].fileParts });
    switch (form.type) {
      case 'text':
        lastText = content.push({ type: 'text', text: form.xml }) - 1;
        break;
      case 'image':
        content.push({ type: 'image_url', image_url: { url: form.dataUrl } });
        break;
      case 'pdf':
        content.push({ type: 'file', file: { filename: form.filename, file_data: form.dataUrl } });
        break;
      case 'skip':
        warnings.push(form.warning);
        continue;
    }
    resourceText = lastText;
  }
  if (content.length === 0) lastText = content.push({ type: 'text', text: NOTHING_TO_SEND }) - 1;
  return { content, lastText, resourceText };
}

/**
 * Events → a chat-completions request for an OpenAI-compatible vendor (OpenRouter, Ollama). Pure,
 * and append-only: the messages of a longer conversation start with those of a shorter one (cache
 * markers aside). Per turn, one user message whose parts are the query, then that turn's resources
 * (text as XML `text` parts, images as `image_url` data URLs, PDFs as `file` parts where the vendor
 * takes them); answers are assistant messages, tool calls their `tool_calls`, and results `tool`
 * messages. For OpenRouter with `anthropic/…` and `google/…` models, `cache_control` markers are
 * set on real parts (see `applyOpenRouterCacheControl`).
 */
export function convertToOpenAICompatibleChatRequest(
  request: ProviderRequest,
  vendor: OpenAICompatibleVendor,
): ConvertedRequest<ChatCompletionCreateParamsStreaming> {
  const warnings: string[] = [];
  const messages: ChatCompletionMessageParam[] = [];
  const users: UserMessageSlots[] = [];
  const calls = new ToolCallLedger(warnings);
  /** OpenRouter reasoning details waiting for the assistant message of their answer. */
  let details: readonly Record<string, unknown>[] | undefined;
  const withDetails = (message: ChatCompletionAssistantMessageParam): ChatCompletionAssistantMessageParam => {
    if (details === undefined) return message;
    const carried = { ...message, reasoning_details: details } as ChatCompletionAssistantMessageParam;
    details = undefined;
    return carried;
  };

  if (request.system !== undefined && request.system !== '') messages.push({ role: 'system', content: request.system });

  /** A call left without a result (an interrupted turn) gets an error result, or the API rejects the request. */
  const closePendingCalls = () => {
    for (const { id } of calls.closeAll()) messages.push({ role: 'tool', tool_call_id: id, content: `Error: ${INTERRUPTED_TOOL_RESULT}` });
  };

  const handle = (event: ConversationEvent) => {
    if (!isKnownEvent(event)) return; // events of a newer jp are kept on disk, not sent
    switch (event.type) {
      case 'chat_request': {
        closePendingCalls();
        const { content, lastText, resourceText } = userContent(event, vendor, warnings);
        users.push({ message: messages.push({ role: 'user', content }) - 1, lastText, resourceText });
        return;
      }
      case 'chat_response': {
        // OpenRouter's reasoning_details go back on the assistant message they came with, as they
        // came (openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks).
        if (event.reasoning !== undefined) {
          if (vendor === 'openrouter' && event.opaque?.provider === 'openrouter' && event.opaque.items.length > 0) {
            closePendingCalls();
            details = event.opaque.items;
          }
          return;
        }
        const text = responseText(event);
        if (text === undefined || text === '') return;
        closePendingCalls();
        messages.push(withDetails({ role: 'assistant', content: text }));
        return;
      }
      case 'tool_call_request': {
        calls.open(event.id, event.name);
        const call = { id: event.id, type: 'function' as const, function: { name: event.name, arguments: JSON.stringify(event.arguments) } };
        // Calls join the answer they belong to: the assistant message right before them.
        const last = messages.at(-1);
        if (last?.role === 'assistant' && details === undefined) (last as ChatCompletionAssistantMessageParam).tool_calls = [...(last.tool_calls ?? []), call];
        else messages.push(withDetails({ role: 'assistant', tool_calls: [call] }));
        return;
      }
      case 'tool_call_response':
        if (calls.answer(event.id) === undefined) return;
        messages.push({ role: 'tool', tool_call_id: event.id, content: formatToolResultText(event.content, event.isError) });
        return;
      case 'turn_start':
      case 'config_delta':
        return;
    }
  };

  for (const event of request.events) handle(event);

  const params: ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: usesCacheMarkers(vendor, request.model) ? applyOpenRouterCacheControl(messages, users) : messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  const limit = clampMaxTokens(request.maxTokens, undefined, request.modelInfo);
  warnings.push(...limit.warnings);
  if (limit.maxTokens !== undefined) params.max_tokens = limit.maxTokens;
  if (request.reasoning !== undefined) {
    const mapped = openaiCompatibleReasoning(vendor, request.reasoning, request.modelInfo);
    warnings.push(...mapped.warnings);
    // Vendor fields the SDK's types do not name; the SDK sends them as given.
    Object.assign(params, mapped.fields);
  }
  if (request.tools !== undefined && request.tools.length > 0) {
    params.tools = request.tools.map(
      (tool): ChatCompletionFunctionTool => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }),
    );
  }
  if (request.schema !== undefined) {
    params.response_format = { type: 'json_schema', json_schema: { name: 'answer', schema: request.schema, strict: meetsStrictSchema(request.schema) } };
  }
  return { request: params, warnings };
}
