import { lookupModel } from '../catalog/lookup-model.ts';
import { ProviderError, type ConversationEvent } from '@jp/core';
import {
  anthropicErrorEvent,
  anthropicErrorResponse,
  anthropicStreamEvents,
  anthropicTextStream,
  anthropicToolUseStream,
  createWireServer,
  cutStream,
  formatSseEvent,
  sseResponse,
} from '@jp/test-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collect, texts } from '../__fixtures__/collect-stream.ts';
import { blobResource, PDF_BYTES, textResource, turn } from '../__fixtures__/conversation.ts';
import { describeProviderContract } from '../__fixtures__/provider-contract.ts';
import { useWireServer } from '../__fixtures__/use-wire-server.ts';
import type { Provider, ProviderRequest, StreamEvent } from '../provider.ts';
import { retryAfterMs } from '../retry-after.ts';
import { createAnthropicProvider } from './anthropic-provider.ts';

const server = useWireServer();
afterEach(() => {
  vi.unstubAllEnvs();
});

const provider = (overrides: { apiKey?: string; apiKeyEnv?: string; baseUrl?: string } = {}): Provider =>
  createAnthropicProvider({ apiKey: 'test-key', baseUrl: server.url, ...overrides });

const request = (events: ConversationEvent[]): ProviderRequest => ({ model: 'claude-test', events, system: 'Be brief.' });

describe('anthropic provider against a local wire server', () => {
  it('posts the converted request with the key and anthropic-version, and streams the answer', async () => {
    server.enqueue(
      anthropicTextStream(['The ', 'file ', 'says hi.'], {
        usage: { input_tokens: 42, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 },
      }),
    );
    const events = turn('Summarise', [
      textResource('file:///w/a.txt', 'hi\n', { name: 'a.txt' }),
      blobResource('file:///w/doc.pdf', 'application/pdf', PDF_BYTES, { title: 'The PDF' }),
    ]);
    const anthropic = provider();

    const result = await collect(anthropic.stream(request(events)));

    expect(result.error).toBeUndefined();
    expect(result.events).toEqual([
      { type: 'text-delta', text: 'The ' },
      { type: 'text-delta', text: 'file ' },
      { type: 'text-delta', text: 'says hi.' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 162, outputTokens: 7, cacheReadTokens: 100, cacheWriteTokens: 20 }, call: { id: expect.stringMatching(/^msg_/) } },
    ]);
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect([sent.method, sent.path]).toEqual(['POST', '/v1/messages']);
    expect(sent.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/); // the SDK's API version (2026-10-21 in 1.12.0)
    expect(sent.headers.authorization).toBe('Bearer test-key'); // SDK 1.12 sends the key as a bearer token
    expect(sent.headers['x-api-key']).toBeUndefined();
    expect(sent.body).toEqual(anthropic.buildRequest(request(events)).request);
    expect(sent.body).toMatchObject({
      model: 'claude-test',
      stream: true,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Summarise' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hi\n' }, title: 'a.txt', context: 'uri: file:///w/a.txt' },
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from(PDF_BYTES).toString('base64') },
              title: 'The PDF',
              context: 'uri: file:///w/doc.pdf',
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
      ],
    });
  });

  it('yields text deltas as they arrive, before the answer is complete', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const chunks = anthropicStreamEvents([{ type: 'text', text: ['first', ' second'] }]).map(formatSseEvent);
    server.enqueue({
      type: 'handler',
      handle: async (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(chunks.slice(0, 4).join('')); // up to the first text delta
        await released;
        response.end(chunks.slice(4).join(''));
      },
    });

    const seen: StreamEvent[] = [];
    for await (const event of provider().stream(request(turn('hi')))) {
      seen.push(event);
      if (seen.length === 1) release(); // the server holds the rest until the first delta got here
    }

    expect(texts(seen)).toEqual(['first', ' second']);
    expect(seen.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
  });

  it('streams thinking as reasoning deltas, then the signed block to keep and where the text sat, and maps max_tokens to length', async () => {
    server.enqueue(sseResponse(anthropicStreamEvents([{ type: 'thinking', thinking: ['Hmm', '.'] }, { type: 'text', text: 'Ok' }], { stopReason: 'max_tokens' })));

    const { events } = await collect(provider().stream(request(turn('think'))));

    expect(events.map((event) => event.type)).toEqual(['reasoning-delta', 'reasoning-delta', 'text-delta', 'reasoning-opaque', 'reasoning-opaque', 'finish']);
    expect(events.filter((event) => event.type === 'reasoning-opaque').map((event) => event.item.type)).toEqual(['thinking', 'jp_text']);
    expect(events.at(-1)).toMatchObject({ reason: 'length' });
  });

  it('yields converter warnings before the answer', async () => {
    server.enqueue(anthropicTextStream('ok'));
    const events = turn('play', [blobResource('file:///w/a.wav', 'audio/wav', new Uint8Array([1]))]);

    const result = await collect(provider().stream(request(events)));

    expect(result.events[0]).toEqual({ type: 'warning', message: 'audio/wav is not supported by anthropic; skipped file:///w/a.wav' });
    expect(texts(result.events)).toEqual(['ok']);
  });

  it('uses the given key and base URL even when ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY are set', async () => {
    vi.stubEnv('ANTHROPIC_BASE_URL', 'http://127.0.0.1:9/never');
    vi.stubEnv('ANTHROPIC_API_KEY', 'key-from-env');
    server.enqueue(anthropicTextStream('ok'));

    const { error } = await collect(provider({ apiKey: 'explicit-key' }).stream(request(turn('hi'))));

    expect(error).toBeUndefined();
    const headers = server.requests[0]?.headers;
    expect(headers?.authorization).toBe('Bearer explicit-key');
    expect(JSON.stringify(headers)).not.toContain('key-from-env');
  });
});

