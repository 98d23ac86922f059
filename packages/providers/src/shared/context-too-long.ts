/**
 * The wordings with which vendors refuse a request for being longer than the model's context:
 * Anthropic "prompt is too long: N tokens > M maximum"; OpenAI code `context_length_exceeded`,
 * "This model's maximum context length is …" / "Your input exceeds the context window of this
 * model"; Gemini "The input token count (N) exceeds the maximum number of tokens allowed (M)";
 * OpenRouter "This endpoint's maximum context length is …"; Ollama's OpenAI-compatible endpoint
 * "… exceeds the context length …". A 413 is a body too large for the endpoint: compacting helps
 * there too.
 */
const TOO_LONG =
  /prompt is too long|context_length_exceeded|maximum context length|exceeds the context (?:window|length)|context (?:window|length) (?:exceeded|of this model)|input token count.*exceeds the maximum|too many (?:input )?tokens/i;

/** Whether a vendor's refusal (HTTP status and its own message, or its error code) says the request is too long for the model. */
export function isContextTooLong(status: number, detail: string, code?: unknown): boolean {
  if (status === 413) return true;
  if (status !== 400 && status !== 422) return false;
  return code === 'context_length_exceeded' || TOO_LONG.test(detail);
}
