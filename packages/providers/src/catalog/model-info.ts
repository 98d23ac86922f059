/** US dollars per million tokens of each kind; cache reads and writes cost what input does unless given. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number | undefined;
  cacheWrite?: number | undefined;
}

/** Anthropic's `thinking.type` values (`GET /v1/models` → `capabilities.thinking.types`). */
export type AnthropicThinkingType = 'adaptive' | 'enabled' | 'disabled' | 'between_tools';

/**
 * How a model reasons, in its vendor's own words, so a listing maps onto it without translation
 * (RFD 031). Each provider's reasoning mapper reads the fields its vendor uses.
 */
export interface ModelReasoning {
  /**
   * The effort values the model takes, lowest first: Anthropic `output_config.effort`, OpenAI
   * `reasoning.effort` (`none` included where it can stop), Gemini 3 `thinkingLevel`, OpenRouter
   * `reasoning.effort`.
   */
  efforts?: readonly string[] | undefined;
  /** Anthropic: the `thinking.type` values the model accepts. */
  thinkingTypes?: readonly AnthropicThinkingType[] | undefined;
  /** A thinking budget in tokens, inclusive (Anthropic `enabled`, Gemini 2.5 `thinkingBudget`); `off`: a budget of 0 stops thinking. */
  budget?: { min: number; max: number; off?: boolean | undefined } | undefined;
}

/** What jp knows of a model. Every fact is optional: a missing one is never guessed. */
export interface ModelFacts {
  /** Input and output together, in tokens. */
  contextWindow?: number | undefined;
  /** The largest output (`max_tokens`) it takes. */
  maxOutputTokens?: number | undefined;
  /** How it reasons; `false` when it does not. */
  reasoning?: ModelReasoning | false | undefined;
  /** The vendor's native structured output (`output_config.format`, strict `json_schema`, `responseJsonSchema`). */
  structuredOutput?: boolean | undefined;
  imageInput?: boolean | undefined;
  pdfInput?: boolean | undefined;
  price?: ModelPrice | undefined;
  /** Anthropic's preserved thinking: each thinking block is bound to the request prefix before it. */
  prefixBoundThinking?: boolean | undefined;
}

export const MODEL_FACT_KEYS = [
  'contextWindow',
  'maxOutputTokens',
  'reasoning',
  'structuredOutput',
  'imageInput',
  'pdfInput',
  'price',
  'prefixBoundThinking',
] as const satisfies ReadonlyArray<keyof ModelFacts>;

/** Where a fact came from, highest first: `providers.<p>.models` in config, the provider's cached listing, jp's shipped table. */
export type FactSource = 'config' | 'listing' | 'table';

/** One model as the catalog knows it, each fact with its source. */
export interface ModelInfo extends ModelFacts {
  /** `anthropic`, `openai`, … */
  provider: string;
  /** The model id without the provider, as the catalog matched it. */
  id: string;
  sources: Partial<Record<keyof ModelFacts, FactSource>>;
  /** The shipped row's page and the date it was read, or the listing's fetch date. */
  references: Partial<Record<FactSource, string>>;
}

/** One source's facts about one model. */
export interface CatalogLayer {
  source: FactSource;
  /** A page and date (the table), or a fetch date (a listing). */
  reference?: string | undefined;
  facts: ModelFacts;
}
