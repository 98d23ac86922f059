// Message rules of the strict Anthropic stand-in: text blocks, prefill, tool pairing, the thinking-first
// rule, system messages and tool changes, images and PDFs. Each: one rejected, one accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from './strict-test-fetch.ts';
import { createStrictServer } from './strict-server.mjs';
import type { StrictServer } from './strict-types.d.mts';

let server: StrictServer;
beforeAll(async () => {
  server = await createStrictServer({ vendor: 'anthropic' });
});
afterAll(() => server.close());

const send = (body: Record<string, unknown>, headers: Record<string, string> = {}) => post(server, '/v1/messages', { max_tokens: 4096, ...body }, headers);

/** A PNG header of the given size (the stand-in reads the IHDR only). */
function png(width: number, height: number) {
  const bytes = Buffer.alloc(33);
  bytes.writeUInt32BE(0x89504e47, 0);
  bytes.writeUInt32BE(0x0d0a1a0a, 4);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'ascii');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return { type: 'image', source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') } };
}
const pdf = (pages: number) => ({
  type: 'document',
  source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from(`%PDF-1.4\n${'1 0 obj << /Type /Page >> endobj\n'.repeat(pages)}`).toString('base64') },
});
const toolUse = (id: string) => ({ type: 'tool_use', id, name: 'read_file', input: { path: 'a' } });
const toolResult = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'x' });
const tools = [{ name: 'read_file', description: 'Read a file.', input_schema: { type: 'object', properties: {} } }];

type Case = [name: string, reject: Record<string, unknown>, message: string, accept: Record<string, unknown>, headers?: Record<string, string>, rejectHeaders?: Record<string, string>];

const m = 'claude-opus-5';
const cases: Case[] = [
  ['an empty text block', { model: m, messages: [{ role: 'user', content: [{ type: 'text', text: '' }, { type: 'text', text: 'x' }] }] }, 'messages: text content blocks must be non-empty', { model: m, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] }],
  ['whitespace-only text with nothing else in the message', { model: m, messages: [{ role: 'user', content: '\n' }] }, 'messages: text content blocks must contain non-whitespace text', { model: m, messages: [{ role: 'user', content: [{ type: 'text', text: ' ' }, { type: 'text', text: 'hi' }] }] }],
  ['whitespace text beside a tool call is fine; alone it is not', { model: m, tools, messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [{ type: 'text', text: '\n\n' }] }, { role: 'user', content: 'again' }] }, 'messages: text content blocks must contain non-whitespace text', { model: m, tools, messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [{ type: 'text', text: '\n\n' }, toolUse('t1')] }, { role: 'user', content: [toolResult('t1')] }] }],
  ['a user message without content', { model: m, messages: [{ role: 'user', content: [] }] }, 'messages.0: user messages must have non-empty content', { model: m, messages: [{ role: 'user', content: 'hi' }] }],
  ['a whitespace-only system prompt', { model: m, system: '   ', messages: [{ role: 'user', content: 'hi' }] }, 'system: text content blocks must contain non-whitespace text', { model: m, system: '', messages: [{ role: 'user', content: 'hi' }] }],
  ['prefill on a 4.6+ model', { model: 'claude-opus-4-6', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'The answer is' }] }, 'This model does not support assistant message prefill. The conversation must end with a user message.', { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'The answer is' }] }],
  ['a tool_use without its tool_result', { model: m, tools, messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [toolUse('t1'), toolUse('t2')] }, { role: 'user', content: [toolResult('t1')] }] }, 'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: t2. Each `tool_use` block must have a corresponding `tool_result` block in the next message.', { model: m, tools, messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [toolUse('t1'), toolUse('t2')] }, { role: 'user', content: [toolResult('t1'), toolResult('t2')] }] }],
  ['a tool_result without its tool_use', { model: m, tools, messages: [{ role: 'user', content: [toolResult('t9')] }] }, 'messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: t9. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.', { model: m, tools, messages: [{ role: 'user', content: 'go' }] }],
  ['a system message on a model without them', { model: 'claude-opus-4-6', messages: [{ role: 'user', content: 'hi' }, { role: 'system', content: 'Be brief.' }] }, 'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.', { model: 'claude-opus-4-8', messages: [{ role: 'user', content: 'hi' }, { role: 'system', content: 'Be brief.' }] }],
  ['a system message first', { model: m, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] }, "messages.0: use the top-level 'system' parameter for the initial system prompt; the directive-only form (content: [] with output_config) is accepted at any position", { model: m, messages: [{ role: 'system', content: [], output_config: { effort: 'low' } }, { role: 'user', content: 'hi' }] }, { 'anthropic-beta': 'mid-conversation-output-config-2026-07-01' }],
  ['a system message after an assistant turn', { model: m, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'yes' }, { role: 'system', content: 'Be brief.' }, { role: 'user', content: 'go' }] }, 'messages.2: a system message must immediately follow a user turn and precede an assistant turn or end `messages`', { model: m, messages: [{ role: 'user', content: 'hi' }, { role: 'system', content: 'Be brief.' }, { role: 'assistant', content: 'yes' }, { role: 'user', content: 'go' }] }],
  ['a system message between tool_use and tool_result', { model: m, tools, messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [toolUse('t1')] }, { role: 'system', content: 'Note.' }, { role: 'user', content: [toolResult('t1')] }] }, 'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: t1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.', { model: m, tools, messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [toolUse('t1')] }, { role: 'user', content: [toolResult('t1')] }, { role: 'system', content: 'Note.' }] }],
  ['clear_at without its beta', { model: m, messages: [{ role: 'user', content: 'hi' }, { role: 'system', clear_at: 'next_user_message', content: 'Be brief.' }] }, 'messages.1.clear_at: Extra inputs are not permitted', { model: m, messages: [{ role: 'user', content: 'hi' }, { role: 'system', clear_at: 'next_user_message', content: 'Be brief.' }] }, { 'anthropic-beta': 'mid-conversation-system-clear-at-2026-08-21' }],
  ['tool_addition without its beta', { model: m, tools, messages: [{ role: 'user', content: 'hi' }, { role: 'system', content: [{ type: 'tool_addition', tool: { type: 'tool_reference', name: 'read_file' } }] }] }, "messages.1.content.0.type: Input tag 'tool_addition' found using 'type' does not match any of the expected tags", { model: m, tools, messages: [{ role: 'user', content: 'hi' }, { role: 'system', content: [{ type: 'tool_addition', tool: { type: 'tool_reference', name: 'read_file' } }] }] }, { 'anthropic-beta': 'mid-conversation-tool-changes-2026-07-01' }],
  ['per-message effort changed under between_tools', { model: 'claude-sonnet-5-5', thinking: { type: 'between_tools' }, messages: [{ role: 'user', content: 'hi' }, { role: 'system', content: [], output_config: { effort: 'low' } }] }, "messages.1: output_config.effort 'low' differs from the 'high' in effect before it; effort cannot change when thinking is disabled on this model. Use effort 'high', or enable thinking.", { model: 'claude-sonnet-5-5', thinking: { type: 'adaptive' }, messages: [{ role: 'user', content: 'hi' }, { role: 'system', content: [], output_config: { effort: 'low' } }] }, { 'anthropic-beta': 'mid-conversation-output-config-2026-07-01' }, { 'anthropic-beta': 'mid-conversation-output-config-2026-07-01' }],
  ['an image larger than 5 MB', { model: m, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(5 * 1024 * 1024 + 4) } }, { type: 'text', text: 'see' }] }] }, 'messages.0.content.0.image.source.base64: image exceeds 5 MB maximum: 5242884 bytes > 5242880 bytes', { model: m, messages: [{ role: 'user', content: [png(800, 600), { type: 'text', text: 'see' }] }] }],
  ['an image over 8000 px', { model: m, messages: [{ role: 'user', content: [png(8001, 10), { type: 'text', text: 'see' }] }] }, 'messages.0.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels', { model: m, messages: [{ role: 'user', content: [png(8000, 10), { type: 'text', text: 'see' }] }] }],
  ['an image over 2000 px among more than 20', { model: m, messages: [{ role: 'user', content: [png(2001, 10), ...Array.from({ length: 20 }, () => png(10, 10))] }] }, 'messages.0.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels', { model: m, messages: [{ role: 'user', content: [png(2001, 10), ...Array.from({ length: 19 }, () => png(10, 10))] }] }],
  ['PDFs over 100 pages', { model: m, messages: [{ role: 'user', content: [pdf(60), pdf(41), { type: 'text', text: 'read' }] }] }, 'A maximum of 100 PDF pages may be provided.', { model: m, messages: [{ role: 'user', content: [pdf(60), pdf(40), { type: 'text', text: 'read' }] }] }],
];

