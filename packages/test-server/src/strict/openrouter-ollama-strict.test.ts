// The strict OpenRouter and Ollama stand-ins: OpenRouter's reasoning object and reasoning_details in tool
// loops (through the OpenAI SDK, as jp talks to OpenRouter), Ollama's think rules on /api/chat and
// /v1/chat/completions, and both listings.
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { get, post } from './strict-test-fetch.ts';
import { createStrictServer } from './strict-server.mjs';
import type { StrictServer } from './strict-types.d.mts';

let server: StrictServer;
afterEach(() => server?.close());

const tools = [{ type: 'function' as const, function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

async function openRouter() {
  server = await createStrictServer({ vendor: 'openrouter' });
  return new OpenAI({ apiKey: 'k', baseURL: `${server.url}/api/v1`, maxRetries: 0 });
}

/** First round of a tool loop: the model calls read_file; returns the assistant message as OpenRouter sent it. */
async function toolRound(client: OpenAI, model: string, reasoning: Record<string, unknown> | undefined) {
  server.enqueueReply({ toolCalls: [{ id: 'call_1', name: 'read_file', input: { path: 'a' } }] });
  const first = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'read a' }], tools, ...(reasoning ? { reasoning } : {}) } as never);
  return (first as OpenAI.ChatCompletion).choices[0]!.message as OpenAI.ChatCompletionMessage & { reasoning_details?: unknown[] };
}

async function refusal(promise: Promise<unknown>) {
  const error = (await promise.then(() => undefined, (e: unknown) => e)) as { status?: number; error?: any };
  expect(error?.status, 'expected a 400').toBe(400);
  return error.error;
}

describe('strict OpenRouter stand-in', () => {
  it('needs reasoning_details back on Gemini 3 tool calls, with OpenRouter\'s wrapper around Google\'s 400', async () => {
    const client = await openRouter();
    const assistant = await toolRound(client, 'google/gemini-3-flash-preview', undefined);
    expect(assistant.reasoning_details).toEqual([expect.objectContaining({ type: 'reasoning.encrypted', format: 'google-gemini-v1' })]);
    const result = { role: 'tool' as const, tool_call_id: 'call_1', content: 'contents' };
    await client.chat.completions.create({ model: 'google/gemini-3-flash-preview', messages: [{ role: 'user', content: 'read a' }, assistant as never, result], tools });
    const { reasoning_details: _dropped, ...bare } = assistant;
    const error = await refusal(client.chat.completions.create({ model: 'google/gemini-3-flash-preview', messages: [{ role: 'user', content: 'read a' }, bare as never, result], tools }));
    expect(error).toMatchObject({ message: 'Provider returned error', code: 400, metadata: { provider_name: 'Google AI Studio' } });
    expect(error.metadata.raw).toMatch(/^Gemini models require OpenRouter reasoning details to be preserved in each request\. Please refer to our docs: https:\/\/openrouter\.ai\/docs\/use-cases\/reasoning-tokens#preserving-reasoning-blocks\. Upstream error: \{/);
    expect(error.metadata.raw).toContain('Function call is missing a thought_signature in functionCall parts.');
  });

  it('needs reasoning_details back on a Claude tool loop under extended thinking, not when reasoning is off', async () => {
    const client = await openRouter();
    const reasoning = { max_tokens: 2048 };
    const assistant = await toolRound(client, 'anthropic/claude-sonnet-4.5', reasoning);
    expect(assistant.reasoning_details).toEqual([expect.objectContaining({ type: 'reasoning.text', format: 'anthropic-claude-v1', signature: expect.any(String) })]);
    const result = { role: 'tool' as const, tool_call_id: 'call_1', content: 'contents' };
    await client.chat.completions.create({ model: 'anthropic/claude-sonnet-4.5', messages: [{ role: 'user', content: 'read a' }, assistant as never, result], tools, reasoning } as never);
    const { reasoning_details: _dropped, reasoning: _text, ...bare } = assistant as typeof assistant & { reasoning?: string };
    const error = await refusal(client.chat.completions.create({ model: 'anthropic/claude-sonnet-4.5', messages: [{ role: 'user', content: 'read a' }, bare as never, result], tools, reasoning } as never));
    expect(error.metadata.provider_name).toBe('Anthropic');
    expect(JSON.parse(error.metadata.raw).error.message).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\./);
    await client.chat.completions.create({ model: 'anthropic/claude-sonnet-4.5', messages: [{ role: 'user', content: 'read a' }, bare as never, result], tools });
  });

  it('takes effort or max_tokens in `reasoning`, not both, and only the documented efforts', async () => {
    const client = await openRouter();
    const model = 'openai/gpt-5.5';
    const both = await refusal(client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], reasoning: { effort: 'high', max_tokens: 1000 } } as never));
    expect(both.message).toBe('reasoning: only one of "effort" or "max_tokens" may be given');
    const bad = await refusal(client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], reasoning: { effort: 'max' } } as never));
    expect(bad.message).toBe('reasoning.effort: Invalid option: expected one of "xhigh"|"high"|"medium"|"low"|"minimal"|"none"');
    await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], reasoning: { effort: 'xhigh' } } as never);
    const unknown = await refusal(client.chat.completions.create({ model: 'openai/gpt-9', messages: [{ role: 'user', content: 'hi' }] }));
    expect(unknown).toEqual({ message: 'openai/gpt-9 is not a valid model ID', code: 400 });
  });

  it('lists models with context_length, top_provider.max_completion_tokens, supported_parameters, pricing and input modalities', async () => {
    await openRouter();
    const listing = await get(server, '/api/v1/models');
    const gemini = listing.body.data.find((m: { id: string }) => m.id === 'google/gemini-3-flash-preview');
    expect(gemini).toMatchObject({
      context_length: 1_048_576,
      top_provider: { max_completion_tokens: 65_536 },
      pricing: { prompt: '5e-7', completion: '0.000003' },
      architecture: { input_modalities: ['text', 'image', 'file'] },
    });
    expect(gemini.supported_parameters).toContain('reasoning');
  });
});

