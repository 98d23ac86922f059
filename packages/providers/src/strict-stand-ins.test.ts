// The provider contract against the strict stand-ins (issue U): every provider's converter and SDK,
// every model of jp's table, every reasoning setting and both kinds of --schema, and answers with
// reasoning replayed across tool rounds and turns. The stand-ins enforce the vendors' documented
// rules with the vendors' words (packages/test-server/src/strict/README.md); none may refuse a request.
import type { ConversationEvent } from '@jp/core';
import { createStrictServer, type StrictServer, type StrictVendor } from '@jp/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerEvents } from './__fixtures__/answer-events.ts';
import { collect } from './__fixtures__/collect-stream.ts';
import { toolResult, turn } from './__fixtures__/conversation.ts';
import { fetchModelListing } from './catalog/listings/fetch-model-listing.ts';
import { lookupModel } from './catalog/lookup-model.ts';
import type { ModelFacts } from './catalog/model-info.ts';
import { SHIPPED_MODELS } from './catalog/shipped-models-table.ts';
import { createProvider } from './create-provider.ts';
import type { ProviderId } from '@jp/core';
import type { ProviderRequest } from './provider.ts';
import { REASONING_LEVELS, type ReasoningSetting } from './reasoning/reasoning-setting.ts';

const SETTINGS: Array<ReasoningSetting | undefined> = [undefined, ...REASONING_LEVELS, { budgetTokens: 5000 }, { budgetTokens: 100_000 }];
const STRICT_SCHEMA = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
const LOOSE_SCHEMA = { type: 'object', properties: { answer: { type: 'string', maxLength: 40 }, score: { type: 'integer', minimum: 0 }, note: { type: 'string' } }, required: ['answer'] };
const TOOLS = [{ name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];

/** Each vendor: where its SDK points, and the models to sweep (jp's table; the stand-in's own list where jp has none). */
const VENDORS: Array<{ vendor: StrictVendor; base: (url: string) => string; models: string[]; thinker: string }> = [
  { vendor: 'anthropic', base: (url) => url, models: SHIPPED_MODELS.anthropic.map((row) => row.id), thinker: 'claude-fable-5-1' },
  { vendor: 'openai', base: (url) => `${url}/v1`, models: SHIPPED_MODELS.openai.map((row) => row.id), thinker: 'gpt-5.5' },
  { vendor: 'google', base: (url) => url, models: SHIPPED_MODELS.google.map((row) => row.id), thinker: 'gemini-3-flash-preview' },
  {
    vendor: 'openrouter',
    base: (url) => `${url}/api/v1`,
    models: ['anthropic/claude-opus-5.5', 'anthropic/claude-sonnet-4.5', 'google/gemini-3-flash-preview', 'google/gemini-2.5-flash', 'openai/gpt-5.5'],
    thinker: 'google/gemini-3-flash-preview',
  },
  { vendor: 'ollama', base: (url) => `${url}/v1`, models: ['qwen3:8b', 'llama3.2:3b'], thinker: 'qwen3:8b' },
];

for (const { vendor, base, models, thinker } of VENDORS) {
  describe(`${vendor}: jp's requests against the strict stand-in`, () => {
    let server: StrictServer;
    /** The stand-in's own listing, fetched as `jp models --refresh` does: the catalog's second source. */
    let listing: Record<string, ModelFacts>;
    beforeAll(async () => {
      server = await createStrictServer({ vendor });
      listing = await fetchModelListing(vendor, { baseUrl: base(server.url), apiKey: 'test-key' });
    });
    afterAll(async () => server.close());
    const provider = () => createProvider(vendor as ProviderId, { apiKey: 'test-key', baseUrl: base(server.url) });
    const infoOf = (model: string) => lookupModel(vendor, model, { listed: listing[model] === undefined ? undefined : { facts: listing[model]!, fetchedAt: 'now' } });
    const ask = async (request: Omit<ProviderRequest, 'modelInfo'>) => {
      const { events, error } = await collect(provider().stream({ ...request, modelInfo: infoOf(request.model) }));
      return { events, error };
    };
    const refused = () => server.rejections.map((rejection) => `${rejection.index}: ${JSON.stringify(rejection.body)}`).slice(0, 3);

    it('takes every reasoning setting on every model, mapped to what the model accepts', async () => {
      for (const model of models) {
        for (const reasoning of SETTINGS) {
          const { error } = await ask({ model, events: turn('hi'), reasoning, system: 'Be brief.', tools: TOOLS });
          expect(error, `${model} ${JSON.stringify(reasoning)}`).toBeUndefined();
        }
      }
      expect(refused()).toEqual([]);
    });

    it('takes --schema, strict-valid or not, on every model', async () => {
      for (const model of models) {
        for (const schema of [STRICT_SCHEMA, LOOSE_SCHEMA]) {
          const { error } = await ask({ model, events: turn('answer in JSON'), schema });
          expect(error, `${model} ${JSON.stringify(schema)}`).toBeUndefined();
        }
      }
      expect(refused()).toEqual([]);
    });

    it('replays an answer that reasoned and called a tool, then the next turn, as it came', async () => {
      server.enqueueReply({ toolCalls: [{ id: 'call_1', name: 'read', input: { path: 'a' } }] }, { text: 'done' }, { text: 'again' });
      let events: ConversationEvent[] = turn('read a');
      for (const next of [(answer: ConversationEvent[]) => [...answer, toolResult('call_1', [{ type: 'text', text: 'A' }])], (answer: ConversationEvent[]) => [...answer, ...turn('and now?')], () => []]) {
        const { events: streamed, error } = await ask({ model: thinker, events, reasoning: 'high', system: 'Be brief.', tools: TOOLS });
        expect(error).toBeUndefined();
        events = [...events, ...next(answerEvents(streamed))];
      }
      expect(refused()).toEqual([]);
    });
  });
}

describe('anthropic: interleaved thinking goes back in its order (issue V)', () => {
  let server: StrictServer;
  beforeAll(async () => {
    server = await createStrictServer({ vendor: 'anthropic' });
  });
  afterAll(async () => server.close());

  it('thinks, calls, thinks again and calls again on a preserved-thinking model; the next request is accepted', async () => {
    server.enqueueReply(
      { blocks: [{ type: 'thinking' }, { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } }, { type: 'thinking' }, { type: 'tool_use', id: 'toolu_2', name: 'read', input: { path: 'b' } }], stopReason: 'tool_use' },
      { text: 'done' },
    );
    const provider = createProvider('anthropic', { apiKey: 'test-key', baseUrl: server.url });
    const modelInfo = lookupModel('anthropic', 'claude-fable-5-1');
    const request = { model: 'claude-fable-5-1', modelInfo, reasoning: 'high' as const, tools: TOOLS };
    const first = await collect(provider.stream({ ...request, events: turn('read a and b') }));
    expect(first.error).toBeUndefined();
    const events = [...turn('read a and b'), ...answerEvents(first.events), toolResult('toolu_1', [{ type: 'text', text: 'A' }]), toolResult('toolu_2', [{ type: 'text', text: 'B' }])];
    const second = await collect(provider.stream({ ...request, events }));
    expect(second.error).toBeUndefined();
    expect(server.rejections).toEqual([]);
  });
});
