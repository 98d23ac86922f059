import { ProviderError, type ConversationEvent } from '@jp/core';
import { createWireServer, cutStream, googleErrorChunk, googleErrorResponse, googleStreamChunks, googleTextStream, sseResponse } from '@jp/test-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collect, texts } from '../__fixtures__/collect-stream.ts';
import { turn } from '../__fixtures__/conversation.ts';
import { useWireServer } from '../__fixtures__/use-wire-server.ts';
import type { ProviderRequest } from '../provider.ts';
import { createGoogleProvider } from './google-provider.ts';

const server = useWireServer();
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const provider = (overrides: { apiKey?: string; apiKeyEnv?: string; baseUrl?: string } = {}) =>
  createGoogleProvider({ apiKey: 'test-key', baseUrl: server.url, ...overrides });

const request = (events: ConversationEvent[]): ProviderRequest => ({ model: 'gemini-test', events });

/** What this process has started that could still reach a server: sockets, DNS look-ups, timers. */
const inFlight = () => process.getActiveResourcesInfo().filter((kind) => /TCP|TLS|GetAddrInfo|Timeout/.test(kind)).sort();

const failure = async (events: ConversationEvent[] = turn('hi'), google = provider()) => {
  const result = await collect(google.stream(request(events)));
  expect(result.error).toBeInstanceOf(ProviderError);
  return { ...result, error: result.error as ProviderError };
};

/** Everything the SDK (and google-auth-library under it) reads from the environment on its own. */
function stubGoogleEnvironment(url: string) {
  vi.stubEnv('GEMINI_API_KEY', 'key-from-env');
  vi.stubEnv('GOOGLE_API_KEY', 'other-key-from-env');
  vi.stubEnv('GOOGLE_GEMINI_BASE_URL', 'http://127.0.0.1:9/never');
  vi.stubEnv('GOOGLE_VERTEX_BASE_URL', 'http://127.0.0.1:9/never');
  vi.stubEnv('GOOGLE_GENAI_USE_VERTEXAI', 'true');
  vi.stubEnv('GOOGLE_GENAI_USE_ENTERPRISE', 'true');
  vi.stubEnv('GOOGLE_GENAI_API_VERSION', 'v1alpha');
  vi.stubEnv('GOOGLE_CLOUD_PROJECT', 'someone-elses-project');
  vi.stubEnv('GOOGLE_CLOUD_LOCATION', 'us-central1');
  // Where google-auth-library looks for the metadata server: any credential probe lands on the wire server.
  vi.stubEnv('GCE_METADATA_HOST', new URL(url).host);
  vi.stubEnv('GCE_METADATA_IP', new URL(url).host);
}

describe('google provider: keys and the environment', () => {
  it('refuses to send without a key, naming the variable, before any request (no credential fallback)', async () => {
    stubGoogleEnvironment(server.url);
    const before = inFlight();
    const { error } = await failure(turn('hi'), provider({ apiKey: '', apiKeyEnv: 'MY_GEMINI_KEY' }));

    expect(error.code).toBe('missing_api_key');
    expect(error.message).toBe('MY_GEMINI_KEY is not set; export it or set providers.google.api_key_env');
    expect(error.exitCode).toBe(3);
    // No stray probe can still arrive: once what was queued has run, no socket, look-up or timer was started.
    await new Promise((resolve) => setImmediate(resolve));
    expect(inFlight()).toEqual(before);
    expect(server.requests).toHaveLength(0); // not the API, not the metadata server
  });

  it('names GEMINI_API_KEY by default and treats an undefined key like an empty one', async () => {
    const { error } = await failure(turn('hi'), createGoogleProvider({ baseUrl: server.url }));

    expect(error.message).toBe('GEMINI_API_KEY is not set; export it or set providers.google.api_key_env');
    expect(server.requests).toHaveLength(0);
  });

  it('uses the given key, base URL and API version whatever the environment says, without SDK noise on stderr', async () => {
    stubGoogleEnvironment(server.url);
    server.enqueue(googleTextStream('ok'));
    const warn = vi.spyOn(console, 'warn');

    const { events, error } = await collect(provider({ apiKey: 'explicit-key' }).stream(request(turn('hi'))));

    expect(warn).not.toHaveBeenCalled(); // not "Both GOOGLE_API_KEY and GEMINI_API_KEY are set. Using GOOGLE_API_KEY."

    expect(error).toBeUndefined();
    expect(texts(events)).toEqual(['ok']);
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1beta/models/gemini-test:streamGenerateContent'); // Gemini API, not Vertex's projects/… path
    expect(sent.headers['x-goog-api-key']).toBe('explicit-key');
    expect(JSON.stringify(sent.headers)).not.toContain('key-from-env');
    expect(sent.headers.authorization).toBeUndefined();
  });
});

