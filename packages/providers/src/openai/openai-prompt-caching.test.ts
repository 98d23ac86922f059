import { describe, expect, it } from 'vitest';
import { BIG_TEXT, CHANGED_TEXT, dedupedCalls, EXPECTED_REFERENCES, inJson, occurrences, pngBase64 } from '../__fixtures__/dedup-conversation.ts';
import type { ProviderRequest } from '../provider.ts';
import { resourcesOfTurn, thirtyTurnConversation, TURNS, wireMarker } from './__fixtures__/thirty-turn-conversation.ts';
import { convertToOpenAIRequest } from './convert-to-openai-request.ts';

// OpenAI caches prompt prefixes automatically; it only hits when request k+1 starts with request
// k's input byte for byte. Resources must therefore live in the turn that attached them.

const system = 'You are jp.';
const tools = [{ name: 'refresh_resource', description: 'Re-read a resource', parameters: { type: 'object' } }];
const { events, requestEnds } = thirtyTurnConversation();
const requests = requestEnds.map(
  (end) => convertToOpenAIRequest({ model: 'gpt-test', events: events.slice(0, end), system, tools } satisfies ProviderRequest).request,
);

describe('convertToOpenAIRequest: prefix stability over a 30-turn conversation', () => {
  it('builds one request per turn, each ending with that turn’s user message', () => {
    expect(requests).toHaveLength(TURNS);
    requests.forEach((request, k) => {
      const last = request.input.at(-1) as { role?: string; content: Array<{ text?: string }> };
      expect([last.role, last.content[0]?.text, last.content.length]).toEqual(['user', `Question ${k}?`, 1 + resourcesOfTurn(k).length]);
    });
  });

  it('request k+1 begins with request k’s input items, byte for byte, and keeps instructions and tools', () => {
    for (let k = 0; k + 1 < requests.length; k += 1) {
      const before = requests[k]!;
      const after = requests[k + 1]!;
      expect(after.input.length).toBeGreaterThan(before.input.length);
      before.input.forEach((item, index) => expect(JSON.stringify(after.input[index])).toBe(JSON.stringify(item)));
      expect(JSON.stringify([after.instructions, after.tools, after.model])).toBe(JSON.stringify([before.instructions, before.tools, before.model]));
    }
  });

  it('puts turn N’s resources in turn N’s user message and nowhere else', () => {
    const last = requests.at(-1)!;
    const userMessages = last.input.filter((item) => 'role' in item && item.role === 'user');
    expect(userMessages).toHaveLength(TURNS);
    let checked = 0;
    for (let n = 0; n < TURNS; n += 1) {
      for (const resource of resourcesOfTurn(n)) {
        const needle = wireMarker(resource);
        const holders = last.input.flatMap((item, index) => (JSON.stringify(item).includes(needle) ? [index] : []));
        expect(holders, resource.uri).toEqual([last.input.indexOf(userMessages[n]!)]);
        checked += 1;
      }
    }
    expect(checked).toBe(6);
    // The image travels as a data URL inside turn 9's message.
    expect(JSON.stringify(userMessages[9])).toContain('"type":"input_image"');
  });
});

describe('convertToOpenAIRequest: prefix stability with deduplication', () => {
  const requests = dedupedCalls().map((events) => convertToOpenAIRequest({ model: 'gpt-test', events, system }).request);

  it('request k+1 begins with request k’s input items when unchanged resources come back', () => {
    expect(requests).toHaveLength(7);
    for (let k = 0; k + 1 < requests.length; k += 1) {
      requests[k]!.input.forEach((item, index) => expect(JSON.stringify(requests[k + 1]!.input[index])).toBe(JSON.stringify(item)));
    }
  });

  it('sends a re-attached image as text holding the reference, not as an image', () => {
    const turn3 = requests[4]!.input.at(-1) as { content: Array<{ type: string; text?: string }> };
    expect(turn3.content.map((part) => part.type)).toEqual(['input_text', 'input_text', 'input_text']);
    expect(turn3.content[2]!.text).toMatch(/^<resource uri="file:\/\/\/w\/p\.png" name="p\.png" mimeType="image\/png"><!\[CDATA\[\[unchanged: same content as file:\/\/\/w\/p\.png attached in turn 1 /);
  });

  it('sends each content once and every repeat as a reference', () => {
    const last = JSON.stringify(requests.at(-1));
    expect(occurrences(last, inJson(BIG_TEXT))).toBe(1);
    expect(occurrences(last, inJson(CHANGED_TEXT))).toBe(1);
    expect(occurrences(last, pngBase64())).toBe(1);
    for (const [reference, count] of EXPECTED_REFERENCES) expect(occurrences(last, reference), reference).toBe(count);
  });
});
