import { NOTHING_TO_SEND } from '../shared/query-text.ts';
import type { ConversationEvent } from '@jp/core';
import { describe, expect, it } from 'vitest';
import {
  blobResource,
  chatRequest,
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
import type { ProviderRequest } from '../provider.ts';
import { convertToGoogleRequest, GOOGLE_SKIP_THOUGHT_SIGNATURE } from './convert-to-google-request.ts';

const convert = (events: ConversationEvent[], extra: Partial<ProviderRequest> = {}) =>
  convertToGoogleRequest({ model: 'gemini-test', events, ...extra });

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('convertToGoogleRequest: resources', () => {
  it('sends the query, then each text resource as an XML text part, in the turn’s user content', () => {
    const { request, warnings } = convert(
      turn('Compare these', [
        textResource('file:///w/a.txt', 'alpha', { name: 'a.txt', title: 'Title A' }),
        textResource('file:///w/b.md', 'beta', { mimeType: 'text/markdown', formatted: '# beta' }),
      ]),
    );

    expect(warnings).toEqual([]);
    expect(request).toEqual({
      model: 'gemini-test',
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Compare these' },
            { text: '<resource uri="file:///w/a.txt" name="a.txt" title="Title A" mimeType="text/plain"><![CDATA[alpha]]></resource>' },
            { text: '<resource uri="file:///w/b.md" mimeType="text/markdown"><![CDATA[# beta]]></resource>' },
          ],
        },
      ],
      config: {},
    });
  });

  it('keeps text containing ]]> and quotes intact inside the XML', () => {
    const { request } = convert(turn('x', [textResource('file:///w/"q".txt', 'a ]]> b <tag> & "c"', { name: 'say "hi" & <bye>' })]));

    const xml = request.contents[0]?.parts?.[1]?.text ?? '';
    expect(xml).toBe(
      '<resource uri="file:///w/&quot;q&quot;.txt" name="say &quot;hi&quot; &amp; &lt;bye&gt;" mimeType="text/plain">' +
        '<![CDATA[a ]]]]><![CDATA[> b <tag> & "c"]]></resource>',
    );
    // Joining the CDATA sections gives the original text back.
    const sections = [...xml.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)].map((match) => match[1]);
    expect(sections.join('')).toBe('a ]]> b <tag> & "c"');
  });

  it('sends PNG and PDF bytes as inlineData with their base64', () => {
    const { request, warnings } = convert(
      turn('Look', [
        blobResource('file:///w/p.png', 'image/png', PNG_BYTES),
        blobResource('file:///w/doc.pdf', 'application/pdf', PDF_BYTES, { name: 'doc.pdf' }),
      ]),
    );

    expect(warnings).toEqual([]);
    expect(request.contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'Look' },
          { inlineData: { mimeType: 'image/png', data: base64(PNG_BYTES) } },
          { inlineData: { mimeType: 'application/pdf', data: base64(PDF_BYTES) } },
        ],
      },
    ]);
  });

  it('sends audio and video Gemini reads, under Gemini’s names for common aliases', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const { request, warnings } = convert(
      turn('Listen', [
        blobResource('file:///w/a.mp3', 'audio/mpeg', bytes),
        blobResource('file:///w/b.wav', 'audio/wav', bytes),
        blobResource('file:///w/c.mov', 'video/quicktime', bytes),
        blobResource('file:///w/d.jpg', 'IMAGE/JPEG; q=1', bytes),
      ]),
    );

    expect(warnings).toEqual([]);
    expect(request.contents[0]?.parts?.slice(1).map((part) => part.inlineData?.mimeType)).toEqual([
      'audio/mp3',
      'audio/wav',
      'video/mov',
      'image/jpeg',
    ]);
  });

  it('skips binaries Gemini cannot read with one warning each, and still sends the rest of the turn', () => {
    const { request, warnings } = convert(
      turn('Here', [
        blobResource('file:///w/a.zip', 'application/zip', new Uint8Array([0x50, 0x4b, 3, 4])),
        blobResource('file:///w/b.gif', 'image/gif', new Uint8Array([0x47, 0x49, 0x46])),
        textResource('file:///w/c.txt', 'gamma'),
      ]),
    );

    expect(warnings).toEqual([
      'application/zip is not supported by google; skipped file:///w/a.zip',
      'image/gif is not supported by google; skipped file:///w/b.gif',
    ]);
    expect(request.contents[0]?.parts).toEqual([
      { text: 'Here' },
      { text: '<resource uri="file:///w/c.txt" mimeType="text/plain"><![CDATA[gamma]]></resource>' },
    ]);
  });

  it('sends a textual blob (valid UTF-8) or a formatted blob as XML text', () => {
    const { request, warnings } = convert(
      turn('Data', [
        blobResource('file:///w/d.json', 'application/json', '{"a":1}'),
        blobResource('file:///w/e.bin', 'application/octet-stream', new Uint8Array([0xff]), { formatted: 'a binary' }),
      ]),
    );

    expect(warnings).toEqual([]);
    expect(request.contents[0]?.parts?.slice(1)).toEqual([
      { text: '<resource uri="file:///w/d.json" mimeType="application/json"><![CDATA[{"a":1}]]></resource>' },
      { text: '<resource uri="file:///w/e.bin" mimeType="application/octet-stream"><![CDATA[a binary]]></resource>' },
    ]);
  });
});

