import { isKnownEvent, loadedResource, type ConversationEvent } from '@jp/core';
import type { ConvertedRequest, ProviderRequest } from '../provider.ts';
import { NOTHING_TO_SEND, queryText } from '../shared/query-text.ts';
import { responseText } from '../shared/response-text.ts';
import { INTERRUPTED_TOOL_RESULT, ToolCallLedger } from '../shared/tool-call-ledger.ts';
import { convertResourceToGooglePart } from './convert-resource-to-google-part.ts';
import { googleFunctionResponse } from './convert-tool-result-to-google.ts';
import type { Content, GenerateContentConfig, GoogleRequest, Part, ThinkingConfig } from './google-types.ts';
import { clampMaxTokens } from '../reasoning/clamp-max-tokens.ts';
import { googleThinkingConfig } from '../reasoning/google-thinking-config.ts';

/**
 * The thought signature Gemini documents for function calls in the history it did not sign
 * (another model's turns, lines stored before jp kept signatures). Gemini 3 rejects a function
 * call in the history without one; a call whose signature jp stored gets that one (RFD 028).
 */
export const GOOGLE_SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

type Role = 'user' | 'model';

/** Contents with alternating roles: parts of the same role as the last content join it. */
class ContentList {
  readonly contents: Array<Content & { role: Role; parts: Part[] }> = [];

  push(role: Role, parts: readonly Part[]): void {
    if (parts.length === 0) return;
    const last = this.contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else this.contents.push({ role, parts: [...parts] });
  }

  /** Whether the newest content is the model's and already holds a function call. */
  modelStepHasCall(): boolean {
    const last = this.contents.at(-1);
    return last?.role === 'model' && last.parts.some((part) => part.functionCall !== undefined);
  }
}

/**
 * Events → a Gemini `generateContent` request. Pure: the same events give the same request, and
 * the request for a longer conversation starts with the contents of a shorter one, so Gemini's
 * prompt cache keeps hitting. Per turn, the `user` content is the query as a text part followed by
 * one part per resource attached at that turn (text as XML, media as `inlineData`); answers are
 * `model` text (reasoning text is left out; Gemini's own thought signatures go back on the parts
 * that carried them); tool calls are `functionCall` parts and their results
 * `functionResponse` parts in the next `user` content. What Gemini cannot take is left out with a
 * warning.
 */
export function convertToGoogleRequest(request: ProviderRequest): ConvertedRequest<GoogleRequest> {
  const warnings: string[] = [];
  const list = new ContentList();
  const calls = new ToolCallLedger(warnings);

  /** A call left without a result (an interrupted turn) gets an error response, or Gemini rejects the request. */
  const closePendingCalls = () => {
    const parts = calls.closeAll().map(({ id, name }): Part => ({ functionResponse: { id, name, response: { error: INTERRUPTED_TOOL_RESULT } } }));
    list.push('user', parts);
  };

  // Signatures of the model step under way, from its reasoning event (stored before its text and calls).
  let signatures = { calls: new Map<string, string>(), text: undefined as string | undefined };

  const handle = (event: ConversationEvent) => {
    if (!isKnownEvent(event)) return; // events of a newer jp are kept on disk, not sent
    switch (event.type) {
      case 'chat_request': {
        signatures = { calls: new Map(), text: undefined };
        closePendingCalls();
        const text = queryText(event.content);
        const parts: Part[] = text === undefined ? [] : [{ text }];
        for (const resource of event.resources) {
          const converted = convertResourceToGooglePart(loadedResource(resource));
          if (converted.warning !== undefined) warnings.push(converted.warning);
          else parts.push(converted.part);
        }
        if (parts.length === 0) parts.push({ text: NOTHING_TO_SEND });
        list.push('user', parts);
        return;
      }
      case 'chat_response': {
        if (event.reasoning !== undefined && event.opaque?.provider === 'google') {
          signatures = { calls: new Map(), text: undefined };
          for (const item of event.opaque.items) {
            if (typeof item.thoughtSignature !== 'string') continue;
            if (typeof item.functionCallId === 'string') signatures.calls.set(item.functionCallId, item.thoughtSignature);
            else if (item.text === true) signatures.text = item.thoughtSignature;
          }
          return;
        }
        const text = responseText(event);
        if (text === undefined || text === '') return;
        closePendingCalls();
        const part: Part = { text };
        if (signatures.text !== undefined) part.thoughtSignature = signatures.text;
        signatures.text = undefined;
        list.push('model', [part]);
        return;
      }
      case 'tool_call_request': {
        calls.open(event.id, event.name);
        const part: Part = { functionCall: { id: event.id, name: event.name, args: event.arguments } };
        const stored = signatures.calls.get(event.id);
        // Gemini signs the first call of each model step; the parallel calls after it carry none.
        if (stored !== undefined) part.thoughtSignature = stored;
        else if (!list.modelStepHasCall()) part.thoughtSignature = GOOGLE_SKIP_THOUGHT_SIGNATURE;
        list.push('model', [part]);
        return;
      }
      case 'tool_call_response': {
        const name = calls.answer(event.id);
        if (name === undefined) return;
        list.push('user', [{ functionResponse: { id: event.id, name, response: googleFunctionResponse(event.content, event.isError) } }]);
        return;
      }
      case 'turn_start':
      case 'config_delta':
        return;
    }
  };

  for (const event of request.events) handle(event);

  return { request: { model: request.model, contents: list.contents, config: buildConfig(request, warnings) }, warnings };
}

function buildConfig(request: ProviderRequest, warnings: string[]): GenerateContentConfig {
  const config: GenerateContentConfig = {};
  if (request.system !== undefined && request.system !== '') config.systemInstruction = { parts: [{ text: request.system }] };
  if (request.tools !== undefined && request.tools.length > 0) {
    const functionDeclarations = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parametersJsonSchema: tool.parameters,
    }));
    config.tools = [{ functionDeclarations }];
  }
  const limit = clampMaxTokens(request.maxTokens, undefined, request.modelInfo);
  warnings.push(...limit.warnings);
  if (limit.maxTokens !== undefined) config.maxOutputTokens = limit.maxTokens;
  const thinking = googleThinkingConfig(request.reasoning, request.modelInfo);
  warnings.push(...thinking.warnings);
  // The levels are the SDK enum's string values; the enum itself would load the SDK.
  if (thinking.config !== undefined) config.thinkingConfig = thinking.config as ThinkingConfig;
  if (request.schema !== undefined) {
    config.responseMimeType = 'application/json';
    config.responseJsonSchema = request.schema;
  }
  return config;
}
