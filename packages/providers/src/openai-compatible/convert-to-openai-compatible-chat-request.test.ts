import { formatResource, type ConversationEvent } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { countCacheControl } from '../__fixtures__/cache-control.ts';
import {
  blobResource,
  chatRequest,
  chatResponse,
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
import { convertToOpenAICompatibleChatRequest } from './convert-to-openai-compatible-chat-request.ts';
import type { OpenAICompatibleVendor } from './openai-compatible-vendor.ts';

const convert = (events: ConversationEvent[], extra: Partial<ProviderRequest> = {}, vendor: OpenAICompatibleVendor = 'openrouter') =>
  convertToOpenAICompatibleChatRequest({ model: 'meta-llama/llama-test', events, ...extra }, vendor);

const pdfBase64 = Buffer.from(PDF_BYTES).toString('base64');

describe('convertToOpenAICompatibleChatRequest: resources', () => {
  it('sends the query, then text XML, image_url and file parts, in the turn’s user message', () => {
    const { request, warnings } = convert(
      turn('Look', [
        textResource('file:///w/a.txt', 'alpha ]]> "q"', { name: 'a.txt' }),
        blobResource('file:///w/pic.png', 'image/png', PNG_BYTES),
        blobResource('file:///w/doc.pdf', 'application/pdf', PDF_BYTES, { name: 'doc.pdf' }),
        blobResource('file:///w/song.wav', 'audio/wav', new Uint8Array([1])),
      ]),
    );

    expect(warnings).toEqual(['audio/wav is not supported by openrouter; skipped file:///w/song.wav']);
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'text', text: '<resource uri="file:///w/a.txt" name="a.txt" mimeType="text/plain"><![CDATA[alpha ]]]]><![CDATA[> "q"]]></resource>' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgoAAAAN' } },
          { type: 'file', file: { filename: 'doc.pdf', file_data: `data:application/pdf;base64,${pdfBase64}` } },
        ],
      },
    ]);
  });

  it('skips PDFs for Ollama, whose compatibility layer takes only text and images, with a warning', () => {
    const { request, warnings } = convert(
      turn('Look', [blobResource('file:///w/doc.pdf', 'application/pdf', PDF_BYTES), blobResource('file:///w/pic.png', 'image/png', PNG_BYTES)]),
      {},
      'ollama',
    );

    expect(warnings).toEqual(['application/pdf is not supported by ollama; skipped file:///w/doc.pdf']);
    expect(request.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Look' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgoAAAAN' } },
      ],
    });
  });
});