describe('strict Anthropic stand-in: message rules', () => {
  it.each(cases)('%s', async (_name, reject, message, accept, headers = {}, rejectHeaders = {}) => {
    const refused = await send(reject, rejectHeaders);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message } });
    const accepted = await send(accept, headers);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  });

  it('requires a thinking block first in the final assistant turn of a tool loop under manual extended thinking', async () => {
    const thinking = { type: 'enabled', budget_tokens: 2048 };
    server.enqueueReply({ blocks: [{ type: 'thinking', thinking: 'Need the file.' }, toolUse('t1') as never] });
    const first = await send({ model: 'claude-sonnet-4-5', thinking, tools, messages: [{ role: 'user', content: 'go' }] });
    const content = first.body.content;
    const withThinking = await send({ model: 'claude-sonnet-4-5', thinking, tools, messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content }, { role: 'user', content: [toolResult('t1')] }] });
    expect(withThinking.status).toBe(200);
    const without = await send({ model: 'claude-sonnet-4-5', thinking, tools, messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: content.slice(1) }, { role: 'user', content: [toolResult('t1')] }] });
    expect(without.status).toBe(400);
    expect(without.body.error.message).toBe(
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
    );
  });

  it('refuses a tool change naming a tool that is not in `tools`', async () => {
    const answer = await send({ model: m, tools, messages: [{ role: 'user', content: 'hi' }, { role: 'system', content: [{ type: 'tool_removal', tool: { type: 'tool_reference', name: 'deploy' } }] }] }, { 'anthropic-beta': 'mid-conversation-tool-changes-2026-07-01' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe("messages.1.content.0.tool.name: 'deploy' is not a tool declared in `tools`");
  });
});
