/** A row of the strict OpenAI stand-in's model table; `efforts: null` is a model without reasoning. */
export interface OpenAIModel {
  id: string;
  efforts: string[] | null;
  effortDefault: string | null;
  context: number;
  maxOutput: number;
  created: number;
  source: string;
}
export declare const OPENAI_MODELS: OpenAIModel[];
export declare function findOpenAIModel(models: readonly OpenAIModel[], id: unknown): OpenAIModel | undefined;
export declare function quotedList(values: readonly string[]): string;
