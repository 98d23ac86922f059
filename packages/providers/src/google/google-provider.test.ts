import { lookupModel } from '../catalog/lookup-model.ts';
import type { ConversationEvent } from '@jp/core';
import {
  formatSseEvent,
  googleErrorResponse,
  googleFunctionCallStream,
  googleStreamChunks,
  googleTextStream,
  type RecordedRequest,
} from '@jp/test-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collect, texts } from '../__fixtures__/collect-stream.ts';
import { blobResource, PDF_BYTES, textResource, toolCall, toolResult, turn } from '../__fixtures__/conversation.ts';
import { describeProviderContract } from '../__fixtures__/provider-contract.ts';
import { useWireServer } from '../__fixtures__/use-wire-server.ts';
import type { ProviderRequest, StreamEvent } from '../provider.ts';
import { GOOGLE_SKIP_THOUGHT_SIGNATURE } from './convert-to-google-request.ts';
import { createGoogleProvider } from './google-provider.ts';
import type { GoogleRequest } from './google-types.ts';

const server = useWireServer();
afterEach(() => {
  vi.unstubAllEnvs();
});

const provider = (overrides: { apiKey?: string; baseUrl?: string } = {}) =>
  createGoogleProvider({ apiKey: 'test-key', baseUrl: server.url, ...overrides });

const request = (events: ConversationEvent[], extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  model: 'gemini-test',
  events,
  system: 'Be brief.',
  ...extra,
});

const body = (recorded: RecordedRequest | undefined) => recorded?.body as Record<string, any>;

