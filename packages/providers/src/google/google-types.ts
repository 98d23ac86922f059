// The wire types this package uses, taken from the SDK as types only (erased at runtime).
import type { Content, GenerateContentConfig, GenerateContentParameters } from '@google/genai';

export type {
  Content,
  GenerateContentConfig,
  GenerateContentResponse,
  GenerateContentResponseUsageMetadata,
  Part,
  ThinkingConfig,
} from '@google/genai';

/**
 * What `convertToGoogleRequest` builds: `GenerateContentParameters` with the contents always a
 * list of `Content`s (never a bare string or part) and a config always present.
 */
export type GoogleRequest = GenerateContentParameters & { contents: Content[]; config: GenerateContentConfig };
