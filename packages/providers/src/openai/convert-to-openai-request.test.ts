import { NOTHING_TO_SEND } from '../shared/query-text.ts';
import { formatResource, type ConversationEvent } from '@jp/core';
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
  turnStart,
} from '../__fixtures__/conversation.ts';
import type { ProviderRequest } from '../provider.ts';
import { convertToOpenAIRequest } from './convert-to-openai-request.ts';

const convert = (events: ConversationEvent[], extra: Partial<ProviderRequest> = {}) => convertToOpenAIRequest({ model: 'gpt-test', events, ...extra });

const pdfBase64 = Buffer.from(PDF_BYTES).toString('base64');

describe('convertToOpenAIRequest: resources', () => {
  it('sends the query, then one input_text XML element per text resource, in the turn’s user message', () => {
    const { request, warnings } = convert(
      turn('Compare these', [
        textResource('file:///w/a.txt', 'alpha', { name: 'a.txt', title: 'Title A' }),
        textResource('file:///w/c.txt', 'gamma', { formatted: '<file path="c.txt">gamma</file>' }),
      ]),
    );

    expect(warnings).toEqual([]);
    expect(request.input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'Compare these' },
          { type: 'input_text', text: '<resource uri="file:///w/a.txt" name="a.txt" title="Title A" mimeType="text/plain"><![CDATA[alpha]]></resource>' },
          { type: 'input_text', text: '<resource uri="file:///w/c.txt" mimeType="text/plain"><![CDATA[<file path="c.txt">gamma</file>]]></resource>' },
        ],
      },
    ]);
  });

  it('escapes attribute values and keeps `]]>` in the content intact across CDATA sections', () => {
    const tricky = textResource('https://h/?q="a"&b=<c>', 'end ]]> here', { name: 'say "hi"' });

    const { request } = convert(turn('x', [tricky]));
    const xml = (request.input[0] as { content: Array<{ text: string }> }).content[1]!.text;

    expect(xml).toMatchInlineSnapshot(
      `"<resource uri="https://h/?q=&quot;a&quot;&amp;b=&lt;c&gt;" name="say &quot;hi&quot;" mimeType="text/plain"><![CDATA[end ]]]]><![CDATA[> here]]></resource>"`,
    );
    // Joining the CDATA sections gives the text back byte for byte.
    const sections = [...xml.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)].map((match) => match[1]).join('');
    expect(sections).toBe('end ]]> here');
  });

  it('sends images as input_image data URLs, PDFs as input_file, and skips other binaries with a warning', () => {
    const { request, warnings } = convert(
      turn('Look', [
        blobResource('file:///w/docs/doc.pdf', 'application/pdf', PDF_BYTES, { name: 'docs/doc.pdf' }),
        blobResource('file:///w/pic.png', 'image/png', PNG_BYTES),
        blobResource('file:///w/song.wav', 'audio/wav', new Uint8Array([1, 2, 3])),
        blobResource('file:///w/photo.jpg', 'IMAGE/JPEG; q=1', new Uint8Array([0xff, 0xd8])),
      ]),
    );

    expect(warnings).toEqual(['audio/wav is not supported by openai; skipped file:///w/song.wav']);
    expect(request.input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look' },
          { type: 'input_file', filename: 'doc.pdf', file_data: `data:application/pdf;base64,${pdfBase64}` },
          { type: 'input_image', detail: 'auto', image_url: 'data:image/png;base64,iVBORw0KGgoAAAAN' },
          { type: 'input_image', detail: 'auto', image_url: 'data:image/jpeg;base64,/9g=' },
        ],
      },
    ]);
  });

  it('sends a blob with a textual MIME type, or with a formatted form, as text XML', () => {
    const { request, warnings } = convert(
      turn('Read', [
        blobResource('file:///w/data.json', 'application/json', '{"a":1}'),
        blobResource('file:///w/blob.bin', 'application/octet-stream', new Uint8Array([0, 1]), { formatted: 'two bytes' }),
        blobResource('file:///w/bad.txt', 'text/plain', new Uint8Array([0xff, 0xfe])),
      ]),
    );

    expect(warnings).toEqual(['text/plain is not supported by openai; skipped file:///w/bad.txt']);
    expect((request.input[0] as { content: unknown[] }).content.slice(1)).toEqual([
      { type: 'input_text', text: '<resource uri="file:///w/data.json" mimeType="application/json"><![CDATA[{"a":1}]]></resource>' },
      { type: 'input_text', text: '<resource uri="file:///w/blob.bin" mimeType="application/octet-stream"><![CDATA[two bytes]]></resource>' },
    ]);
  });

  it('sends a turn with only resources (empty query), and a turn with nothing at all as one line saying so (RFD 031)', () => {
    const { request } = convert([...turn('', [textResource('file:///w/a.txt', 'a')]), ...turn('')]);

    expect(request.input).toHaveLength(2);
    expect(request.input[0]).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: expect.stringContaining('file:///w/a.txt') }] });
    expect(request.input[1]).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: NOTHING_TO_SEND }] });
  });
});

