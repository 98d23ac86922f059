// The cases every vendor's provider passes against the local wire server, the same for all: each
// vendor's provider test calls `describeProviderContract` with its own scripted answers.
import { ProviderError, type ConversationEvent, type RefResource, type Usage } from '@jp/core';
import type { JsonResponse, StreamResponse } from '@jp/test-server';
import { describe, expect, it } from 'vitest';
import type { ModelInfo } from '../catalog/model-info.ts';
import type { Provider, ProviderRequest, StreamEvent } from '../provider.ts';
import { stripCacheControl } from './cache-control.ts';
import { collect, texts } from './collect-stream.ts';
import { blobResource, chatResponse, PNG_BYTES, textResource, toolCall, toolResult, turn } from './conversation.ts';
import { useWireServer } from './use-wire-server.ts';

export interface ScriptedToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** A vendor's wire, as the contract scripts and reads it (with the builders of @jp/test-server). */
export interface ProviderContractWire {
  /** A streamed answer of exactly these text deltas, reporting the builders' default usage (`USAGE`). */
  textAnswer(deltas: readonly string[]): StreamResponse;
  /** A streamed answer that says `text`, then makes `call`. */
  toolCallAnswer(call: ScriptedToolCall, text: string): StreamResponse;
  /** The vendor's error answer for an HTTP status. */
  errorAnswer(status: number): JsonResponse;
  /** The conversation of a request body as sent: its messages, input items or contents, in order. */
  messages(body: unknown): unknown[];
  /** The vendor's reasoning parameter in a request body (`thinking`, `reasoning`, …); undefined when absent. */
  reasoning(body: unknown): unknown;
}

/** What every scripted answer of @jp/test-server reports unless told otherwise, in jp's counts. */
const USAGE: Usage = { inputTokens: 10, outputTokens: 5 };
const CALL: ScriptedToolCall = { id: 'call_1', name: 'refresh_resource', arguments: { uri: 'file:///w/a.txt', lines: [1, 2] } };
const TOOLS = [{ name: 'refresh_resource', description: 'Re-read a resource', parameters: { type: 'object' } }];
const PNG_BASE64 = Buffer.from(PNG_BYTES).toString('base64');

const request = (events: ConversationEvent[]): ProviderRequest => ({ model: 'contract-model', events, system: 'Be brief.', tools: TOOLS });

/** The call record a finish carries: Anthropic's names its response (issue V); the others' carry none. */
const callOf = (id: string, finish: StreamEvent | undefined) =>
  id === 'anthropic' ? { call: { id: (finish as { call?: { id?: string } } | undefined)?.call?.id ?? 'missing' } } : {};

/** The indexes of the messages whose JSON holds `needle`. */
const holders = (messages: readonly unknown[], needle: string): number[] =>
  messages.flatMap((message, index) => (JSON.stringify(message).includes(needle) ? [index] : []));

/**
 * The contract's tests for the provider `create` makes against the wire server at `url` (no path),
 * scripted and read through the vendor's `wire`.
 */
