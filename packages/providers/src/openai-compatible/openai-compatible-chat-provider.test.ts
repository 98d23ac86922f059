import { lookupModel } from '../catalog/lookup-model.ts';
import { ProviderError, type ConversationEvent } from '@jp/core';
import {
  cutStream,
  openaiChatChunks,
  openaiChatErrorChunk,
  openaiChatTextStream,
  openaiChatToolCallStream,
  openaiErrorResponse,
  sseResponse,
} from '@jp/test-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countCacheControl } from '../__fixtures__/cache-control.ts';
import { blobResource, chatResponse, PDF_BYTES, textResource, turn } from '../__fixtures__/conversation.ts';
import { collect, texts } from '../__fixtures__/collect-stream.ts';
import { describeProviderContract, type ProviderContractWire } from '../__fixtures__/provider-contract.ts';
import { useWireServer } from '../__fixtures__/use-wire-server.ts';
import type { ProviderRequest, ProviderSettings } from '../provider.ts';
import { retryAfterMs } from '../retry-after.ts';
import { createOpenAICompatibleChatProvider } from './openai-compatible-chat-provider.ts';
import type { OpenAICompatibleVendor } from './openai-compatible-vendor.ts';

const server = useWireServer();
afterEach(() => {
  vi.unstubAllEnvs();
});

const provider = (vendor: OpenAICompatibleVendor = 'openrouter', overrides: ProviderSettings = {}) =>
  createOpenAICompatibleChatProvider(vendor, { apiKey: vendor === 'ollama' ? undefined : 'or-key', baseUrl: `${server.url}/v1`, ...overrides });

const request = (events: ConversationEvent[], extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  model: 'meta-llama/llama-test',
  events,
  system: 'Be brief.',
  ...extra,
});

