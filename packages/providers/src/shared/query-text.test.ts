import { describe, expect, it } from 'vitest';
import { blobResource, textResource, toolCall, toolResult, turn } from '../__fixtures__/conversation.ts';
import { convertToAnthropicRequest } from '../anthropic/convert-to-anthropic-request.ts';
import { convertToGoogleRequest } from '../google/convert-to-google-request.ts';
import { convertToOpenAICompatibleChatRequest } from '../openai-compatible/convert-to-openai-compatible-chat-request.ts';
import { convertToOpenAIRequest } from '../openai/convert-to-openai-request.ts';
import { NOTHING_TO_SEND } from './query-text.ts';

const convert = {
  anthropic: (events: Parameters<typeof convertToAnthropicRequest>[0]['events']) => convertToAnthropicRequest({ model: 'm', events }).request.messages,
  openai: (events: Parameters<typeof convertToOpenAIRequest>[0]['events']) => convertToOpenAIRequest({ model: 'm', events }).request.input,
  google: (events: Parameters<typeof convertToGoogleRequest>[0]['events']) => convertToGoogleRequest({ model: 'm', events }).request.contents,
  openrouter: (events: Parameters<typeof convertToOpenAICompatibleChatRequest>[0]['events']) => convertToOpenAICompatibleChatRequest({ model: 'm', events }, 'openrouter').request.messages,
};

/** Every text the request carries, wherever the vendor puts it. */
function texts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(texts);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === 'text' && typeof inner === 'string' ? [inner] : texts(inner)));
}

describe('jp writes no empty or whitespace-only text (RFD 031)', () => {
  for (const [vendor, build] of Object.entries(convert)) {
    it(`${vendor}: a whitespace-only query beside a resource sends the resource alone`, () => {
      const sent = texts(build(turn('  \n\t', [textResource('file:///w/a.txt', 'content A')])));
      expect(sent.some((text) => text.trim() === '')).toBe(false);
      expect(JSON.stringify(build(turn('  \n\t', [textResource('file:///w/a.txt', 'content A')])))).toContain('content A');
    });

    it(`${vendor}: a turn with nothing jp can send says so instead of an empty message`, () => {
      const binary = blobResource('file:///w/a.bin', 'application/x-unknown', new Uint8Array([0, 159, 146, 150, 255, 0]));
      const messages = build(turn(' ', [binary]));
      expect(texts(messages)).toEqual([NOTHING_TO_SEND]);
    });
  }

  it('anthropic: a tool result keeps its text and drops whitespace-only blocks', () => {
    const events = turn('go', [], toolCall('c1', 'run', {}), toolResult('c1', [{ type: 'text', text: ' \n' }, { type: 'text', text: 'done' }]), toolCall('c2', 'run', {}), toolResult('c2', [{ type: 'text', text: '   ' }]));
    const results = convert.anthropic(events).flatMap((message) => (Array.isArray(message.content) ? message.content : [])).filter((block) => block.type === 'tool_result');
    expect(results.map((block) => ('content' in block ? block.content : undefined))).toEqual([[{ type: 'text', text: 'done' }], undefined]);
  });
});
