// The strict Gemini stand-in through @google/genai: thinking budgets and levels per model, thought
// signatures on function calls, empty parts, maxOutputTokens, response schemas, and the listing.
import { GoogleGenAI, type Content } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { post } from './strict-test-fetch.ts';
import { createStrictServer } from './strict-server.mjs';
import type { StrictServer } from './strict-types.d.mts';

let server: StrictServer;
afterEach(() => server?.close());

async function start() {
  server = await createStrictServer({ vendor: 'google' });
  return new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: server.url } });
}

async function refusal(promise: Promise<unknown>) {
  const error = (await promise.then(() => undefined, (e: unknown) => e)) as { status?: number; message?: string };
  expect(error?.status, 'expected a 400').toBe(400);
  return JSON.parse(error.message ?? '{}').error as { code: number; message: string; status: string };
}

describe('strict Gemini stand-in: thinking configuration', () => {
  it.each([
    ['gemini-2.5-flash', { thinkingBudget: 32_000 }, 'The thinking budget 32000 is invalid. Please choose a value between 1 and 24576.', { thinkingBudget: 24_576 }],
    ['gemini-2.5-pro', { thinkingBudget: 0 }, 'Budget 0 is invalid. This model only works in thinking mode.', { thinkingBudget: 128 }],
    ['gemini-2.5-pro', { thinkingBudget: 64 }, 'The thinking budget 64 is invalid. Please choose a value between 128 and 32768.', { thinkingBudget: -1 }],
    ['gemini-2.5-flash-lite', { thinkingBudget: 256 }, 'The thinking budget 256 is invalid. Please choose a value between 512 and 24576.', { thinkingBudget: 0 }],
    ['gemini-2.5-flash', { thinkingLevel: 'HIGH' }, 'Thinking level is not supported for this model.', { thinkingBudget: 0 }],
    ['gemini-3.1-pro-preview', { thinkingLevel: 'MINIMAL' }, 'Thinking level MINIMAL is not supported for this model. Please retry with other thinking level.', { thinkingLevel: 'LOW' }],
    ['gemini-3.8-flash', { thinkingLevel: 'MINIMAL' }, 'Thinking level MINIMAL is not supported for this model. Please retry with other thinking level.', { thinkingLevel: 'MEDIUM' }],
    ['gemini-3-flash-preview', { thinkingLevel: 'LOW', thinkingBudget: 1024 }, 'You can only set only one of thinking budget and thinking level.', { thinkingLevel: 'MINIMAL' }],
  ])('%s refuses %j', async (model, bad, message, good) => {
    const ai = await start();
    expect(await refusal(ai.models.generateContent({ model, contents: 'hi', config: { thinkingConfig: bad as never } }))).toEqual({ code: 400, message, status: 'INVALID_ARGUMENT' });
    const answer = await ai.models.generateContent({ model, contents: 'hi', config: { thinkingConfig: good as never } });
    expect(answer.text).toBe('ok');
  });

  it('limits maxOutputTokens to the model\'s output limit', async () => {
    const ai = await start();
    expect((await refusal(ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config: { maxOutputTokens: 65_537 } }))).message).toBe(
      'Unable to submit request because it has a maxOutputTokens value of 65537 but the supported range is from 1 (inclusive) to 65537 (exclusive). Update the value and try again.',
    );
    await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config: { maxOutputTokens: 65_536 } });
  });
});

