/** A row of the strict Ollama stand-in's model table, as /api/show reports it. */
export interface OllamaModel {
  name: string;
  architecture: string;
  contextLength: number;
  parameterSize: string;
  capabilities: string[];
}
export declare const OLLAMA_MODELS: OllamaModel[];
export declare function findOllamaModel(models: readonly OllamaModel[], name: unknown): OllamaModel | undefined;
export declare function ollamaShow(row: OllamaModel): Record<string, unknown>;