describe('convertToGoogleRequest: conversation', () => {
  it('alternates user and model contents, leaves reasoning out and merges consecutive same-role contents', () => {
    const { request } = convert([
      configDelta({ model: 'google/gemini-test' }),
      ...turn('one', [], reasoning('thinking…'), chatResponse('answer one')),
      ...turn('two'), // no answer recorded: the next question joins this user content
      ...turn('three', [], { type: 'chat_response', timestamp: 't', structured: { ok: true } }),
      { type: 'future_event', timestamp: 't', payload: 1 },
    ]);

    expect(request.contents).toEqual([
      { role: 'user', parts: [{ text: 'one' }] },
      { role: 'model', parts: [{ text: 'answer one' }] },
      { role: 'user', parts: [{ text: 'two' }, { text: 'three' }] },
      { role: 'model', parts: [{ text: '{"ok":true}' }] },
    ]);
  });

  it('maps tool calls to functionCall parts and results to functionResponse parts in a user content', () => {
    const file = textResource('file:///w/a.txt', 'alpha 2\n', { name: 'a.txt' });
    const { request, warnings } = convert([
      ...turn('refresh both'),
      chatResponse('Checking.'),
      toolCall('call_1', 'refresh_resource', { uri: 'file:///w/a.txt' }),
      toolCall('call_2', 'refresh_resource', { uri: 'file:///w/gone.txt' }),
      toolResult('call_1', [{ type: 'text', text: 'refreshed:' }, { type: 'resource', resource: file }]),
      toolResult('call_2', [{ type: 'text', text: 'no such file' }], true),
      chatResponse('Done.'),
    ]);

    expect(warnings).toEqual([]);
    expect(request.contents).toEqual([
      { role: 'user', parts: [{ text: 'refresh both' }] },
      {
        role: 'model',
        parts: [
          { text: 'Checking.' },
          {
            functionCall: { id: 'call_1', name: 'refresh_resource', args: { uri: 'file:///w/a.txt' } },
            thoughtSignature: GOOGLE_SKIP_THOUGHT_SIGNATURE,
          },
          { functionCall: { id: 'call_2', name: 'refresh_resource', args: { uri: 'file:///w/gone.txt' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call_1', name: 'refresh_resource', response: { output: 'refreshed:\n\n```\nalpha 2\n```' } } },
          { functionResponse: { id: 'call_2', name: 'refresh_resource', response: { error: 'no such file' } } },
        ],
      },
      { role: 'model', parts: [{ text: 'Done.' }] },
    ]);
  });

  it('signs the first call of every model step, not only the first of the conversation', () => {
    const { request } = convert([
      ...turn('go'),
      toolCall('a', 'f', {}),
      toolResult('a', [{ type: 'text', text: '1' }]),
      toolCall('b', 'f', {}),
      toolResult('b', [{ type: 'text', text: '2' }]),
    ]);

    const signatures = request.contents.flatMap((content) => content.parts ?? []).filter((part) => part.functionCall);
    expect(signatures.map((part) => part.thoughtSignature)).toEqual([GOOGLE_SKIP_THOUGHT_SIGNATURE, GOOGLE_SKIP_THOUGHT_SIGNATURE]);
  });

  it('answers a call left without a result with an error response, and skips results with no call', () => {
    const { request, warnings } = convert([
      ...turn('go', [], toolCall('lost', 'f', { x: 1 })),
      toolResult('stray', [{ type: 'text', text: '?' }]),
      ...turn('next'),
      toolResult('lost', [{ type: 'text', text: 'late' }]),
    ]);

    expect(warnings).toEqual([
      'tool result stray has no matching tool call; skipped',
      'tool call lost has no recorded result; sent as an error result',
      'tool result lost has no open tool call; skipped',
    ]);
    expect(request.contents.slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { id: 'lost', name: 'f', args: { x: 1 } }, thoughtSignature: GOOGLE_SKIP_THOUGHT_SIGNATURE }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'lost', name: 'f', response: { error: 'no result was recorded for this tool call (interrupted)' } } },
          { text: 'next' },
        ],
      },
    ]);
  });

  it('sends an empty query as no part, and a turn with nothing to send as one line saying so (RFD 031)', () => {
    const { request, warnings } = convert([chatRequest('', [blobResource('file:///w/x.bin', 'application/octet-stream', new Uint8Array([0]))])]);

    expect(request.contents).toEqual([{ role: 'user', parts: [{ text: NOTHING_TO_SEND }] }]);
    expect(warnings).toHaveLength(1);
  });
});

describe('convertToGoogleRequest: config', () => {
  it('puts the system prompt, tools, output limit and schema in config', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const tools = [{ name: 'refresh_resource', description: 'Re-read', parameters: { type: 'object', properties: { uri: { type: 'string' } } } }];

    const { request } = convert(turn('hi'), { system: 'Be brief.', tools, maxTokens: 512, schema });

    expect(request.config).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: [
        {
          functionDeclarations: [
            { name: 'refresh_resource', description: 'Re-read', parametersJsonSchema: { type: 'object', properties: { uri: { type: 'string' } } } },
          ],
        },
      ],
      maxOutputTokens: 512,
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
  });

  it('leaves out an empty system prompt and an empty tool list', () => {
    expect(convert(turn('hi'), { system: '', tools: [] }).request.config).toEqual({});
  });

  it('is pure: converting twice gives equal requests and does not touch the events', () => {
    const events = turn('hi', [blobResource('file:///w/p.png', 'image/png', PNG_BYTES)], chatResponse('ok'));
    const snapshot = JSON.stringify(events);

    expect(convert(events)).toEqual(convert(events));
    expect(JSON.stringify(events)).toBe(snapshot);
  });
});
