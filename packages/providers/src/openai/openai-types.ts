// The wire types the OpenAI providers use, taken from the SDK as types only (erased at runtime).
import type { ResponseCreateParamsStreaming, ResponseInputItem } from 'openai/resources/responses/responses';

export type {
  FunctionTool,
  ResponseCreateParamsStreaming,
  ResponseInputContent,
  ResponseInputItem,
  ResponseStreamEvent,
  ResponseUsage,
} from 'openai/resources/responses/responses';
export type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
export type { CompletionUsage } from 'openai/resources/completions';

/** The Responses request jp builds: `input` is always an item list (the SDK also allows a bare string). */
export type OpenAIResponsesRequest = ResponseCreateParamsStreaming & { input: ResponseInputItem[] };
