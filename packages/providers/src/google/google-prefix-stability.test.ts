import type { ConversationEvent, Resource } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { blobResource, chatResponse, PNG_BYTES, textResource, turn } from '../__fixtures__/conversation.ts';
import { convertToGoogleRequest } from './convert-to-google-request.ts';
import { BIG_TEXT, CHANGED_TEXT, dedupedCalls, EXPECTED_REFERENCES, inJson, occurrences, pngBase64 } from '../__fixtures__/dedup-conversation.ts';
import type { Content } from './google-types.ts';

// Gemini's prompt cache hits only while each request starts with the previous one. A scripted
// 30-turn conversation: text attachments at turns 0, 5 and 17, an image at turn 9, an answer after
// every question. Request k is what the provider sends at turn k (the events up to its question).

const TURNS = 30;
const attachments = new Map<number, Resource[]>([
  [0, [textResource('file:///w/README.md', '# jp\nA CLI ]]> for programmers.\n', { name: 'README.md', mimeType: 'text/markdown' })]],
  [5, [textResource('file:///w/src/a.ts', 'export const a = 1;\n', { name: 'src/a.ts' }), textResource('file:///w/src/b.ts', 'export const b = 2;\n')]],
  [9, [blobResource('file:///w/shot.png', 'image/png', PNG_BYTES, { name: 'shot.png' })]],
  [17, [textResource('cmd://git?arg=diff', 'diff --git a/x b/x\n+1\n', { name: 'git diff' })]],
]);

function conversation(): { events: ConversationEvent[]; requestEnds: number[] } {
  const events: ConversationEvent[] = [];
  const requestEnds: number[] = [];
  for (let n = 0; n < TURNS; n += 1) {
    events.push(...turn(`question ${n}`, attachments.get(n) ?? []));
    requestEnds.push(events.length);
    events.push(chatResponse(`answer ${n}`));
  }
  return { events, requestEnds };
}

const { events, requestEnds } = conversation();
const requests = requestEnds.map((end) => convertToGoogleRequest({ model: 'gemini-test', events: events.slice(0, end), system: 'You are jp.' }).request);
const userContentOfTurn = (contents: Content[], n: number) => contents[2 * n]!;

describe('google requests over a 30-turn conversation', () => {
  it('builds 30 requests, each with one user content per turn and one model content per answer so far', () => {
    expect(requests).toHaveLength(TURNS);
    requests.forEach((request, k) => {
      expect(request.contents).toHaveLength(2 * k + 1);
      expect(request.contents.map((content) => content.role)).toEqual(Array.from({ length: 2 * k + 1 }, (_, i) => (i % 2 === 0 ? 'user' : 'model')));
    });
  });

  it('request k+1 begins with request k’s contents, byte for byte', () => {
    for (let k = 0; k + 1 < TURNS; k += 1) {
      const before = requests[k]!;
      const after = requests[k + 1]!;
      before.contents.forEach((content, index) => expect(JSON.stringify(after.contents[index])).toBe(JSON.stringify(content)));
      expect(JSON.stringify(after.config)).toBe(JSON.stringify(before.config));
      // The whole serialized prefix, not only content by content.
      const prefix = JSON.stringify(before.contents).slice(0, -1);
      expect(JSON.stringify(after.contents).startsWith(prefix)).toBe(true);
    }
  });

  it('puts turn N’s resources in turn N’s user content and nowhere else', () => {
    const last = requests.at(-1)!.contents;
    const markers = new Map<number, string[]>([
      [0, ['file:///w/README.md']],
      [5, ['file:///w/src/a.ts', 'file:///w/src/b.ts']],
      [9, [Buffer.from(PNG_BYTES).toString('base64')]],
      [17, ['cmd://git?arg=diff']],
    ]);
    for (const [n, needles] of markers) {
      for (const needle of needles) {
        const holders = last.flatMap((content, index) => (JSON.stringify(content).includes(needle) ? [index] : []));
        expect(holders, `${needle} of turn ${n}`).toEqual([2 * n]);
      }
    }
    expect(userContentOfTurn(last, 9).parts).toEqual([
      { text: 'question 9' },
      { inlineData: { mimeType: 'image/png', data: Buffer.from(PNG_BYTES).toString('base64') } },
    ]);
    expect(userContentOfTurn(last, 5).parts?.map((part) => part.text)).toEqual([
      'question 5',
      expect.stringMatching(/^<resource uri="file:\/\/\/w\/src\/a\.ts" name="src\/a\.ts"/),
      expect.stringMatching(/^<resource uri="file:\/\/\/w\/src\/b\.ts" mimeType="text\/plain"/),
    ]);
    // Turns without attachments carry their question only.
    for (const n of [1, 4, 6, 10, 18, 29]) expect(userContentOfTurn(last, n).parts).toEqual([{ text: `question ${n}` }]);
  });

  it('keeps a resource where it was attached when the conversation grows', () => {
    for (let k = 17; k < TURNS; k += 1) {
      expect(JSON.stringify(userContentOfTurn(requests[k]!.contents, 17))).toContain('cmd://git?arg=diff');
      expect(JSON.stringify(requests[k]!.contents.slice(2 * 17 + 1))).not.toContain('cmd://git?arg=diff');
    }
  });
});

describe('google requests with deduplication', () => {
  const requests = dedupedCalls().map((events) => convertToGoogleRequest({ model: 'gemini-test', events, system: 'You are jp.' }).request);

  it('request k+1 begins with request k’s contents, byte for byte, when unchanged resources come back', () => {
    expect(requests).toHaveLength(7);
    for (let k = 0; k + 1 < requests.length; k += 1) {
      const prefix = JSON.stringify(requests[k]!.contents).slice(0, -1);
      expect(JSON.stringify(requests[k + 1]!.contents).startsWith(prefix)).toBe(true);
    }
  });

  it('sends a re-attached image as an XML text part holding the reference, not as inlineData', () => {
    const turn3 = requests[4]!.contents.at(-1) as Content;
    expect(turn3.parts?.map((part) => Object.keys(part))).toEqual([['text'], ['text'], ['text']]);
    expect(turn3.parts?.[2]?.text).toMatch(/^<resource uri="file:\/\/\/w\/p\.png" name="p\.png" mimeType="image\/png"><!\[CDATA\[\[unchanged: same content as file:\/\/\/w\/p\.png attached in turn 1 /);
  });

  it('sends each content once and every repeat as a reference', () => {
    const last = JSON.stringify(requests.at(-1));
    expect(occurrences(last, inJson(BIG_TEXT))).toBe(1);
    expect(occurrences(last, inJson(CHANGED_TEXT))).toBe(1);
    expect(occurrences(last, pngBase64())).toBe(1);
    for (const [reference, count] of EXPECTED_REFERENCES) expect(occurrences(last, reference), reference).toBe(count);
  });
});
