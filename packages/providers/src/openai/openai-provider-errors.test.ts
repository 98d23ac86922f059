import { ProviderError, type ConversationEvent } from '@jp/core';
import {
  createWireServer,
  cutStream,
  openaiErrorResponse,
  openaiResponsesErrorEvent,
  openaiResponsesEvents,
  openaiResponsesFailedEvent,
  openaiResponsesTextStream,
  sseResponse,
} from '@jp/test-server';
import { describe, expect, it } from 'vitest';
import { collect, texts } from '../__fixtures__/collect-stream.ts';
import { turn } from '../__fixtures__/conversation.ts';
import { useWireServer } from '../__fixtures__/use-wire-server.ts';
import type { Provider, ProviderRequest } from '../provider.ts';
import { retryAfterMs } from '../retry-after.ts';
import { createOpenAIProvider } from './openai-provider.ts';

const server = useWireServer();

const provider = (overrides: { apiKey?: string; apiKeyEnv?: string; baseUrl?: string } = {}): Provider =>
  createOpenAIProvider({ apiKey: 'test-key', baseUrl: `${server.url}/v1`, ...overrides });

const request = (events: ConversationEvent[], extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  model: 'gpt-test',
  events,
  system: 'Be brief.',
  ...extra,
});

describe('openai provider errors', () => {
  const failure = async (events: ConversationEvent[] = turn('hi'), openai = provider()) => {
    const result = await collect(openai.stream(request(events)));
    expect(result.error).toBeInstanceOf(ProviderError);
    return { ...result, error: result.error as ProviderError };
  };

  it('refuses to send without a key, naming the variable', async () => {
    const { error } = await failure(turn('hi'), provider({ apiKey: '', apiKeyEnv: 'TEAM_OPENAI_KEY' }));

    expect(error.code).toBe('missing_api_key');
    expect(error.message).toBe('TEAM_OPENAI_KEY is not set; export it or set providers.openai.api_key_env');
    expect(error.exitCode).toBe(3);
    expect(server.requests).toHaveLength(0);
  });

  it('maps 401 and 403 to key_rejected, not retryable', async () => {
    server.enqueue(openaiErrorResponse(401, { message: 'Incorrect API key provided' }), openaiErrorResponse(403));

    const unauthorized = (await failure()).error;
    const forbidden = (await failure()).error;

    expect(unauthorized).toMatchObject({ code: 'key_rejected', statusCode: 401, isRetryable: false, provider: 'openai' });
    expect(unauthorized.message).toBe('openai rejected the API key (401: Incorrect API key provided); check OPENAI_API_KEY');
    expect(forbidden).toMatchObject({ code: 'key_rejected', statusCode: 403 });
  });

  it('maps 429 to a retryable rate_limited error with the SDK error as cause, and insufficient_quota to quota_exceeded', async () => {
    server.enqueue(openaiErrorResponse(429, { headers: { 'retry-after': '7' } }), openaiErrorResponse(429, { code: 'insufficient_quota', type: 'insufficient_quota' }));

    const { error } = await failure();
    const quota = (await failure()).error;

    expect(error).toMatchObject({ code: 'rate_limited', statusCode: 429, isRetryable: true });
    expect((error.cause as { status?: number }).status).toBe(429);
    expect(retryAfterMs(error)).toBe(7000);
    expect(quota).toMatchObject({ code: 'quota_exceeded', statusCode: 429, isRetryable: false });
    expect(server.requests).toHaveLength(2); // the SDK itself did not retry
  });

  it('maps 500 and 503 to retryable server errors and 400 to a non-retryable bad_request', async () => {
    server.enqueue(openaiErrorResponse(500), openaiErrorResponse(503), openaiErrorResponse(400, { message: 'Invalid schema for response_format' }));

    const [internal, unavailable, bad] = [(await failure()).error, (await failure()).error, (await failure()).error];

    expect(internal).toMatchObject({ code: 'server_error', statusCode: 500, isRetryable: true });
    expect(unavailable).toMatchObject({ code: 'server_error', statusCode: 503, isRetryable: true });
    expect(bad).toMatchObject({ code: 'bad_request', statusCode: 400, isRetryable: false });
    expect(bad.message).toBe('openai refused the request (400): Invalid schema for response_format');
  });

  it('turns a connection reset mid-answer into a retryable ProviderError after the deltas already sent', async () => {
    const stream = openaiResponsesTextStream(['Hello ', 'wor', 'ld']);
    const firstDelta = stream.chunks.findIndex((chunk) => chunk.includes('response.output_text.delta'));
    server.enqueue(cutStream(stream, firstDelta + 1, 'destroy'));

    const { events, error } = await failure();

    expect(texts(events)).toEqual(['Hello ']);
    expect(events.some((event) => event.type === 'finish')).toBe(false);
    expect(error).toMatchObject({ code: 'connection_error', isRetryable: true });
    expect(error.message).toBe(`connection to openai at ${server.url}/v1 failed: other side closed`);
  });

  it('turns a stream that ends cleanly before response.completed into stream_incomplete', async () => {
    const stream = openaiResponsesTextStream(['Hello ', 'world']);
    server.enqueue(cutStream(stream, stream.chunks.length - 1, 'end'));

    const { events, error } = await failure();

    expect(texts(events)).toEqual(['Hello ', 'world']);
    expect(error).toMatchObject({ code: 'stream_incomplete', isRetryable: true });
  });

  it('maps error and response.failed events inside the stream to stream errors', async () => {
    const head = openaiResponsesEvents([{ type: 'text', text: ['Hi'] }]).slice(0, 5);
    server.enqueue(
      sseResponse([...head, openaiResponsesErrorEvent('The server had an error', 'server_error')]),
      sseResponse([...head, openaiResponsesFailedEvent('Invalid prompt', 'invalid_prompt')]),
    );

    const serverError = (await failure()).error;
    const failed = (await failure()).error;

    expect(serverError).toMatchObject({ code: 'stream_error', isRetryable: true });
    expect(serverError.message).toBe('openai stream error (server_error): The server had an error');
    expect(failed).toMatchObject({ code: 'stream_error', isRetryable: false });
    expect(failed.message).toBe('openai stream error (invalid_prompt): Invalid prompt');
  });

  it('maps a refused connection on this machine to a connection_refused that is not retried and says what to do', async () => {
    const closed = await createWireServer();
    await closed.close();

    const { error } = await failure(turn('hi'), provider({ baseUrl: `${closed.url}/v1` }));

    expect(error).toMatchObject({ code: 'connection_refused', isRetryable: false });
    expect(error.message).toBe(`cannot connect to openai at ${closed.url}/v1 (connection refused); start the server or set providers.openai.base_url`);
  });
});