export function describeProviderContract(
  create: (url: string) => Provider,
  wire: ProviderContractWire,
  /** A model of the vendor that reasons, as the catalog knows it: reasoning is mapped by its capabilities (RFD 031). */
  thinker: { model: string; info: ModelInfo | undefined },
): void {
  // Creating a provider loads no SDK and sends nothing; its id names the vendor in errors.
  const id = create('http://127.0.0.1:1').id;
  describe(`${id}: the provider contract`, () => {
    const server = useWireServer();
    const provider = () => create(server.url);
    const sentMessages = (index: number) => wire.messages(stripCacheControl(server.requests[index]?.body));

    it('streams a text answer as text deltas, then a finish with the usage', async () => {
      server.enqueue(wire.textAnswer(['The ', 'answer ', 'is 42.']));

      const { events, error } = await collect(provider().stream(request(turn('What is it?'))));

      expect(error).toBeUndefined();
      expect(texts(events)).toEqual(['The ', 'answer ', 'is 42.']);
      expect(events.slice(3)).toEqual([{ type: 'finish', reason: 'stop', usage: expect.objectContaining(USAGE), ...callOf(id, events.at(-1)) }]);
    });

    it('returns a tool call as a tool-call event with its arguments parsed, and finishes with tool-calls', async () => {
      server.enqueue(wire.toolCallAnswer(CALL, 'Checking.'));

      const { events, error } = await collect(provider().stream(request(turn('Refresh a.txt'))));

      expect(error).toBeUndefined();
      expect(events).toEqual([
        { type: 'text-delta', text: 'Checking.' },
        { type: 'tool-call', ...CALL },
        { type: 'finish', reason: 'tool-calls', usage: expect.any(Object), ...callOf(id, events.at(-1)) },
      ]);
    });

    it('sends this turn’s resources inside this turn’s user message, and earlier ones where they were attached', async () => {
      server.enqueue(wire.textAnswer(['Both.']));
      const events = [
        ...turn('First question', [textResource('file:///w/a.txt', 'alpha content')]),
        chatResponse('First answer.'),
        ...turn('Second question', [textResource('file:///w/b.txt', 'beta content'), blobResource('file:///w/p.png', 'image/png', PNG_BYTES)]),
      ];

      const { error } = await collect(provider().stream(request(events)));

      expect(error).toBeUndefined();
      const messages = sentMessages(0);
      const last = messages.length - 1;
      expect(messages[last]).toMatchObject({ role: 'user' });
      for (const needle of ['Second question', 'beta content', PNG_BASE64]) expect(holders(messages, needle), needle).toEqual([last]);
      const first = holders(messages, 'First question');
      expect(first).toHaveLength(1);
      expect(holders(messages, 'alpha content')).toEqual(first);
      expect(messages[first[0]!]).toMatchObject({ role: 'user' });
      expect(holders(messages, 'First answer.')[0]).toBeGreaterThan(first[0]!);
    });

    it('begins request k+1 with request k’s messages unchanged (cache markers aside), through a tool call', async () => {
      const conversation: ConversationEvent[] = [];
      const call = async (answer: StreamResponse, ...events: ConversationEvent[]) => {
        conversation.push(...events);
        server.enqueue(answer);
        expect((await collect(provider().stream(request(conversation)))).error).toBeUndefined();
      };
      await call(wire.textAnswer(['One.']), ...turn('first', [textResource('file:///w/a.txt', 'alpha ]]> beta', { name: 'a.txt' })]));
      await call(wire.toolCallAnswer(CALL, 'Checking.'), chatResponse('One.'), ...turn('second', [blobResource('file:///w/p.png', 'image/png', PNG_BYTES)]));
      const result = toolResult(CALL.id, [{ type: 'resource', resource: textResource('file:///w/a.txt', 'alpha 2') }]);
      await call(wire.textAnswer(['Two.']), chatResponse('Checking.'), toolCall(CALL.id, CALL.name, CALL.arguments), result);
      await call(wire.textAnswer(['Three.']), chatResponse('Two.'), ...turn('third'));

      const sent = server.requests.map((_, index) => sentMessages(index));
      expect(sent).toHaveLength(4);
      for (let k = 0; k + 1 < sent.length; k += 1) {
        const [before, after] = [sent[k]!, sent[k + 1]!];
        expect(after.length, `request ${k + 1}`).toBeGreaterThan(before.length);
        expect(JSON.stringify(after.slice(0, before.length)), `request ${k + 1}`).toBe(JSON.stringify(before));
      }
    });

    it.each([
      { status: 429, code: 'rate_limited', isRetryable: true },
      { status: 500, code: 'server_error', isRetryable: true },
      { status: 503, code: 'server_error', isRetryable: true },
      { status: 400, code: 'bad_request', isRetryable: false },
      { status: 401, code: 'key_rejected', isRetryable: false },
      { status: 403, code: 'key_rejected', isRetryable: false },
      { status: 404, code: 'bad_request', isRetryable: false },
    ])('turns an HTTP $status into a ProviderError $code (retryable: $isRetryable), sent once', async ({ status, code, isRetryable }) => {
      server.enqueue(wire.errorAnswer(status));

      const { events, error } = await collect(provider().stream(request(turn('hi'))));

      expect(events).toEqual([]);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ provider: id, code, statusCode: status, isRetryable });
      expect(server.requests).toHaveLength(1); // the SDK did not retry: the caller does, with one policy
    });

    it('ends the stream with an aborted ProviderError when the signal aborts mid-answer', async () => {
      // Paced, so the abort after the first delta lands before the second one is sent.
      server.enqueue({ ...wire.textAnswer(['a', 'b', 'c', 'd']), chunkDelayMs: 30 });
      const controller = new AbortController();
      const seen: StreamEvent[] = [];

      let error: unknown;
      try {
        for await (const event of provider().stream(request(turn('hi')), { signal: controller.signal })) {
          seen.push(event);
          controller.abort();
        }
      } catch (thrown) {
        error = thrown;
      }

      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ provider: id, code: 'aborted', isRetryable: false });
      expect(seen).toEqual([{ type: 'text-delta', text: 'a' }]);
    });

    it('ends the stream with an aborted ProviderError, sending nothing, when the signal was aborted before', async () => {
      const controller = new AbortController();
      controller.abort();

      const { events, error } = await collect(provider().stream(request(turn('hi')), { signal: controller.signal }));

      expect(events).toEqual([]);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ provider: id, code: 'aborted' });
      expect(server.requests).toHaveLength(0);
    });

    it('reads resources’ content, so a content reference reaching it is an internal error', () => {
      const ref: RefResource = { uri: 'file:///w/a.txt', mimeType: 'text/plain', ref: { sha256: 'a'.repeat(64), size: 5, encoding: 'text' } };
      const inToolResult = [...turn('read'), toolCall('c1', 'read', {}), toolResult('c1', [{ type: 'resource', resource: ref }])];

      expect(provider().readsContent).toBe(true);
      expect(() => provider().buildRequest(request(turn('read', [ref])))).toThrow(`the content of ${ref.uri} was not loaded before it was read`);
      expect(() => provider().buildRequest(request(inToolResult))).toThrow(`the content of ${ref.uri} was not loaded before it was read`);
    });

    it('sends no reasoning parameter unless asked, and a distinct one per level and for a budget (RFD 028)', async () => {
      const asked = [undefined, 'off', 'low', 'high', { budgetTokens: 20_000 }] as const;
      for (const reasoning of asked) {
        server.enqueue(wire.textAnswer(['ok']));
        const { error } = await collect(provider().stream({ ...request(turn('think')), model: thinker.model, modelInfo: thinker.info, reasoning }));
        expect(error).toBeUndefined();
      }
      const sent = server.requests.slice(-asked.length).map((recorded) => wire.reasoning(recorded.body));
      expect(sent[0]).toBeUndefined();
      expect(sent.slice(1).every((value) => value !== undefined)).toBe(true);
      expect(new Set(sent.slice(1, 4).map((value) => JSON.stringify(value))).size).toBe(3);
      const built = asked.map((reasoning) => provider().buildRequest({ ...request(turn('think')), model: thinker.model, modelInfo: thinker.info, reasoning }).request);
      expect(sent.map((value) => JSON.stringify(value))).toEqual(built.map((body) => JSON.stringify(wire.reasoning(body))));
      // A model jp does not know is sent no reasoning parameter at all: nothing is guessed.
      server.enqueue(wire.textAnswer(['ok']));
      expect((await collect(provider().stream({ ...request(turn('think')), reasoning: 'high' }))).error).toBeUndefined();
      if (id !== 'openrouter' && id !== 'ollama') expect(wire.reasoning(server.requests.at(-1)!.body)).toBeUndefined();
    });

    it('sends another provider’s opaque reasoning data to nobody, and no provider’s reasoning text as its own (RFD 028)', async () => {
      const foreign = ['anthropic', 'openai', 'google', 'someone-else'].filter((other) => other !== id);
      const reasoningOf = (provider: string): ConversationEvent => ({
        type: 'chat_response',
        timestamp: '2026-01-01T00:00:00.000Z',
        reasoning: `private thoughts of ${provider}`,
        opaque: { provider, items: [{ type: 'reasoning', id: `rs_${provider}`, encrypted_content: `OPAQUE-${provider}`, signature: `OPAQUE-${provider}`, thoughtSignature: `OPAQUE-${provider}` }] },
      });
      const events = turn('go', [], ...foreign.map(reasoningOf), toolCall(CALL.id, CALL.name, CALL.arguments), toolResult(CALL.id, [{ type: 'text', text: 'A' }]), chatResponse('done'));
      server.enqueue(wire.textAnswer(['ok']));
      const { error } = await collect(provider().stream({ ...request([...events, ...turn('again')]), reasoning: 'low' }));
      expect(error).toBeUndefined();
      const body = JSON.stringify(server.requests.at(-1)!.body);
      for (const other of foreign) {
        expect(body).not.toContain(`OPAQUE-${other}`);
        expect(body).not.toContain(`private thoughts of ${other}`);
      }
      expect(body).toContain('done');
    });
  });
}