describe('convertToOpenAIRequest: conversation', () => {
  it('sends answers as assistant messages, structured answers as JSON, and leaves reasoning out', () => {
    const events: ConversationEvent[] = [
      configDelta({ assistant: { model: { id: 'openai/gpt-test' } } }),
      ...turn('one', [], reasoning('thinking…'), chatResponse('first')),
      ...turn('two', [], { type: 'chat_response', timestamp: 't', structured: { ok: true } }),
      { type: 'future_event', timestamp: 't', payload: 1 },
      ...turn('three'),
    ];

    const { request, warnings } = convert(events);

    expect(warnings).toEqual([]);
    expect(request.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one' }] },
      { type: 'message', role: 'assistant', content: 'first' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'two' }] },
      { type: 'message', role: 'assistant', content: '{"ok":true}' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'three' }] },
    ]);
  });

  it('sends tool calls as function_call items and results as function_call_output text', () => {
    const file = textResource('file:///w/a.txt', 'alpha\n', { mimeType: 'text/plain' });
    const events = turn(
      'refresh',
      [],
      chatResponse('Checking.'),
      toolCall('call_1', 'refresh_resource', { uri: 'file:///w/a.txt' }),
      toolResult('call_1', [{ type: 'text', text: 'fresh:' }, { type: 'resource', resource: file }]),
      toolCall('call_2', 'refresh_resource', { uri: 'external:x/y' }),
      toolResult('call_2', [{ type: 'text', text: 'refused' }], true),
    );

    const { request } = convert(events);

    expect(request.input.slice(1)).toEqual([
      { type: 'message', role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_1', name: 'refresh_resource', arguments: '{"uri":"file:///w/a.txt"}' },
      { type: 'function_call_output', call_id: 'call_1', output: `fresh:\n\n${formatResource(file)}` },
      { type: 'function_call', call_id: 'call_2', name: 'refresh_resource', arguments: '{"uri":"external:x/y"}' },
      { type: 'function_call_output', call_id: 'call_2', output: 'Error: refused' },
    ]);
  });

  it('closes a tool call left without a result and skips a result without a call, with warnings', () => {
    const events = [
      turnStart(),
      chatRequest('go'),
      toolCall('call_lost', 'refresh_resource', {}),
      toolResult('call_unknown', [{ type: 'text', text: 'x' }]),
      ...turn('again'),
    ];

    const { request, warnings } = convert(events);

    expect(warnings).toEqual(['tool result call_unknown has no matching tool call; skipped', 'tool call call_lost has no recorded result; sent as an error result']);
    expect(request.input.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output', 'message']);
    expect(request.input[2]).toMatchObject({ call_id: 'call_lost', output: expect.stringMatching(/^Error: /) });
  });
});

describe('convertToOpenAIRequest: parameters', () => {
  it('sets model, instructions, streaming without storage, max_output_tokens, function tools and the schema format', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
    const { request } = convert(turn('hi'), {
      system: 'Be brief.',
      maxTokens: 1000,
      tools: [{ name: 'refresh_resource', description: 'Re-read a resource', parameters: { type: 'object', properties: { uri: { type: 'string' } } } }],
      schema,
    });

    expect({ ...request, input: undefined }).toMatchInlineSnapshot(`
      {
        "input": undefined,
        "instructions": "Be brief.",
        "max_output_tokens": 1000,
        "model": "gpt-test",
        "store": false,
        "stream": true,
        "text": {
          "format": {
            "name": "answer",
            "schema": {
              "additionalProperties": false,
              "properties": {
                "answer": {
                  "type": "string",
                },
              },
              "required": [
                "answer",
              ],
              "type": "object",
            },
            "strict": true,
            "type": "json_schema",
          },
        },
        "tools": [
          {
            "description": "Re-read a resource",
            "name": "refresh_resource",
            "parameters": {
              "properties": {
                "uri": {
                  "type": "string",
                },
              },
              "type": "object",
            },
            "strict": false,
            "type": "function",
          },
        ],
      }
    `);
  });

  it('leaves optional parameters out when not given', () => {
    const { request } = convert(turn('hi'), { system: '' });

    expect(Object.keys(request).sort()).toEqual(['input', 'model', 'store', 'stream']);
  });

  it('does not change its input', () => {
    const events = turn('x', [blobResource('file:///w/p.png', 'image/png', PNG_BYTES), textResource('file:///w/a', 'a')]);
    const copy = structuredClone(events);
    convert(events);
    expect(events).toEqual(copy);
  });
});
