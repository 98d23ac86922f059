import type { ConversationEvent } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { countCacheControl, stripCacheControl } from '../__fixtures__/cache-control.ts';
import {
  blobResource,
  chatResponse,
  configDelta,
  PDF_BYTES,
  PNG_BYTES,
  reasoning,
  textResource,
  toolCall,
  toolResult,
  turn,
} from '../__fixtures__/conversation.ts';
import {
  BIG_PNG,
  BIG_TEXT,
  CHANGED_TEXT,
  dedupedAsTheAppDoes,
  dedupedCalls,
  EXPECTED_REFERENCES,
  inJson,
  occurrences,
  pngBase64,
} from '../__fixtures__/dedup-conversation.ts';
import type { ProviderRequest } from '../provider.ts';
import { convertToAnthropicRequest } from './convert-to-anthropic-request.ts';

// Prompt caching depends on two properties of the converter: requests grow by appending only,
// and cache breakpoints sit at real positions (at most four).

const convert = (events: ConversationEvent[], extra: Partial<ProviderRequest> = {}) =>
  convertToAnthropicRequest({ model: 'claude-test', events, ...extra });

const ephemeral = { type: 'ephemeral' };

/** A scripted conversation and the points where the turn loop calls the provider. */
function scriptedConversation(): { events: ConversationEvent[]; callPoints: number[] } {
  const events: ConversationEvent[] = [
    configDelta({ attachments: ['a.txt'] }),
    ...turn('What is in a.txt and doc.pdf?', [
      textResource('file:///w/a.txt', 'alpha\n', { name: 'a.txt' }),
      blobResource('file:///w/doc.pdf', 'application/pdf', PDF_BYTES, { name: 'doc.pdf' }),
    ]),
    chatResponse('a.txt says alpha.'),
    ...turn('Refresh a.txt please'),
    reasoning('use the tool'),
    toolCall('toolu_a', 'refresh_resource', { uri: 'file:///w/a.txt' }),
    toolResult('toolu_a', [{ type: 'resource', resource: textResource('file:///w/a.txt', 'alpha 2\n') }]),
    toolCall('toolu_b', 'refresh_resource', { uri: 'file:///w/doc.pdf' }),
    toolResult('toolu_b', [{ type: 'text', text: 'unchanged' }]),
    chatResponse('Now it says alpha 2.'),
    ...turn('And this image?', [blobResource('file:///w/p.png', 'image/png', PNG_BYTES)]),
    chatResponse('A PNG header.'),
    ...turn('Thanks', [], chatResponse('You are welcome.')),
    ...turn('One more', [textResource('file:///w/z.txt', 'zzz')]),
  ];
  const callPoints = events.flatMap((event, index) => {
    const next = events[index + 1];
    const isRequest = event.type === 'chat_request';
    const endsToolBatch = event.type === 'tool_call_response' && next?.type !== 'tool_call_response';
    return isRequest || endsToolBatch ? [index + 1] : [];
  });
  return { events, callPoints };
}

