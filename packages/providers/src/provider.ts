import type { CacheMiss, ConversationEvent, DroppedBlock, Usage } from '@jp/core';
import type { ModelInfo } from './catalog/model-info.ts';
import type { ReasoningSetting } from './reasoning/reasoning-setting.ts';

/** A tool the model may call. `parameters` is a JSON Schema object. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Everything a provider needs for one call. The events are the whole conversation so far. */
export interface ProviderRequest {
  /** The model id without the provider prefix (`claude-sonnet-4-5`, not `anthropic/claude-…`). */
  model: string;
  events: readonly ConversationEvent[];
  system?: string | undefined;
  tools?: readonly ToolDefinition[] | undefined;
  maxTokens?: number | undefined;
  /**
   * A JSON Schema the answer must follow (`jp query --schema`). Each provider uses its vendor's
   * native structured output; the answer text is then the JSON document.
   */
  schema?: Record<string, unknown> | undefined;
  /** `assistant.reasoning`: mapped to each vendor's own parameter; undefined sends none (RFD 028). */
  reasoning?: ReasoningSetting | undefined;
  /** Whether reasoning is shown as it arrives (OpenAI then asks for a summary of it). */
  showReasoning?: boolean | undefined;
  /**
   * What the catalog knows of the model (RFD 031): reasoning, structured output and output limits
   * are mapped to what it accepts. Undefined for a model jp does not know: nothing is guessed.
   */
  modelInfo?: ModelInfo | undefined;
  /**
   * The id of this conversation's previous response from the same provider, `null` for its first
   * request: Anthropic compares the two and says why its prompt cache missed (issue V).
   */
  previousResponseId?: string | null | undefined;
  /**
   * `drop_block`: the stored history may already break a preserved-thinking prefix, so the
   * provider is asked to drop such thinking blocks rather than refuse the request (issue V).
   */
  thinkingBinding?: 'drop_block' | undefined;
}

/** Connection settings; the API key is always passed explicitly, never read by an SDK itself. */
export interface ProviderSettings {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  /** The variable the key was read from (`ANTHROPIC_API_KEY`), named in missing/rejected-key errors. */
  apiKeyEnv?: string | undefined;
  /** Prompt-cache lifetime where the vendor lets us choose it (Anthropic: `5m` or `1h`). */
  cacheTtl?: '5m' | '1h' | undefined;
}

export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export type StreamEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  /** A wire item the provider wants back with the reasoning (a signed thinking block); stored, not shown. */
  | { type: 'reasoning-opaque'; provider: string; item: Record<string, unknown> }
  | { type: 'tool-call'; id: string; name: string; arguments: Record<string, unknown> }
  | { type: 'finish'; reason: FinishReason; usage: Usage; call?: CallRecord | undefined }
  | { type: 'warning'; message: string };

/** What a provider said of one call beyond its answer (issue V). */
export interface CallRecord {
  /** The response's id. */
  id?: string | undefined;
  /** Why the prompt cache missed, in the provider's words. */
  cacheMiss?: CacheMiss | undefined;
  /** Thinking blocks the provider dropped from the request. */
  dropped?: DroppedBlock[] | undefined;
}

/** The outcome of converting events to a vendor's wire request. */
export interface ConvertedRequest<TRequest> {
  request: TRequest;
  /** Things the vendor cannot take and were left out ("audio/wav is not supported by …; skipped"). */
  warnings: string[];
}

export interface Provider {
  /** `anthropic`, `echo`, … */
  readonly id: string;
  /** Whether it reads resources' content: every vendor does; echo describes resources by digest, so content references reach it unresolved. */
  readonly readsContent: boolean;
  /** The exact wire request this provider would send (for `jp query --explain` and tests). */
  buildRequest(request: ProviderRequest): ConvertedRequest<unknown>;
  /** Sends the request and streams the answer. Errors are `ProviderError`s. */
  stream(request: ProviderRequest, options?: { signal?: AbortSignal }): AsyncIterable<StreamEvent>;
}