describe('google provider against a local wire server', () => {
  it('posts the converted request with the key to streamGenerateContent?alt=sse and streams the answer', async () => {
    server.enqueue(
      googleTextStream(['The ', 'file ', 'says hi.'], {
        usage: { promptTokenCount: 1042, cachedContentTokenCount: 1000, candidatesTokenCount: 7, thoughtsTokenCount: 3 },
      }),
    );
    const events = turn('Summarise', [
      textResource('file:///w/a.txt', 'hi\n', { name: 'a.txt' }),
      blobResource('file:///w/doc.pdf', 'application/pdf', PDF_BYTES, { title: 'The PDF' }),
    ]);
    const google = provider();

    const result = await collect(google.stream(request(events)));

    expect(result.error).toBeUndefined();
    expect(result.events).toEqual([
      { type: 'text-delta', text: 'The ' },
      { type: 'text-delta', text: 'file ' },
      { type: 'text-delta', text: 'says hi.' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 1042, outputTokens: 10, cacheReadTokens: 1000, reasoningTokens: 3 } },
    ]);
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect([sent.method, sent.path, sent.query]).toEqual(['POST', '/v1beta/models/gemini-test:streamGenerateContent', { alt: 'sse' }]);
    expect(sent.headers['x-goog-api-key']).toBe('test-key');
    expect(sent.headers.authorization).toBeUndefined();
    expect(body(sent).contents).toEqual((google.buildRequest(request(events)).request as GoogleRequest).contents);
    expect(body(sent)).toEqual({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Summarise' },
            { text: '<resource uri="file:///w/a.txt" name="a.txt" mimeType="text/plain"><![CDATA[hi\n]]></resource>' },
            { inlineData: { mimeType: 'application/pdf', data: Buffer.from(PDF_BYTES).toString('base64') } },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: {}, // the SDK always sends one
    });
  });

  it('sends tools, the output limit and the schema as Gemini’s native structured output', async () => {
    server.enqueue(googleTextStream(['{"answer":', '"42"}']));
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const tools = [{ name: 'refresh_resource', description: 'Re-read a resource', parameters: { type: 'object', properties: { uri: { type: 'string' } } } }];

    const { events } = await collect(provider().stream(request(turn('answer?'), { schema, tools, maxTokens: 256 })));

    expect(texts(events).join('')).toBe('{"answer":"42"}');
    expect(body(server.requests[0])).toMatchObject({
      tools: [{ functionDeclarations: [{ name: 'refresh_resource', description: 'Re-read a resource', parametersJsonSchema: tools[0]!.parameters }] }],
      generationConfig: { maxOutputTokens: 256, responseMimeType: 'application/json', responseJsonSchema: schema },
    });
  });

  it('yields text deltas as they arrive, before the answer is complete', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const chunks = googleStreamChunks([
      { type: 'text', text: 'first' },
      { type: 'text', text: ' second' },
    ]).map(formatSseEvent);
    server.enqueue({
      type: 'handler',
      handle: async (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(chunks[0]);
        await released;
        response.end(chunks.slice(1).join(''));
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

  it('emits function calls with Gemini’s id or a generated one, and finishes with tool-calls', async () => {
    server.enqueue(
      googleFunctionCallStream(
        [
          { id: 'fc-1', name: 'refresh_resource', args: { uri: 'file:///w/a.txt' }, thoughtSignature: 'c2lnbmF0dXJl' },
          { name: 'refresh_resource', args: { uri: 'file:///w/b.txt' } },
        ],
        { text: 'Checking.' },
      ),
    );

    const { events, error } = await collect(provider().stream(request(turn('refresh'))));

    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'text-delta', text: 'Checking.' },
      { type: 'tool-call', id: 'fc-1', name: 'refresh_resource', arguments: { uri: 'file:///w/a.txt' } },
      { type: 'reasoning-opaque', provider: 'google', item: { functionCallId: 'fc-1', thoughtSignature: 'c2lnbmF0dXJl' } },
      { type: 'tool-call', id: expect.stringMatching(/^call_[0-9a-f]{16}$/), name: 'refresh_resource', arguments: { uri: 'file:///w/b.txt' } },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 10, outputTokens: 5 } },
    ]);
  });

  it('sends recorded calls and results back as functionCall and functionResponse parts', async () => {
    server.enqueue(googleTextStream('It says alpha.'));
    const events = [
      ...turn('refresh a.txt'),
      toolCall('fc-1', 'refresh_resource', { uri: 'file:///w/a.txt' }),
      toolResult('fc-1', [{ type: 'text', text: 'alpha' }]),
    ];

    await collect(provider().stream(request(events)));

    expect(body(server.requests[0]).contents).toEqual([
      { role: 'user', parts: [{ text: 'refresh a.txt' }] },
      {
        role: 'model',
        parts: [{ functionCall: { id: 'fc-1', name: 'refresh_resource', args: { uri: 'file:///w/a.txt' } }, thoughtSignature: GOOGLE_SKIP_THOUGHT_SIGNATURE }],
      },
      { role: 'user', parts: [{ functionResponse: { id: 'fc-1', name: 'refresh_resource', response: { output: 'alpha' } } }] },
    ]);
  });

  it('streams thought summaries as reasoning deltas and maps MAX_TOKENS to length', async () => {
    server.enqueue(googleTextStream('Ok', { thoughts: ['Hmm', '.'], finishReason: 'MAX_TOKENS' }));

    const { events } = await collect(provider().stream(request(turn('think'))));

    expect(events.map((event) => event.type)).toEqual(['reasoning-delta', 'reasoning-delta', 'text-delta', 'finish']);
    expect(events.at(-1)).toMatchObject({ reason: 'length' });
  });

  it('yields converter warnings before the answer', async () => {
    server.enqueue(googleTextStream('ok'));
    const events = turn('open', [blobResource('file:///w/a.zip', 'application/zip', new Uint8Array([1]))]);

    const result = await collect(provider().stream(request(events)));

    expect(result.events[0]).toEqual({ type: 'warning', message: 'application/zip is not supported by google; skipped file:///w/a.zip' });
    expect(texts(result.events)).toEqual(['ok']);
  });
});

describeProviderContract((url) => createGoogleProvider({ apiKey: 'test-key', baseUrl: url }), {
  textAnswer: googleTextStream,
  toolCallAnswer: (call, text) => googleFunctionCallStream({ id: call.id, name: call.name, args: call.arguments }, { text }),
  errorAnswer: googleErrorResponse,
  messages: (body) => (body as { contents: unknown[] }).contents,
  reasoning: (body) => (body as { generationConfig?: { thinkingConfig?: unknown }; config?: { thinkingConfig?: unknown } }).generationConfig?.thinkingConfig ?? (body as { config?: { thinkingConfig?: unknown } }).config?.thinkingConfig,
}, { model: 'gemini-2.5-flash', info: lookupModel('google', 'gemini-2.5-flash') });
