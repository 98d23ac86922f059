import { describe, expect, it } from 'vitest';
import { googleErrorChunk, googleErrorResponse, googleFunctionCallStream, googleStreamChunks, googleTextStream } from './google-responses.mjs';

const dataOf = (chunk: string) => JSON.parse(chunk.replace(/^data: /, '')) as Record<string, any>;

describe('google answers', () => {
  it('streams one GenerateContentResponse per part; only the last carries finishReason and the full usage', () => {
    const events = googleStreamChunks(
      [
        { type: 'text', text: 'Hel' },
        { type: 'text', text: 'lo' },
      ],
      { usage: { promptTokenCount: 3, candidatesTokenCount: 2, cachedContentTokenCount: 1 }, finishReason: 'MAX_TOKENS' },
    );

    expect(events.map((event) => event.event)).toEqual([undefined, undefined]);
    expect(events[0]?.data).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }],
      usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 },
      modelVersion: 'gemini-wire-server',
      responseId: 'wire-server-response',
    });
    expect(events[1]?.data).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'lo' }] }, index: 0, finishReason: 'MAX_TOKENS' }],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, cachedContentTokenCount: 1, totalTokenCount: 15 },
      modelVersion: 'gemini-wire-server',
      responseId: 'wire-server-response',
    });
  });

  it('frames a text stream as SSE data lines, word by word, finishing with STOP', () => {
    const response = googleTextStream('ok then', { thoughts: 'hmm' });

    expect(response.headers).toEqual({ 'content-type': 'text/event-stream' });
    expect(response.chunks).toHaveLength(3);
    expect(response.chunks.every((chunk) => chunk.startsWith('data: {') && chunk.endsWith('}\n\n'))).toBe(true);
    expect(response.chunks.map((chunk) => dataOf(chunk).candidates[0].content.parts[0])).toEqual([
      { text: 'hmm', thought: true },
      { text: 'ok ' },
      { text: 'then' },
    ]);
    expect(dataOf(response.chunks[2]!).candidates[0].finishReason).toBe('STOP');
  });

  it('leaves finishReason out when asked, for a stream that never finishes', () => {
    const [only] = googleStreamChunks([{ type: 'text', text: 'x' }], { finishReason: null });
    expect((only?.data as Record<string, any>).candidates[0]).not.toHaveProperty('finishReason');
  });

  it('sends function calls whole, after optional text, with id and signature only when given', () => {
    const response = googleFunctionCallStream(
      [
        { name: 'refresh_resource', args: { uri: 'file:///a' }, id: 'fc-1', thoughtSignature: 'sig' },
        { name: 'noop', args: {} },
      ],
      { text: 'Let me look.' },
    );

    const parts = response.chunks.map((chunk) => dataOf(chunk).candidates[0].content.parts[0]);
    expect(parts).toEqual([
      { text: 'Let ' },
      { text: 'me ' },
      { text: 'look.' },
      { functionCall: { name: 'refresh_resource', args: { uri: 'file:///a' }, id: 'fc-1' }, thoughtSignature: 'sig' },
      { functionCall: { name: 'noop', args: {} } },
    ]);
  });

  it('builds Gemini error bodies with the gRPC status of the code', () => {
    expect(googleErrorResponse(429, { headers: { 'retry-after': '3' } })).toEqual({
      type: 'json',
      status: 429,
      headers: { 'retry-after': '3' },
      body: { error: { code: 429, message: 'wire-server: scripted 429 RESOURCE_EXHAUSTED', status: 'RESOURCE_EXHAUSTED' } },
    });
    expect(googleErrorResponse(401).body).toMatchObject({ error: { status: 'UNAUTHENTICATED' } });
    expect(googleErrorResponse(418).body).toMatchObject({ error: { code: 418, status: 'UNKNOWN' } });
    expect(googleErrorChunk()).toEqual({ data: { error: { code: 503, message: 'wire-server: scripted 503 UNAVAILABLE', status: 'UNAVAILABLE' } } });
  });
});