describe('google provider errors', () => {
  it('maps 401 and 403 to key_rejected, not retryable, naming the variable', async () => {
    server.enqueue(
      googleErrorResponse(401, { message: 'API key not valid. Please pass a valid API key.' }),
      googleErrorResponse(403, { message: 'Permission denied.' }),
    );

    const unauthorized = (await failure()).error;
    const forbidden = (await failure()).error;

    expect(unauthorized).toMatchObject({ code: 'key_rejected', statusCode: 401, isRetryable: false, provider: 'google' });
    expect(unauthorized.message).toBe(
      'google rejected the API key (401: UNAUTHENTICATED: API key not valid. Please pass a valid API key.); check GEMINI_API_KEY',
    );
    expect(forbidden).toMatchObject({ code: 'key_rejected', statusCode: 403 });
  });

  it('maps 429 to a retryable rate_limited error with the SDK error as cause, and the SDK does not retry', async () => {
    server.enqueue(googleErrorResponse(429, { message: 'Resource has been exhausted (e.g. check quota).' }));

    const { error } = await failure();

    expect(error).toMatchObject({ code: 'rate_limited', statusCode: 429, isRetryable: true });
    expect(error.message).toBe('google rate limit reached (429): RESOURCE_EXHAUSTED: Resource has been exhausted (e.g. check quota).');
    expect(error.cause).toMatchObject({ name: 'ApiError', status: 429 });
    expect(server.requests).toHaveLength(1);
  });

  it('maps 500 and 503 to retryable server errors (one request each) and 400 to a non-retryable bad_request', async () => {
    server.enqueue(googleErrorResponse(500), googleErrorResponse(503), googleErrorResponse(400, { message: 'Invalid JSON payload' }));

    const [internal, unavailable, bad] = [(await failure()).error, (await failure()).error, (await failure()).error];

    expect(internal).toMatchObject({ code: 'server_error', statusCode: 500, isRetryable: true });
    expect(unavailable).toMatchObject({ code: 'server_error', statusCode: 503, isRetryable: true });
    expect(bad).toMatchObject({ code: 'bad_request', statusCode: 400, isRetryable: false });
    expect(bad.message).toBe('google refused the request (400): INVALID_ARGUMENT: Invalid JSON payload');
    expect(server.requests).toHaveLength(3);
  });

  it('turns a connection reset mid-answer into a retryable ProviderError after the deltas already sent', async () => {
    server.enqueue(cutStream(googleTextStream(['Hello ', 'wor', 'ld']), 1, 'destroy'));

    const { events, error } = await failure();

    expect(texts(events)).toEqual(['Hello ']);
    expect(events.some((event) => event.type === 'finish')).toBe(false);
    expect(error).toMatchObject({ code: 'connection_error', isRetryable: true });
    expect(error.message).toBe(`connection to google at ${server.url} failed: other side closed`);
    expect(server.requests).toHaveLength(1); // no automatic continuation
  });

  it('turns a stream that ends cleanly without a finish reason into stream_incomplete', async () => {
    server.enqueue(cutStream(googleTextStream(['Hello ', 'world', '!']), 2, 'end'));

    const { events, error } = await failure();

    expect(texts(events)).toEqual(['Hello ', 'world']);
    expect(error).toMatchObject({ code: 'stream_incomplete', isRetryable: true });
    expect(server.requests).toHaveLength(1);
  });

  it('turns a body that stops inside an event into stream_incomplete', async () => {
    const [first, second] = googleStreamChunks([{ type: 'text', text: 'Hi' }, { type: 'text', text: ' there' }]).map((event) => JSON.stringify(event.data));
    server.enqueue({ type: 'stream', chunks: [`data: ${first}\n\n`, `data: ${second!.slice(0, 20)}`] });

    const { events, error } = await failure();

    expect(texts(events)).toEqual(['Hi']);
    expect(error).toMatchObject({ code: 'stream_incomplete', isRetryable: true });
  });

  it('maps an error object inside the stream (503) to a retryable server error', async () => {
    const chunks = googleStreamChunks([{ type: 'text', text: 'Hi' }, { type: 'text', text: '!' }], { finishReason: null });
    server.enqueue(sseResponse([chunks[0]!, googleErrorChunk(503, { message: 'The model is overloaded.' })]));

    const { events, error } = await failure();

    expect(texts(events)).toEqual(['Hi']);
    expect(error).toMatchObject({ code: 'server_error', statusCode: 503, isRetryable: true });
    expect(error.message).toBe('google server error (503): UNAVAILABLE: The model is overloaded.');
  });

  it('maps a refused connection on this machine to a connection_refused that is not retried and says what to do', async () => {
    const closed = await createWireServer();
    await closed.close();

    const { error } = await failure(turn('hi'), provider({ baseUrl: closed.url }));

    expect(error).toMatchObject({ code: 'connection_refused', isRetryable: false });
    expect(error.message).toBe(`cannot connect to google at ${closed.url} (connection refused); start the server or set providers.google.base_url`);
  });
});
