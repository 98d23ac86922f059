import { lookupModel } from '../catalog/lookup-model.ts';
import type { ConversationEvent } from '@jp/core';
import {
  formatSseEvent,
  openaiErrorResponse,
  openaiResponsesEvents,
  openaiResponsesTextStream,
  openaiResponsesToolCallStream,
  sseResponse,
} from '@jp/test-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collect, texts } from '../__fixtures__/collect-stream.ts';
import { blobResource, PDF_BYTES, PNG_BYTES, textResource, turn } from '../__fixtures__/conversation.ts';
import { describeProviderContract } from '../__fixtures__/provider-contract.ts';
import { useWireServer } from '../__fixtures__/use-wire-server.ts';
import type { Provider, ProviderRequest, StreamEvent } from '../provider.ts';
import { createOpenAIProvider } from './openai-provider.ts';

const server = useWireServer();
afterEach(() => {
  vi.unstubAllEnvs();
});

const provider = (overrides: { apiKey?: string; apiKeyEnv?: string; baseUrl?: string } = {}): Provider =>
  createOpenAIProvider({ apiKey: 'test-key', baseUrl: `${server.url}/v1`, ...overrides });

const request = (events: ConversationEvent[], extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  model: 'gpt-test',
  events,
  system: 'Be brief.',
  ...extra,
});

