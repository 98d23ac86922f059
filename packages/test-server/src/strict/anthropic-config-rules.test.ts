// Request-level rules of the strict Anthropic stand-in: for each, a request it rejects (status and
// wording) and one it accepts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from './strict-test-fetch.ts';
import { createStrictServer } from './strict-server.mjs';
import { ANTHROPIC_MODELS } from './anthropic/anthropic-models.mjs';
import type { StrictServer } from './strict-types.d.mts';

let server: StrictServer;
beforeAll(async () => {
  const noStructured = { ...ANTHROPIC_MODELS.find((m) => m.id === 'claude-opus-4-8')!, id: 'claude-test-no-structured', structuredOutputs: false };
  server = await createStrictServer({ vendor: 'anthropic', models: [...ANTHROPIC_MODELS, noStructured] });
});
afterAll(() => server.close());

const user = [{ role: 'user', content: 'hi' }];
const send = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  post(server, '/v1/messages', { max_tokens: 4096, messages: user, ...body }, headers);
const ADAPTIVE_HINT = 'Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.';

type Case = [name: string, reject: Record<string, unknown>, message: string, accept: Record<string, unknown>, headers?: Record<string, string>];

const cases: Case[] = [
  ['thinking.type enabled on a 4.7+ model', { model: 'claude-opus-4-7', thinking: { type: 'enabled', budget_tokens: 2048 } }, `"thinking.type.enabled" is not supported for this model. ${ADAPTIVE_HINT}`, { model: 'claude-opus-4-7', thinking: { type: 'adaptive' } }],
  ['thinking.type adaptive on an extended-only model', { model: 'claude-sonnet-4-5', thinking: { type: 'adaptive' } }, 'adaptive thinking is not supported on this model', { model: 'claude-sonnet-4-5', thinking: { type: 'enabled', budget_tokens: 2048 } }],
  ['disabled on an always-on model', { model: 'claude-fable-5-1', thinking: { type: 'disabled' } }, `"thinking.type.disabled" is not supported for this model. ${ADAPTIVE_HINT}`, { model: 'claude-opus-4-8', thinking: { type: 'disabled' } }],
  ['disabled on Mythos Preview', { model: 'claude-mythos-preview', thinking: { type: 'disabled' } }, '"thinking.type.disabled" is not supported for this model. Thinking defaults to adaptive mode when not specified; use "thinking.type.enabled" with "budget_tokens" for extended thinking.', { model: 'claude-mythos-preview', thinking: { type: 'enabled', budget_tokens: 2048 } }],
  ['disabled on Sonnet 5.5', { model: 'claude-sonnet-5-5', thinking: { type: 'disabled' } }, 'To turn thinking off on this model, send "thinking": {"type": "between_tools"} instead of {"type": "disabled"}. The model does not think before responding. The short updates it writes between tool calls come back as thinking blocks.', { model: 'claude-sonnet-5-5', thinking: { type: 'between_tools' } }],
  ['between_tools on another model', { model: 'claude-opus-5-5', thinking: { type: 'between_tools' } }, '"thinking.type.between_tools" is not supported for this model.', { model: 'claude-opus-5-5', thinking: { type: 'adaptive' } }],
  ['budget_tokens under 1024', { model: 'claude-sonnet-4-5', thinking: { type: 'enabled', budget_tokens: 1000 } }, 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024', { model: 'claude-sonnet-4-5', thinking: { type: 'enabled', budget_tokens: 1024 } }],
  ['budget_tokens not below max_tokens', { model: 'claude-haiku-4-5', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 2048 } }, '`max_tokens` must be greater than `thinking.budget_tokens`.', { model: 'claude-haiku-4-5', max_tokens: 2049, thinking: { type: 'enabled', budget_tokens: 2048 } }],
  ['max_tokens over the model\'s maximum', { model: 'claude-sonnet-4-5', max_tokens: 64_001 }, 'max_tokens: 64001 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5', { model: 'claude-sonnet-4-5', max_tokens: 64_000 }],
  ['effort on a model without effort', { model: 'claude-haiku-4-5', output_config: { effort: 'low' } }, 'This model does not support the effort parameter.', { model: 'claude-opus-4-5', output_config: { effort: 'low' } }],
  ['an effort level the model lacks', { model: 'claude-opus-4-6', output_config: { effort: 'xhigh' } }, "output_config.effort: 'xhigh' is not supported for this model; supported values: 'low', 'medium', 'high', 'max'", { model: 'claude-opus-4-6', output_config: { effort: 'max' } }],
  ['thinking off above effort high (Opus 5)', { model: 'claude-opus-5', thinking: { type: 'disabled' }, output_config: { effort: 'xhigh' } }, "output_config.effort 'xhigh' is not supported when thinking is disabled on this model. Use effort 'high' or below, or enable thinking.", { model: 'claude-opus-5', thinking: { type: 'disabled' }, output_config: { effort: 'high' } }],
  ['between_tools above effort high (Sonnet 5.5)', { model: 'claude-sonnet-5-5', thinking: { type: 'between_tools' }, output_config: { effort: 'max' } }, "output_config.effort 'max' is not supported when thinking is disabled on this model. Use effort 'high' or below, or enable thinking.", { model: 'claude-sonnet-5-5', thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }],
  ['display with thinking disabled', { model: 'claude-opus-4-8', thinking: { type: 'disabled', display: 'omitted' } }, 'thinking.disabled.display: Extra inputs are not permitted', { model: 'claude-opus-4-8', thinking: { type: 'adaptive', display: 'omitted' } }],
  ['display "updates" without its beta', { model: 'claude-fable-5-1', thinking: { type: 'adaptive', display: 'updates' } }, "thinking.adaptive.display: Input should be 'summarized' or 'omitted'", { model: 'claude-fable-5-1', thinking: { type: 'adaptive', display: 'updates' } }, { 'anthropic-beta': 'thinking-display-updates-2026-08-18' }],
  ['output_config.format where structured outputs are not supported', { model: 'claude-test-no-structured', output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: {}, additionalProperties: false } } } }, 'output_config.format: Extra inputs are not permitted', { model: 'claude-opus-4-8', output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: {}, additionalProperties: false } } } }],
  ['a numeric constraint in the format schema', { model: 'claude-opus-5-5', output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'], additionalProperties: false } } } }, "output_config.format.schema: $.properties.n: 'minimum' is not supported", { model: 'claude-opus-5-5', output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false } } } }],
  ['additionalProperties other than false', { model: 'claude-opus-5-5', output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: {}, additionalProperties: true } } } }, "output_config.format.schema: $: 'additionalProperties' must be false", { model: 'claude-opus-5-5', output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: {} } } } }],
  ['a sampling parameter on Opus 4.7 and later', { model: 'claude-opus-4-7', temperature: 0.2 }, '`temperature` is deprecated for this model.', { model: 'claude-opus-4-7', temperature: 1 }],
  ['temperature with thinking on an older model', { model: 'claude-sonnet-4-5', temperature: 0.2, thinking: { type: 'enabled', budget_tokens: 2048 } }, '`temperature` may only be set to 1 when thinking is enabled', { model: 'claude-sonnet-4-5', temperature: 0.2 }],
  ['temperature and top_p together on a 4.6 model', { model: 'claude-opus-4-6', temperature: 0.2, top_p: 0.9 }, '`temperature` and `top_p` cannot both be specified for this model. Please use only one.', { model: 'claude-opus-4-6', temperature: 0.2 }],
  ['five cache breakpoints', { model: 'claude-opus-4-8', system: [1, 2, 3, 4, 5].map((n) => ({ type: 'text', text: `s${n}`, cache_control: { type: 'ephemeral' } })) }, 'A maximum of 4 blocks with cache_control may be provided. Found 5.', { model: 'claude-opus-4-8', system: [1, 2, 3, 4].map((n) => ({ type: 'text', text: `s${n}`, cache_control: { type: 'ephemeral' } })) }],
];

describe('strict Anthropic stand-in: request rules', () => {
  it.each(cases)('%s', async (_name, reject, message, accept, headers = {}) => {
    const refused = await send(reject);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message } });
    const accepted = await send(accept, headers);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  });

  it('answers an unknown model with the 404 not_found_error', async () => {
    const answer = await send({ model: 'claude-opus-9' });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ type: 'error', error: { type: 'not_found_error', message: 'model: claude-opus-9' } });
  });

  it('answers a structured-output request with JSON that fits the schema', async () => {
    const schema = { type: 'object', properties: { title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['title', 'tags'], additionalProperties: false };
    const answer = await send({ model: 'claude-sonnet-5-5', output_config: { format: { type: 'json_schema', schema } } });
    const text = answer.body.content.find((block: { type: string }) => block.type === 'text').text;
    expect(JSON.parse(text)).toEqual({ title: 'x', tags: [] });
  });

  it('records every refusal with its index, status and body', () => {
    expect(server.rejections.length).toBe(cases.length + 1);
    expect(server.rejections.every((r) => r.status >= 400 && typeof r.index === 'number')).toBe(true);
  });
});
