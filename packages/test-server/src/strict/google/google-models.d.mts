/** A row of the strict Gemini stand-in's model table: a budget range (2.5) or thinking levels (3.x). */
export interface GoogleModel {
  id: string;
  displayName: string;
  inputTokenLimit: number;
  outputTokenLimit: number;
  budget: { min: number; max: number; canDisable: boolean } | null;
  levels: string[] | null;
  levelDefault: string | null;
  source: string;
}
export declare const GOOGLE_MODELS: GoogleModel[];
export declare function findGoogleModel(models: readonly GoogleModel[], id: unknown): GoogleModel | undefined;
export declare function googleModelInfo(row: GoogleModel): Record<string, unknown>;