describe('strict Ollama stand-in', () => {
  it('refuses think on a model without thinking, on /api/chat and as reasoning_effort on /v1/chat/completions', async () => {
    server = await createStrictServer({ vendor: 'ollama' });
    const chat = await post(server, '/api/chat', { model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }], think: true });
    expect(chat).toMatchObject({ status: 400, body: { error: '"llama3.2" does not support thinking' } });
    const thinking = await post(server, '/api/chat', { model: 'qwen3:8b', messages: [{ role: 'user', content: 'hi' }], think: true, stream: false });
    expect(thinking.body.message).toMatchObject({ content: 'ok', thinking: expect.any(String) });
    const level = await post(server, '/api/chat', { model: 'gpt-oss:20b', messages: [{ role: 'user', content: 'hi' }], think: 'max' });
    expect(level.body.error).toBe('invalid think value: "max" (must be "high", "medium", "low", true, or false)');
    expect((await post(server, '/api/chat', { model: 'gpt-oss:20b', messages: [{ role: 'user', content: 'hi' }], think: 'high' })).status).toBe(200);
    const client = new OpenAI({ apiKey: 'ollama', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const compat = await refusal(client.chat.completions.create({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'low' }));
    expect(compat.message).toBe('"llama3.2" does not support thinking');
    const stream = await client.chat.completions.create({ model: 'qwen3:8b', messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'low', stream: true });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).toBe('ok');
  });

  it('refuses tools on a model without tools, answers an unknown model with 404, and shows capabilities', async () => {
    server = await createStrictServer({ vendor: 'ollama' });
    const noTools = await post(server, '/api/chat', { model: 'gemma3:4b', messages: [{ role: 'user', content: 'hi' }], tools });
    expect(noTools.body.error).toBe('"gemma3:4b" does not support tools');
    expect((await post(server, '/api/chat', { model: 'qwen3:8b', messages: [{ role: 'user', content: 'hi' }], tools })).status).toBe(200);
    const missing = await post(server, '/api/chat', { model: 'mistral', messages: [{ role: 'user', content: 'hi' }] });
    expect(missing).toMatchObject({ status: 404, body: { error: 'model "mistral" not found, try pulling it first' } });
    const show = await post(server, '/api/show', { model: 'qwen3:8b' });
    expect(show.body).toMatchObject({ capabilities: ['completion', 'tools', 'thinking'], model_info: { 'qwen3.context_length': 40_960 } });
    expect((await post(server, '/api/show', { model: 'nope' })).status).toBe(404);
  });
});