describe('strict Gemini stand-in: contents and schemas', () => {
  it('refuses an empty parts list and a part without data', async () => {
    const ai = await start();
    expect((await refusal(ai.models.generateContent({ model: 'gemini-2.5-flash', contents: [{ role: 'user', parts: [] }] }))).message).toBe(
      '* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.\n',
    );
    expect((await refusal(ai.models.generateContent({ model: 'gemini-2.5-flash', contents: [{ role: 'user', parts: [{ text: 'a' }, {}] }] }))).message).toBe(
      "* GenerateContentRequest.contents[0].parts[1].data: required oneof field 'data' must have one initialized field\n",
    );
    await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: [{ role: 'user', parts: [{ text: 'a' }] }] });
  });

  it('refuses unknown fields in responseSchema and a schema without the JSON mime type; answers JSON for a schema', async () => {
    const ai = await start();
    const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
    // The SDK rewrites responseSchema (drops unknown fields), so this one goes over raw HTTP as other clients send it.
    const raw = await post(server, '/v1beta/models/gemini-2.5-pro:generateContent', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { responseMimeType: 'application/json', responseSchema: { ...schema, $schema: 'http://json-schema.org/draft-07/schema#' } } });
    expect(raw.status).toBe(400);
    expect(raw.body.error.message).toBe('Invalid JSON payload received. Unknown name "$schema" at \'generation_config.response_schema\': Cannot find field.');
    expect((await refusal(ai.models.generateContent({ model: 'gemini-2.5-pro', contents: 'hi', config: { responseJsonSchema: schema } }))).message).toBe('Request contains an invalid argument.');
    const answer = await ai.models.generateContent({ model: 'gemini-2.5-pro', contents: 'hi', config: { responseMimeType: 'application/json', responseJsonSchema: { ...schema, additionalProperties: false } } });
    expect(JSON.parse(answer.text ?? '')).toEqual({ title: 'x' });
  });
});

describe('strict Gemini stand-in: thought signatures', () => {
  it('requires the signature on the function call of the current turn on Gemini 3, not on 2.5', async () => {
    const ai = await start();
    const tools = [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }];
    server.enqueueReply({ toolCalls: [{ id: 'c1', name: 'get_weather', input: { city: 'Paris' } }] });
    const first = await ai.models.generateContent({ model: 'gemini-3-flash-preview', contents: 'weather?', config: { tools } });
    const call = first.candidates?.[0]?.content as Content;
    expect(call.parts?.[0]?.thoughtSignature).toEqual(expect.any(String));
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'weather?' }] }, call, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 20 } } }] }];
    await ai.models.generateContent({ model: 'gemini-3-flash-preview', contents, config: { tools } });
    const stripped = structuredClone(contents);
    delete stripped[1]!.parts![0]!.thoughtSignature;
    expect((await refusal(ai.models.generateContent({ model: 'gemini-3-flash-preview', contents: stripped, config: { tools } }))).message).toBe(
      'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:get_weather` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
    );
    // A later user turn closes the turn: earlier calls need no signature any more.
    await ai.models.generateContent({ model: 'gemini-3-flash-preview', contents: [...stripped, { role: 'model', parts: [{ text: '20 degrees' }] }, { role: 'user', parts: [{ text: 'thanks' }] }], config: { tools } });
    await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: stripped, config: { tools } });
  });
});

describe('strict Gemini stand-in: listing', () => {
  it('pages models.list and answers models.get, with token limits and thinking', async () => {
    const ai = await start();
    const names: string[] = [];
    for await (const model of await ai.models.list({ config: { pageSize: 4 } })) names.push(model.name ?? '');
    expect(names).toContain('models/gemini-2.5-flash');
    expect(names).toHaveLength(11);
    const flash = await ai.models.get({ model: 'gemini-2.5-flash' });
    expect(flash).toMatchObject({ name: 'models/gemini-2.5-flash', inputTokenLimit: 1_048_576, outputTokenLimit: 65_536, thinking: true });
    await expect(ai.models.get({ model: 'gemini-9' })).rejects.toMatchObject({ status: 404 });
  });

  it('answers an unknown model with NOT_FOUND and streams a known one', async () => {
    const ai = await start();
    const error = (await ai.models.generateContent({ model: 'gemini-9', contents: 'hi' }).catch((e: unknown) => e)) as { status: number };
    expect(error.status).toBe(404);
    let text = '';
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-3.5-flash', contents: 'hi' })) text += chunk.text ?? '';
    expect(text).toBe('ok');
  });
});
