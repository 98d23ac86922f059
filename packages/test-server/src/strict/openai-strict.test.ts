// The strict OpenAI stand-in: Responses API rules through the real SDK, Chat Completions rules over
// raw HTTP, and the listing (ids only).
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { post } from './strict-test-fetch.ts';
import { createStrictServer } from './strict-server.mjs';
import type { StrictServer } from './strict-types.d.mts';

let server: StrictServer;
afterEach(() => server?.close());

async function start() {
  server = await createStrictServer({ vendor: 'openai' });
  return new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, maxRetries: 0 });
}

async function refusal(promise: Promise<unknown>) {
  const error = (await promise.then(() => undefined, (e: unknown) => e)) as { status?: number; error?: { message: string; param: string | null; code: string | null } };
  expect(error?.status, 'expected a 400').toBe(400);
  return error.error;
}

const strictOk = { type: 'object', properties: { title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['title', 'tags'], additionalProperties: false };

describe('strict OpenAI stand-in: Responses API', () => {
  it.each([
    ['gpt-5', 'none', "Unsupported value: 'none' is not supported with the 'gpt-5' model. Supported values are: 'minimal', 'low', 'medium', and 'high'.", 'minimal'],
    ['gpt-5.1', 'minimal', "Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. Supported values are: 'none', 'low', 'medium', and 'high'.", 'none'],
    ['gpt-5.1', 'xhigh', "Unsupported value: 'xhigh' is not supported with the 'gpt-5.1' model. Supported values are: 'none', 'low', 'medium', and 'high'.", 'high'],
    ['gpt-5.2', 'minimal', "Unsupported value: 'minimal' is not supported with the 'gpt-5.2' model. Supported values are: 'none', 'low', 'medium', 'high', and 'xhigh'.", 'xhigh'],
    ['gpt-5-pro', 'medium', "Unsupported value: 'medium' is not supported with the 'gpt-5-pro' model. Supported values are: 'high'.", 'high'],
    ['gpt-5.4-pro', 'low', "Unsupported value: 'low' is not supported with the 'gpt-5.4-pro' model. Supported values are: 'medium', 'high', and 'xhigh'.", 'xhigh'],
  ])('reasoning.effort on %s: %s refused, %s accepted', async (model, bad, message, good) => {
    const client = await start();
    expect(await refusal(client.responses.create({ model, input: 'hi', reasoning: { effort: bad as never } }))).toEqual({ message, type: 'invalid_request_error', param: 'reasoning.effort', code: 'unsupported_value' });
    await client.responses.create({ model, input: 'hi', reasoning: { effort: good as never } });
  });

  it('refuses reasoning on a model without it', async () => {
    const client = await start();
    expect(await refusal(client.responses.create({ model: 'gpt-4.1', input: 'hi', reasoning: { effort: 'low' } }))).toMatchObject({
      message: "Unsupported parameter: 'reasoning.effort' is not supported with this model.",
      param: 'reasoning.effort',
      code: 'unsupported_parameter',
    });
    const plain = await client.responses.create({ model: 'gpt-4.1', input: 'hi' });
    expect(plain.output.map((item) => item.type)).toEqual(['message']);
  });

  it('refuses strict json_schema that misses additionalProperties: false or a required key, and accepts a strict one', async () => {
    const client = await start();
    const format = (schema: Record<string, unknown>) => ({ format: { type: 'json_schema' as const, name: 'Story', strict: true, schema } });
    const open = await refusal(client.responses.create({ model: 'gpt-5.5', input: 'hi', text: format({ type: 'object', properties: { title: { type: 'string' } }, required: ['title'] }) }));
    expect(open).toMatchObject({ message: "Invalid schema for response_format 'Story': In context=(), 'additionalProperties' is required to be supplied and to be false.", param: 'text.format.schema', code: 'invalid_json_schema' });
    const optional = await refusal(client.responses.create({ model: 'gpt-5.5', input: 'hi', text: format({ type: 'object', properties: { title: { type: 'string' }, tags: { type: 'array' } }, required: ['title'], additionalProperties: false }) }));
    expect(optional?.message).toBe("Invalid schema for response_format 'Story': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'tags'.");
    const nested = await refusal(client.responses.create({ model: 'gpt-5.5', input: 'hi', text: format({ type: 'object', properties: { author: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, required: ['author'], additionalProperties: false }) }));
    expect(nested?.message).toBe("Invalid schema for response_format 'Story': In context=('properties', 'author'), 'additionalProperties' is required to be supplied and to be false.");
    const ok = await client.responses.create({ model: 'gpt-5.5', input: 'hi', text: format(strictOk) });
    expect(JSON.parse(ok.output_text)).toEqual({ title: 'x', tags: [] });
    // Without strict, the same open schema is not checked.
    await client.responses.create({ model: 'gpt-5.5', input: 'hi', text: { format: { type: 'json_schema', name: 'Story', strict: false, schema: { type: 'object', properties: { title: { type: 'string' } } } } } });
  });

  it('requires each reasoning item to come back followed by the item it was produced with', async () => {
    const client = await start();
    server.enqueueReply({ toolCalls: [{ id: 'call_1', name: 'read_file', input: { path: 'a' } }] });
    const tools = [{ type: 'function' as const, name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false }, strict: true }];
    const first = await client.responses.create({ model: 'gpt-5.2', input: 'read a', reasoning: { effort: 'low' }, include: ['reasoning.encrypted_content'], tools });
    expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    const result = { type: 'function_call_output' as const, call_id: 'call_1', output: 'contents' };
    await client.responses.create({ model: 'gpt-5.2', input: [{ role: 'user', content: 'read a' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), result], reasoning: { effort: 'low' }, tools });
    const alone = await refusal(client.responses.create({ model: 'gpt-5.2', input: [{ role: 'user', content: 'read a' }, first.output[0] as OpenAI.Responses.ResponseInputItem, result], tools }));
    expect(alone).toEqual({ message: `Item '${first.output[0]?.id}' of type 'reasoning' was provided without its required following item.`, type: 'invalid_request_error', param: 'input', code: null });
  });

  it('limits max_output_tokens to the model and refuses empty input text', async () => {
    const client = await start();
    expect((await refusal(client.responses.create({ model: 'gpt-4o', input: 'hi', max_output_tokens: 16_385 })))?.message).toBe(
      'max_output_tokens is too large: 16385. This model supports at most 16384 completion tokens, whereas you provided 16385.',
    );
    await client.responses.create({ model: 'gpt-4o', input: 'hi', max_output_tokens: 16_384 });
    expect(await refusal(client.responses.create({ model: 'gpt-5', input: [{ role: 'user', content: [{ type: 'input_text', text: '' }] }] }))).toMatchObject({
      message: "Invalid 'input[0].content[0].text': empty string. Expected a string with minimum length 1, but got an empty string instead.",
      param: 'input[0].content[0].text',
    });
    await client.responses.create({ model: 'gpt-5', input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] });
  });

  it('answers an unknown model with model_not_found and lists ids only', async () => {
    const client = await start();
    expect(await refusal(client.responses.create({ model: 'gpt-9', input: 'hi' }))).toMatchObject({ message: "The requested model 'gpt-9' does not exist.", code: 'model_not_found' });
    const listed = await client.models.list();
    expect(listed.data.map((m) => m.id)).toContain('gpt-5.5');
    expect(Object.keys(listed.data[0]!).sort()).toEqual(['created', 'id', 'object', 'owned_by']);
    const stream = await client.responses.stream({ model: 'gpt-5', input: 'hi' }).finalResponse();
    expect(stream.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(server.rejections).toHaveLength(1);
  });
});

describe('strict OpenAI stand-in: Chat Completions', () => {
  it('applies reasoning_effort values, strict response_format and max_completion_tokens', async () => {
    await start();
    const chat = (body: Record<string, unknown>) => post(server, '/v1/chat/completions', { messages: [{ role: 'user', content: 'hi' }], ...body });
    const effort = await chat({ model: 'gpt-5.1', reasoning_effort: 'minimal' });
    expect(effort.status).toBe(400);
    expect(effort.body.error).toMatchObject({ param: 'reasoning_effort', code: 'unsupported_value' });
    expect((await chat({ model: 'gpt-5.1', reasoning_effort: 'none' })).status).toBe(200);
    const schema = await chat({ model: 'gpt-5', response_format: { type: 'json_schema', json_schema: { name: 'S', strict: true, schema: { type: 'object', properties: { a: { type: 'string' } } } } } });
    expect(schema.body.error.message).toBe("Invalid schema for response_format 'S': In context=(), 'additionalProperties' is required to be supplied and to be false.");
    expect((await chat({ model: 'gpt-5', response_format: { type: 'json_schema', json_schema: { name: 'S', strict: true, schema: strictOk } } })).status).toBe(200);
    const tooMany = await chat({ model: 'gpt-4.1', max_completion_tokens: 40_000 });
    expect(tooMany.body.error.message).toBe('max_completion_tokens is too large: 40000. This model supports at most 32768 completion tokens, whereas you provided 40000.');
    const unknown = await chat({ model: 'gpt-9' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('The model `gpt-9` does not exist or you do not have access to it.');
  });
});