describe('openrouter through the chat-completions provider', () => {
  it('posts to /v1/chat/completions with the key and streams the answer with usage incl. cache reads and writes', async () => {
    server.enqueue(
      openaiChatTextStream(['Hel', 'lo.'], {
        usage: { prompt_tokens: 300, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 250, cache_write_tokens: 40 } },
      }),
    );
    const events = turn('Summarise', [textResource('file:///w/a.txt', 'hi', { name: 'a.txt' }), blobResource('file:///w/d.pdf', 'application/pdf', PDF_BYTES)]);
    const openrouter = provider();

    const result = await collect(openrouter.stream(request(events)));

    expect(result.error).toBeUndefined();
    expect(result.events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo.' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 300, outputTokens: 2, cacheReadTokens: 250, cacheWriteTokens: 40 } },
    ]);
    const sent = server.requests[0]!;
    expect([sent.method, sent.path, sent.headers.authorization]).toEqual(['POST', '/v1/chat/completions', 'Bearer or-key']);
    expect(sent.body).toEqual(openrouter.buildRequest(request(events)).request);
    expect(sent.body).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "Be brief.",
            "role": "system",
          },
          {
            "content": [
              {
                "text": "Summarise",
                "type": "text",
              },
              {
                "text": "<resource uri="file:///w/a.txt" name="a.txt" mimeType="text/plain"><![CDATA[hi]]></resource>",
                "type": "text",
              },
              {
                "file": {
                  "file_data": "data:application/pdf;base64,JVBERi0xLjQKJeLjz9MKMSAwIG9iago8PD4+CmVuZG9iago=",
                  "filename": "d.pdf",
                },
                "type": "file",
              },
            ],
            "role": "user",
          },
        ],
        "model": "meta-llama/llama-test",
        "stream": true,
        "stream_options": {
          "include_usage": true,
        },
      }
    `);
  });

  it('sends cache markers only for anthropic/ and google/ model slugs', async () => {
    server.enqueue(openaiChatTextStream('a'), openaiChatTextStream('b'), openaiChatTextStream('c'));
    const events = [...turn('one', [textResource('file:///w/a.txt', 'a')], chatResponse('1')), ...turn('two')];

    for (const model of ['anthropic/claude-sonnet-4.5', 'google/gemini-2.5-pro', 'openai/gpt-4o']) {
      expect((await collect(provider().stream(request(events, { model })))).error).toBeUndefined();
    }

    expect(server.requests.map((sent) => [(sent.body as { model: string }).model, countCacheControl(sent.body)])).toEqual([
      ['anthropic/claude-sonnet-4.5', 2],
      ['google/gemini-2.5-pro', 2],
      ['openai/gpt-4o', 0],
    ]);
    expect(server.requests[0]?.body).toMatchObject({
      messages: [{ role: 'system' }, { role: 'user', content: [{ text: 'one' }, { cache_control: { type: 'ephemeral' } }] }, {}, { content: [{ text: 'two', cache_control: { type: 'ephemeral' } }] }],
    });
  });

  it('assembles tool calls from their deltas and finishes with tool-calls; reasoning deltas come through', async () => {
    server.enqueue(
      sseResponse(
        openaiChatChunks([
          { type: 'reasoning', reasoning: ['Need ', 'a file.'] },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_call', id: 'call_1', name: 'refresh_resource', arguments: { uri: 'file:///w/a.txt' } },
          { type: 'tool_call', id: 'call_2', name: 'refresh_resource', arguments: {} },
        ]),
      ),
    );

    const { events, error } = await collect(provider().stream(request(turn('refresh'))));

    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'Need ' },
      { type: 'reasoning-delta', text: 'a file.' },
      { type: 'text-delta', text: 'Checking.' },
      { type: 'tool-call', id: 'call_1', name: 'refresh_resource', arguments: { uri: 'file:///w/a.txt' } },
      { type: 'tool-call', id: 'call_2', name: 'refresh_resource', arguments: {} },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 10, outputTokens: 5 } },
    ]);
  });

  it('accepts a stream without [DONE] or usage, and maps finish_reason length', async () => {
    server.enqueue(openaiChatTextStream('cut short', { done: false, usage: null, finishReason: 'length' }));

    const { events, error } = await collect(provider().stream(request(turn('long'))));

    expect(error).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'length', usage: {} });
  });

  it('uses the given key and base URL even when OPENAI_* variables are set', async () => {
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/never');
    vi.stubEnv('OPENAI_API_KEY', 'key-from-env');
    vi.stubEnv('OPENAI_ORG_ID', 'org-from-env');
    server.enqueue(openaiChatTextStream('ok'));

    expect((await collect(provider().stream(request(turn('hi'))))).error).toBeUndefined();
    const headers = server.requests[0]?.headers;
    expect(headers?.authorization).toBe('Bearer or-key');
    expect(JSON.stringify(headers)).not.toMatch(/key-from-env|org-from-env/);
  });
});

describe('ollama through the chat-completions provider', () => {
  it('needs no key: the SDK is given a placeholder, and the request carries no cache markers', async () => {
    server.enqueue(openaiChatTextStream('local answer'));

    const result = await collect(provider('ollama').stream(request(turn('hi', [textResource('file:///w/a.txt', 'a')]), { model: 'llama3.2' })));

    expect(result.error).toBeUndefined();
    expect(texts(result.events).join('')).toBe('local answer');
    const sent = server.requests[0]!;
    expect([sent.path, sent.headers.authorization]).toEqual(['/v1/chat/completions', 'Bearer ollama']);
    expect(countCacheControl(sent.body)).toBe(0);
  });

  it('defaults to http://127.0.0.1:11434/v1 (and OpenRouter to https://openrouter.ai/api/v1)', async () => {
    const urls: string[] = [];
    const body = openaiChatTextStream('ok').chunks.join('');
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    });
    try {
      await collect(createOpenAICompatibleChatProvider('ollama').stream(request(turn('hi'))));
      await collect(createOpenAICompatibleChatProvider('openrouter', { apiKey: 'k' }).stream(request(turn('hi'))));
    } finally {
      fetchSpy.mockRestore();
    }

    expect(urls).toEqual(['http://127.0.0.1:11434/v1/chat/completions', 'https://openrouter.ai/api/v1/chat/completions']);
  });
});

describe('openai-compatible provider errors', () => {
  const failure = async (events: ConversationEvent[] = turn('hi'), chat = provider()) => {
    const result = await collect(chat.stream(request(events)));
    expect(result.error).toBeInstanceOf(ProviderError);
    return { ...result, error: result.error as ProviderError };
  };

  it('refuses to send to OpenRouter without a key, naming the variable', async () => {
    const { error } = await failure(turn('hi'), provider('openrouter', { apiKey: undefined, apiKeyEnv: 'MY_OR_KEY' }));
    const defaulted = (await failure(turn('hi'), provider('openrouter', { apiKey: '' }))).error;

    expect(error).toMatchObject({ code: 'missing_api_key', provider: 'openrouter' });
    expect(error.message).toBe('MY_OR_KEY is not set; export it or set providers.openrouter.api_key_env');
    expect(defaulted.message).toMatch(/^OPENROUTER_API_KEY is not set/);
    expect(server.requests).toHaveLength(0);
  });

  it('maps 401 to key_rejected and 429 to a retryable rate_limited error keeping Retry-After', async () => {
    server.enqueue(openaiErrorResponse(401, { message: 'No auth credentials found' }), openaiErrorResponse(429, { headers: { 'retry-after': '3' } }));

    const rejected = (await failure()).error;
    const limited = (await failure()).error;

    expect(rejected).toMatchObject({ code: 'key_rejected', statusCode: 401, provider: 'openrouter' });
    expect(rejected.message).toBe('openrouter rejected the API key (401: No auth credentials found); check OPENROUTER_API_KEY');
    expect(limited).toMatchObject({ code: 'rate_limited', isRetryable: true });
    expect(retryAfterMs(limited)).toBe(3000);
  });

  it('maps 502 to a retryable server_error and an error chunk mid-stream to a retryable stream_error', async () => {
    const head = openaiChatChunks([{ type: 'text', text: ['Hi'] }]).slice(0, 2);
    server.enqueue(openaiErrorResponse(502), sseResponse([...head, openaiChatErrorChunk('Provider returned error', 502)]));

    const badGateway = (await failure()).error;
    const midStream = await failure();

    expect(badGateway).toMatchObject({ code: 'server_error', statusCode: 502, isRetryable: true });
    expect(texts(midStream.events)).toEqual(['Hi']);
    expect(midStream.error).toMatchObject({ code: 'stream_error', isRetryable: true });
    expect(midStream.error.message).toBe('openrouter stream error (502): Provider returned error');
  });

  it('turns a stream cut mid-answer into a ProviderError: reset → connection_error, clean end → stream_incomplete', async () => {
    server.enqueue(cutStream(openaiChatTextStream(['Hello ', 'wor', 'ld']), 2, 'destroy'), cutStream(openaiChatTextStream(['Hello ', 'world']), 3, 'end'));

    const reset = await failure();
    const ended = await failure();

    expect(texts(reset.events)).toEqual(['Hello ']);
    expect(reset.error).toMatchObject({ code: 'connection_error', isRetryable: true });
    expect(texts(ended.events)).toEqual(['Hello ', 'world']);
    expect(ended.error).toMatchObject({ code: 'stream_incomplete', isRetryable: true });
    expect([...reset.events, ...ended.events].some((event) => event.type === 'finish')).toBe(false);
  });

  it('names ollama in errors and suggests a key variable when a keyless endpoint rejects the request', async () => {
    server.enqueue(openaiErrorResponse(401, { message: 'unauthorized' }));

    const { error } = await failure(turn('hi'), provider('ollama'));

    expect(error).toMatchObject({ code: 'key_rejected', provider: 'ollama' });
    expect(error.message).toBe('ollama rejected the API key (401: unauthorized); set providers.ollama.api_key_env');
  });
});

/** OpenRouter and Ollama speak the same wire. */
const chatCompletions: ProviderContractWire = {
  textAnswer: openaiChatTextStream,
  toolCallAnswer: (call, text) => openaiChatToolCallStream(call, { text }),
  errorAnswer: openaiErrorResponse,
  messages: (body) => (body as { messages: unknown[] }).messages,
  reasoning: (body) => (body as { reasoning?: unknown; reasoning_effort?: unknown }).reasoning ?? (body as { reasoning_effort?: unknown }).reasoning_effort,
};
describeProviderContract((url) => createOpenAICompatibleChatProvider('openrouter', { apiKey: 'or-key', baseUrl: `${url}/v1` }), chatCompletions, { model: 'anthropic/claude-sonnet-4.5', info: lookupModel('openrouter', 'anthropic/claude-sonnet-4.5') });
describeProviderContract((url) => createOpenAICompatibleChatProvider('ollama', { baseUrl: `${url}/v1` }), chatCompletions, { model: 'qwen3', info: undefined });