describe('anthropic provider errors', () => {
  const failure = async (events: ConversationEvent[] = turn('hi'), anthropic = provider()) => {
    const result = await collect(anthropic.stream(request(events)));
    expect(result.error).toBeInstanceOf(ProviderError);
    return { ...result, error: result.error as ProviderError };
  };

  it('refuses to send without a key, naming the variable', async () => {
    const { error } = await failure(turn('hi'), provider({ apiKey: '', apiKeyEnv: 'MY_ANTHROPIC_KEY' }));

    expect(error.code).toBe('missing_api_key');
    expect(error.message).toBe('MY_ANTHROPIC_KEY is not set; export it or set providers.anthropic.api_key_env');
    expect(error.exitCode).toBe(3);
    expect(server.requests).toHaveLength(0);
  });

  it('maps 401 and 403 to key_rejected, not retryable', async () => {
    server.enqueue(anthropicErrorResponse(401, { message: 'invalid x-api-key' }), anthropicErrorResponse(403));

    const unauthorized = (await failure()).error;
    const forbidden = (await failure()).error;

    expect(unauthorized).toMatchObject({ code: 'key_rejected', statusCode: 401, isRetryable: false, provider: 'anthropic' });
    expect(unauthorized.message).toBe('anthropic rejected the API key (401: invalid x-api-key); check ANTHROPIC_API_KEY');
    expect(forbidden).toMatchObject({ code: 'key_rejected', statusCode: 403 });
  });

  it('maps 429 to a retryable rate_limited error and keeps retry-after readable', async () => {
    server.enqueue(anthropicErrorResponse(429, { headers: { 'retry-after': '7' } }));

    const { error } = await failure();

    expect(error).toMatchObject({ code: 'rate_limited', statusCode: 429, isRetryable: true });
    expect(retryAfterMs(error)).toBe(7000);
    expect(server.requests).toHaveLength(1); // the SDK itself did not retry
  });

  it('maps 500 and 529 to retryable server errors and 400 to a non-retryable bad_request', async () => {
    server.enqueue(anthropicErrorResponse(500), anthropicErrorResponse(529), anthropicErrorResponse(400, { message: 'max_tokens: too big' }));

    const [internal, overloaded, bad] = [(await failure()).error, (await failure()).error, (await failure()).error];

    expect(internal).toMatchObject({ code: 'server_error', statusCode: 500, isRetryable: true });
    expect(overloaded).toMatchObject({ code: 'server_error', statusCode: 529, isRetryable: true });
    expect(bad).toMatchObject({ code: 'bad_request', statusCode: 400, isRetryable: false });
    expect(bad.message).toContain('max_tokens: too big');
  });

  it('turns a connection reset mid-answer into a retryable ProviderError after the deltas already sent', async () => {
    server.enqueue(cutStream(anthropicTextStream(['Hello ', 'wor', 'ld']), 4, 'destroy'));

    const { events, error } = await failure();

    expect(texts(events)).toEqual(['Hello ']);
    expect(events.some((event) => event.type === 'finish')).toBe(false);
    expect(error).toMatchObject({ code: 'connection_error', isRetryable: true });
    expect(error.message).toBe(`connection to anthropic at ${server.url} failed: other side closed`);
  });

  it('turns a stream that ends cleanly before message_stop into stream_incomplete', async () => {
    server.enqueue(cutStream(anthropicTextStream(['Hello ', 'world']), 5, 'end'));

    const { events, error } = await failure();

    expect(texts(events)).toEqual(['Hello ', 'world']);
    expect(error).toMatchObject({ code: 'stream_incomplete', isRetryable: true });
  });

  it('maps an error event inside the stream (overloaded) to a retryable stream_error', async () => {
    const events = anthropicStreamEvents([{ type: 'text', text: ['Hi'] }]);
    server.enqueue(sseResponse([...events.slice(0, 4), anthropicErrorEvent('overloaded_error', 'Overloaded')]));

    const { error } = await failure();

    expect(error).toMatchObject({ code: 'stream_error', isRetryable: true });
    expect(error.message).toBe('anthropic stream error (overloaded_error): Overloaded');
  });

  it('maps a refused connection on this machine to a connection_refused that is not retried and says what to do', async () => {
    const closed = await createWireServer();
    await closed.close();

    const { error } = await failure(turn('hi'), provider({ baseUrl: closed.url }));

    expect(error).toMatchObject({ code: 'connection_refused', isRetryable: false });
    expect(error.message).toBe(`cannot connect to anthropic at ${closed.url} (connection refused); start the server or set providers.anthropic.base_url`);
  });
});

describeProviderContract((url) => createAnthropicProvider({ apiKey: 'test-key', baseUrl: url }), {
  textAnswer: anthropicTextStream,
  toolCallAnswer: (call, text) => anthropicToolUseStream({ id: call.id, name: call.name, input: call.arguments }, { text }),
  errorAnswer: anthropicErrorResponse,
  messages: (body) => (body as { messages: unknown[] }).messages,
  reasoning: (body) => (body as { thinking?: unknown }).thinking,
}, { model: 'claude-sonnet-4-5', info: lookupModel('anthropic', 'claude-sonnet-4-5') });