describe('convertToAnthropicRequest: prompt caching', () => {
  const system = 'You are jp.';
  const tools = [{ name: 'refresh_resource', description: 'Re-read', parameters: { type: 'object' } }];
  const { events, callPoints } = scriptedConversation();
  const requests = callPoints.map((end) => convert(events.slice(0, end), { system, tools }).request);

  it('builds one request per provider call of the scripted conversation', () => {
    expect(callPoints).toHaveLength(7);
  });

  it('request k+1 begins with request k’s messages unchanged (cache markers aside)', () => {
    for (let k = 0; k + 1 < requests.length; k += 1) {
      const before = stripCacheControl(requests[k]!);
      const after = stripCacheControl(requests[k + 1]!);
      expect(after.messages.length).toBeGreaterThanOrEqual(before.messages.length);
      expect(after.messages.slice(0, before.messages.length)).toEqual(before.messages);
      before.messages.forEach((message, index) => expect(JSON.stringify(after.messages[index])).toBe(JSON.stringify(message)));
      expect([after.system, after.tools, after.model]).toEqual([before.system, before.tools, before.model]);
    }
  });

  it('never uses more than four cache breakpoints, and marks the newest user message and newest resources', () => {
    for (const request of requests) expect(countCacheControl(request)).toBeLessThanOrEqual(4);

    const last = requests.at(-1)!;
    const marked = last.messages.flatMap((message, m) =>
      (message.content as { type: string; cache_control?: unknown }[]).flatMap((block, b) => (block.cache_control ? [`${m}:${b}:${block.type}`] : [])),
    );
    // Newest user message (z.txt's document, also the newest resource) and the previous user message.
    expect(marked).toEqual([`${last.messages.length - 3}:0:text`, `${last.messages.length - 1}:1:document`]);
    expect(last.system).toEqual([{ type: 'text', text: system, cache_control: ephemeral }]);

    // At the tool loop's second call: newest user = toolu_b's result, previous = toolu_a's, newest resources = turn 0's PDF.
    const toolLoop = requests[3]!;
    const toolLoopMarked = toolLoop.messages.flatMap((message, m) =>
      (message.content as { type: string; cache_control?: unknown }[]).flatMap((block, b) => (block.cache_control ? [`${m}:${b}:${block.type}`] : [])),
    );
    expect(toolLoopMarked).toEqual(['0:2:document', '4:0:tool_result', '6:0:tool_result']);
    expect(countCacheControl(toolLoop)).toBe(4);
  });

  it('names every document by its exact URI in `context`, in every request, so the model can refresh it', () => {
    for (const request of requests) {
      const documents = request.messages.flatMap((message) =>
        (message.content as { type: string; title?: string; context?: string }[]).filter((block) => block.type === 'document'),
      );
      for (const document of documents) expect(document.context).toMatch(/^uri: file:\/\/\/w\/[a-z]+\.(txt|pdf)$/);
    }
    const last = requests.at(-1)!.messages;
    const turn0 = (last[0]!.content as { type: string; title?: string; context?: string }[]).filter((block) => block.type === 'document');
    expect(turn0.map(({ title, context }) => ({ title, context }))).toEqual([
      { title: 'a.txt', context: 'uri: file:///w/a.txt' },
      { title: 'doc.pdf', context: 'uri: file:///w/doc.pdf' },
    ]);
  });

  it('does not change its input', () => {
    const copy = structuredClone(events);
    convert(events, { system, tools });
    expect(events).toEqual(copy);
  });
});

describe('convertToAnthropicRequest: prompt caching with deduplication', () => {
  const requests = dedupedCalls().map((events) => convert(events, { system: 'You are jp.' }).request);

  it('request k+1 begins with request k’s messages unchanged when unchanged resources come back', () => {
    expect(requests).toHaveLength(7);
    for (let k = 0; k + 1 < requests.length; k += 1) {
      const before = stripCacheControl(requests[k]!);
      const after = stripCacheControl(requests[k + 1]!);
      before.messages.forEach((message, index) => expect(JSON.stringify(after.messages[index])).toBe(JSON.stringify(message)));
    }
  });

  it('sends an image a tool returns again as text holding the reference', () => {
    const image = blobResource('file:///w/p.png', 'image/png', BIG_PNG);
    const events: ConversationEvent[] = [
      ...turn('Look', [image]),
      toolCall('toolu_p', 'refresh_resource', { uri: 'file:///w/p.png' }),
      toolResult('toolu_p', [{ type: 'resource', resource: image }]),
    ];
    const plain = convert(events).request.messages.at(-1)!.content as Array<{ content: Array<{ type: string }> }>;
    expect(plain[0]!.content.map((block) => block.type)).toEqual(['image']);
    const deduped = convert(dedupedAsTheAppDoes(events)).request.messages.at(-1)!.content as Array<{
      content: Array<{ type: string; text?: string }>;
    }>;
    expect(deduped[0]!.content).toEqual([{ type: 'text', text: expect.stringMatching(/^\[unchanged: same content as file:\/\/\/w\/p\.png attached in turn 0 /) }]);
  });

  it('sends a re-attached image as a text document holding the reference', () => {
    const turn3 = stripCacheControl(requests[4]!).messages.at(-1)!.content as Array<{ type: string; source?: { data?: string } }>;
    expect(turn3.map((block) => block.type)).toEqual(['text', 'document', 'document']);
    expect(turn3[2]!.source!.data).toMatch(/^\[unchanged: same content as file:\/\/\/w\/p\.png attached in turn 1 \(sha256 [0-9a-f]{64}\); not repeated here\]$/);
  });

  it('sends each content once and every repeat as a reference', () => {
    const last = JSON.stringify(requests.at(-1));
    expect(occurrences(last, inJson(BIG_TEXT))).toBe(1);
    expect(occurrences(last, inJson(CHANGED_TEXT))).toBe(1);
    expect(occurrences(last, pngBase64())).toBe(1);
    for (const [reference, count] of EXPECTED_REFERENCES) expect(occurrences(last, reference), reference).toBe(count);
  });
});