describe('convertToOpenAICompatibleChatRequest: conversation', () => {
  it('puts the system prompt first, answers as assistant messages, and leaves reasoning out', () => {
    const { request } = convert([...turn('one', [], reasoning('hmm'), chatResponse('first')), ...turn('two')], { system: 'Be brief.' });

    expect(request.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'one' }] },
      { role: 'assistant', content: 'first' },
      { role: 'user', content: [{ type: 'text', text: 'two' }] },
    ]);
  });

  it('sends tool calls on the assistant message of their answer and results as tool messages', () => {
    const file = textResource('file:///w/a.txt', 'alpha\n');
    const events = turn(
      'refresh',
      [],
      chatResponse('Checking.'),
      toolCall('call_1', 'refresh_resource', { uri: 'file:///w/a.txt' }),
      toolCall('call_2', 'refresh_resource', { uri: 'external:x/y' }),
      toolResult('call_1', [{ type: 'resource', resource: file }]),
      toolResult('call_2', [{ type: 'text', text: 'refused' }], true),
      toolCall('call_3', 'refresh_resource', { uri: 'file:///w/a.txt' }),
      toolResult('call_3', []),
      chatResponse('Done.'),
    );

    const { request } = convert(events);

    expect(request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'refresh_resource', arguments: '{"uri":"file:///w/a.txt"}' } },
          { id: 'call_2', type: 'function', function: { name: 'refresh_resource', arguments: '{"uri":"external:x/y"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: formatResource(file) },
      { role: 'tool', tool_call_id: 'call_2', content: 'Error: refused' },
      { role: 'assistant', tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'refresh_resource', arguments: '{"uri":"file:///w/a.txt"}' } }] },
      { role: 'tool', tool_call_id: 'call_3', content: '' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('closes a tool call left without a result and skips a result without a call, with warnings', () => {
    const { request, warnings } = convert([turnStart(), chatRequest('go'), toolCall('lost', 'x', {}), toolResult('stray', []), ...turn('again')]);

    expect(warnings).toEqual(['tool result stray has no matching tool call; skipped', 'tool call lost has no recorded result; sent as an error result']);
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
  });

  it('sets streaming with usage, max_tokens, function tools and the schema as response_format', () => {
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false };
    const tools = [{ name: 'refresh_resource', description: 'Re-read', parameters: { type: 'object', properties: { uri: { type: 'string' } } } }];

    const { request } = convert(turn('hi'), { maxTokens: 500, tools, schema });

    expect({ ...request, messages: undefined }).toMatchInlineSnapshot(`
      {
        "max_tokens": 500,
        "messages": undefined,
        "model": "meta-llama/llama-test",
        "response_format": {
          "json_schema": {
            "name": "answer",
            "schema": {
              "additionalProperties": false,
              "properties": {
                "n": {
                  "type": "number",
                },
              },
              "required": [
                "n",
              ],
              "type": "object",
            },
            "strict": true,
          },
          "type": "json_schema",
        },
        "stream": true,
        "stream_options": {
          "include_usage": true,
        },
        "tools": [
          {
            "function": {
              "description": "Re-read",
              "name": "refresh_resource",
              "parameters": {
                "properties": {
                  "uri": {
                    "type": "string",
                  },
                },
                "type": "object",
              },
            },
            "type": "function",
          },
        ],
      }
    `);
  });
});

describe('convertToOpenAICompatibleChatRequest: OpenRouter cache markers', () => {
  const ephemeral = { type: 'ephemeral' };
  const conversation = [
    ...turn('first', [textResource('file:///w/a.txt', 'a'), blobResource('file:///w/p.png', 'image/png', PNG_BYTES)], chatResponse('one')),
    ...turn('second', [], chatResponse('two')),
    ...turn('third'),
  ];

  it('marks the newest user message, the newest resources and the user message before, for anthropic/ and google/ slugs', () => {
    for (const model of ['anthropic/claude-sonnet-4.5', 'google/gemini-2.5-pro']) {
      const { request } = convert(conversation, { model, system: 'sys' });

      expect(countCacheControl(request)).toBe(3);
      expect(request.messages[1]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: '<resource uri="file:///w/a.txt" mimeType="text/plain"><![CDATA[a]]></resource>', cache_control: ephemeral },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgoAAAAN' } },
        ],
      });
      expect(request.messages[3]).toEqual({ role: 'user', content: [{ type: 'text', text: 'second', cache_control: ephemeral }] });
      expect(request.messages[5]).toEqual({ role: 'user', content: [{ type: 'text', text: 'third', cache_control: ephemeral }] });
    }
  });

  it('counts a marker once when the newest user message also holds the newest resources', () => {
    const { request } = convert(turn('only', [textResource('file:///w/a.txt', 'a')]), { model: 'anthropic/claude-x' });

    expect(countCacheControl(request)).toBe(1);
    expect(request.messages[0]).toMatchObject({ content: [{ text: 'only' }, { cache_control: ephemeral }] });
  });

  it('sets no markers for other slugs on OpenRouter, nor for Ollama', () => {
    for (const [model, vendor] of [
      ['openai/gpt-4o', 'openrouter'],
      ['meta-llama/llama-3.3-70b', 'openrouter'],
      ['anthropic-lookalike/x', 'openrouter'],
      ['anthropic/claude-x', 'ollama'],
    ] as const) {
      expect(countCacheControl(convert(conversation, { model }, vendor).request), `${vendor} ${model}`).toBe(0);
    }
  });
});