describe('openai provider against a local wire server', () => {
  it('posts the converted request to /v1/responses with the key, and streams the answer with usage', async () => {
    server.enqueue(
      openaiResponsesTextStream(['The ', 'file ', 'says hi.'], {
        usage: { input_tokens: 420, output_tokens: 7, input_tokens_details: { cached_tokens: 400 } },
      }),
    );
    const events = turn('Summarise', [
      textResource('file:///w/a.txt', 'hi\n', { name: 'a.txt' }),
      blobResource('file:///w/doc.pdf', 'application/pdf', PDF_BYTES, { name: 'doc.pdf' }),
      blobResource('file:///w/p.png', 'image/png', PNG_BYTES),
    ]);
    const openai = provider();

    const result = await collect(openai.stream(request(events)));

    expect(result.error).toBeUndefined();
    expect(result.events).toEqual([
      { type: 'text-delta', text: 'The ' },
      { type: 'text-delta', text: 'file ' },
      { type: 'text-delta', text: 'says hi.' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 420, outputTokens: 7, cacheReadTokens: 400, reasoningTokens: 0 } },
    ]);
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect([sent.method, sent.path]).toEqual(['POST', '/v1/responses']);
    expect(sent.headers.authorization).toBe('Bearer test-key');
    expect(sent.body).toEqual(openai.buildRequest(request(events)).request);
    expect(sent.body).toMatchInlineSnapshot(`
      {
        "input": [
          {
            "content": [
              {
                "text": "Summarise",
                "type": "input_text",
              },
              {
                "text": "<resource uri="file:///w/a.txt" name="a.txt" mimeType="text/plain"><![CDATA[hi
      ]]></resource>",
                "type": "input_text",
              },
              {
                "file_data": "data:application/pdf;base64,JVBERi0xLjQKJeLjz9MKMSAwIG9iago8PD4+CmVuZG9iago=",
                "filename": "doc.pdf",
                "type": "input_file",
              },
              {
                "detail": "auto",
                "image_url": "data:image/png;base64,iVBORw0KGgoAAAAN",
                "type": "input_image",
              },
            ],
            "role": "user",
            "type": "message",
          },
        ],
        "instructions": "Be brief.",
        "model": "gpt-test",
        "store": false,
        "stream": true,
      }
    `);
  });

  it('yields text deltas as they arrive, before the answer is complete', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const chunks = openaiResponsesEvents([{ type: 'text', text: ['first', ' second'] }]).map(formatSseEvent);
    const firstDelta = chunks.findIndex((chunk) => chunk.includes('response.output_text.delta'));
    server.enqueue({
      type: 'handler',
      handle: async (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(chunks.slice(0, firstDelta + 1).join(''));
        await released;
        response.end(chunks.slice(firstDelta + 1).join(''));
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

  it('emits function calls with parsed arguments and finishes with tool-calls', async () => {
    server.enqueue(openaiResponsesToolCallStream({ id: 'call_1', name: 'refresh_resource', arguments: { uri: 'file:///w/a.txt' } }, { text: 'Checking.' }));
    const tools = [{ name: 'refresh_resource', description: 'Re-read', parameters: { type: 'object' } }];

    const { events, error } = await collect(provider().stream(request(turn('refresh'), { tools })));

    expect(error).toBeUndefined();
    expect(events.filter((event) => event.type !== 'finish')).toEqual([
      { type: 'text-delta', text: 'Checking.' },
      { type: 'tool-call', id: 'call_1', name: 'refresh_resource', arguments: { uri: 'file:///w/a.txt' } },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
    expect(server.requests[0]?.body).toMatchObject({ tools: [{ type: 'function', name: 'refresh_resource', strict: false }] });
  });

  it('streams reasoning summaries as reasoning deltas and maps an incomplete response to length', async () => {
    server.enqueue(
      sseResponse(
        openaiResponsesEvents([{ type: 'reasoning', summary: ['Hmm', '.'] }, { type: 'text', text: 'Ok' }], {
          status: 'incomplete',
          incompleteReason: 'max_output_tokens',
        }),
      ),
    );

    const { events } = await collect(provider().stream(request(turn('think'))));

    expect(events.map((event) => event.type)).toEqual(['reasoning-delta', 'reasoning-delta', 'text-delta', 'finish']);
    expect(events.at(-1)).toMatchObject({ reason: 'length' });
  });

  it('sends the schema as text.format json_schema', async () => {
    server.enqueue(openaiResponsesTextStream('{"answer":"x"}'));
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };

    const { error } = await collect(provider().stream(request(turn('json please'), { schema })));

    expect(error).toBeUndefined();
    expect(server.requests[0]?.body).toMatchObject({ text: { format: { type: 'json_schema', name: 'answer', schema, strict: true } } });
  });

  it('yields converter warnings before the answer', async () => {
    server.enqueue(openaiResponsesTextStream('ok'));

    const result = await collect(provider().stream(request(turn('play', [blobResource('file:///w/a.wav', 'audio/wav', new Uint8Array([1]))]))));

    expect(result.events[0]).toEqual({ type: 'warning', message: 'audio/wav is not supported by openai; skipped file:///w/a.wav' });
    expect(texts(result.events)).toEqual(['ok']);
  });

  it('uses the given key and base URL even when OPENAI_* variables are set', async () => {
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/never');
    vi.stubEnv('OPENAI_API_KEY', 'key-from-env');
    vi.stubEnv('OPENAI_ORG_ID', 'org-from-env');
    vi.stubEnv('OPENAI_PROJECT_ID', 'proj-from-env');
    server.enqueue(openaiResponsesTextStream('ok'));

    const { error } = await collect(provider({ apiKey: 'explicit-key' }).stream(request(turn('hi'))));

    expect(error).toBeUndefined();
    const headers = server.requests[0]?.headers;
    expect(headers?.authorization).toBe('Bearer explicit-key');
    expect(JSON.stringify(headers)).not.toMatch(/key-from-env|org-from-env|proj-from-env/);
  });
});

describe('openai provider defaults', () => {
  it('sends to https://api.openai.com/v1/responses when no base URL is configured', async () => {
    const urls: string[] = [];
    const body = openaiResponsesTextStream('ok').chunks.join('');
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    });
    try {
      const { events } = await collect(createOpenAIProvider({ apiKey: 'k' }).stream(request(turn('hi'))));
      expect(texts(events)).toEqual(['ok']);
    } finally {
      fetchSpy.mockRestore();
    }

    expect(urls).toEqual(['https://api.openai.com/v1/responses']);
  });
});

describeProviderContract((url) => createOpenAIProvider({ apiKey: 'test-key', baseUrl: `${url}/v1` }), {
  textAnswer: openaiResponsesTextStream,
  toolCallAnswer: (call, text) => openaiResponsesToolCallStream(call, { text }),
  errorAnswer: openaiErrorResponse,
  messages: (body) => (body as { input: unknown[] }).input,
  reasoning: (body) => (body as { reasoning?: unknown }).reasoning,
}, { model: 'gpt-5.1', info: lookupModel('openai', 'gpt-5.1') });
