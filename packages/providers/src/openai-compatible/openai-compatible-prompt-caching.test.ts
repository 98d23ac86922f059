import { describe, expect, it } from 'vitest';
import { countCacheControl, stripCacheControl } from '../__fixtures__/cache-control.ts';
import { resourcesOfTurn, thirtyTurnConversation, TURNS, wireMarker } from '../openai/__fixtures__/thirty-turn-conversation.ts';
import { convertToOpenAICompatibleChatRequest } from './convert-to-openai-compatible-chat-request.ts';
import type { OpenAICompatibleVendor } from './openai-compatible-vendor.ts';
import { BIG_TEXT, CHANGED_TEXT, dedupedCalls, EXPECTED_REFERENCES, inJson, occurrences, pngBase64 } from '../__fixtures__/dedup-conversation.ts';

// Prompt caches (automatic, or Anthropic's and Gemini's behind OpenRouter's markers) hit only when
// request k+1 starts with request k's messages; markers move each turn, so they are set aside.

const system = 'You are jp.';
const tools = [{ name: 'refresh_resource', description: 'Re-read a resource', parameters: { type: 'object' } }];
const { events, requestEnds } = thirtyTurnConversation();

const cases: Array<[OpenAICompatibleVendor, string, boolean]> = [
  ['openrouter', 'anthropic/claude-sonnet-4.5', true],
  ['openrouter', 'google/gemini-2.5-pro', true],
  ['openrouter', 'openai/gpt-4o', false],
  ['ollama', 'llama3.2-vision', false],
];

describe.each(cases)('%s %s: prefix stability over a 30-turn conversation', (vendor, model, marked) => {
  const requests = requestEnds.map(
    (end) => convertToOpenAICompatibleChatRequest({ model, events: events.slice(0, end), system, tools }, vendor).request,
  );

  it('request k+1 begins with request k’s messages byte for byte, cache markers removed', () => {
    expect(requests).toHaveLength(TURNS);
    for (let k = 0; k + 1 < requests.length; k += 1) {
      const before = stripCacheControl(requests[k]!);
      const after = stripCacheControl(requests[k + 1]!);
      expect(after.messages.length).toBeGreaterThan(before.messages.length);
      before.messages.forEach((message, index) => expect(JSON.stringify(after.messages[index])).toBe(JSON.stringify(message)));
      expect(JSON.stringify([after.tools, after.model])).toBe(JSON.stringify([before.tools, before.model]));
    }
  });

  it(marked ? 'uses at most four cache markers, always on the newest user message' : 'uses no cache markers', () => {
    for (const request of requests) {
      const count = countCacheControl(request);
      if (!marked) {
        expect(count).toBe(0);
        continue;
      }
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(4);
      expect(JSON.stringify(request.messages.at(-1))).toContain('"cache_control"');
    }
  });

  it('puts turn N’s resources in turn N’s user message and nowhere else', () => {
    const last = stripCacheControl(requests.at(-1)!);
    const userIndexes = last.messages.flatMap((message, index) => (message.role === 'user' ? [index] : []));
    expect(userIndexes).toHaveLength(TURNS);
    let checked = 0;
    for (let n = 0; n < TURNS; n += 1) {
      for (const resource of resourcesOfTurn(n)) {
        const holders = last.messages.flatMap((message, index) => (JSON.stringify(message).includes(wireMarker(resource)) ? [index] : []));
        expect(holders, resource.uri).toEqual([userIndexes[n]]);
        checked += 1;
      }
    }
    expect(checked).toBe(6);
    expect(JSON.stringify(last.messages[userIndexes[9]!])).toContain('"type":"image_url"');
  });
});

describe.each(cases)('%s %s: prefix stability with deduplication', (vendor, model) => {
  const requests = dedupedCalls().map((events) => convertToOpenAICompatibleChatRequest({ model, events, system }, vendor).request);

  it('request k+1 begins with request k’s messages when unchanged resources come back, cache markers removed', () => {
    expect(requests).toHaveLength(7);
    for (let k = 0; k + 1 < requests.length; k += 1) {
      const before = stripCacheControl(requests[k]!);
      const after = stripCacheControl(requests[k + 1]!);
      before.messages.forEach((message, index) => expect(JSON.stringify(after.messages[index])).toBe(JSON.stringify(message)));
    }
  });

  it('sends a re-attached image as text holding the reference', () => {
    const turn3 = JSON.stringify(stripCacheControl(requests[4]!).messages.at(-1));
    expect(turn3).not.toContain('image_url');
    expect(turn3).toContain('same content as file:///w/p.png attached in turn 1');
  });

  it('sends each content once and every repeat as a reference', () => {
    const last = JSON.stringify(requests.at(-1));
    expect(occurrences(last, inJson(BIG_TEXT))).toBe(1);
    expect(occurrences(last, inJson(CHANGED_TEXT))).toBe(1);
    expect(occurrences(last, pngBase64())).toBe(1);
    for (const [reference, count] of EXPECTED_REFERENCES) expect(occurrences(last, reference), reference).toBe(count);
  });
});
