import type { GoogleGenAI } from '@google/genai';

export interface GoogleClientOptions {
  apiKey: string;
  baseUrl: string;
  apiVersion: string;
}

/**
 * Loads `@google/genai` (only now: it is slow to load) and builds a Gemini API client from explicit
 * settings only: the key, the base URL, the API version and `vertexai: false`, so neither
 * GEMINI_API_KEY/GOOGLE_API_KEY, GOOGLE_GEMINI_BASE_URL nor GOOGLE_GENAI_USE_VERTEXAI can change
 * where a request goes or who it bills, and the SDK never reaches for application-default
 * credentials (with a key it never creates its Google auth client).
 *
 * The constructor still reads the key variables, and when both are set it prints "Both
 * GOOGLE_API_KEY and GEMINI_API_KEY are set. Using GOOGLE_API_KEY." although it uses the key it
 * was given. That line would be false and land on the user's stderr at every query, so
 * `console.warn` is muted for the (synchronous) constructor call only.
 */
export async function createGoogleClient(options: GoogleClientOptions): Promise<GoogleGenAI> {
  const { GoogleGenAI } = await import('@google/genai');
  const warn = console.warn;
  console.warn = () => {};
  try {
    return new GoogleGenAI({
      apiKey: options.apiKey,
      vertexai: false,
      apiVersion: options.apiVersion,
      httpOptions: { baseUrl: options.baseUrl },
    });
  } finally {
    console.warn = warn;
  }
}
