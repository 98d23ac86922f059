/** A row of the strict Anthropic stand-in's model table (see anthropic-models.mjs for the sources). */
export interface AnthropicModel {
  id: string;
  name: string;
  line: 'haiku' | 'sonnet' | 'opus' | 'fable' | 'mythos';
  created: string;
  /** Generation order: a thinking block from a higher rank is not readable by a lower one. */
  rank: number;
  context: number | null;
  maxTokens: number;
  thinking: { adaptive: boolean; enabled: boolean; disabled: boolean; between_tools: boolean };
  thinkingDefault: 'on' | 'off' | 'always';
  effort: string[] | null;
  effortDefault: string;
  offMaxEffort: string | null;
  disabledWording: 'adaptive' | 'preview' | 'between_tools';
  display: 'omitted' | 'summarized';
  structuredOutputs: boolean;
  systemMessages: boolean;
  prefill: boolean;
  prefixCheck: boolean;
  cacheMin: number;
  source: string;
}
export declare const ANTHROPIC_MODELS: AnthropicModel[];
export declare function findAnthropicModel(models: readonly AnthropicModel[], id: unknown): AnthropicModel | undefined;
