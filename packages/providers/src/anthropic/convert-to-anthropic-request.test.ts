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
import { stripCacheControl } from '../__fixtures__/cache-control.ts';
import type { ProviderRequest } from '../provider.ts';
import { convertToAnthropicRequest } from './convert-to-anthropic-request.ts';

const convert = (events: ConversationEvent[], extra: Partial<ProviderRequest> = {}) =>
  convertToAnthropicRequest({ model: 'claude-test', events, ...extra });

const ephemeral = { type: 'ephemeral' };

describe('convertToAnthropicRequest: resources', () => {
  it('sends a text resource as a text document after the query, titled title ?? name ?? uri, with the URI as context', () => {
    const { request, warnings } = convert(
      turn('Compare these', [
        textResource('file:///w/a.txt', 'alpha', { title: 'Title A', name: 'a.txt' }),
        textResource('file:///w/b.txt', 'beta', { name: 'b.txt' }),
        textResource('file:///w/c.txt', 'gamma', { formatted: '<file path="c.txt">gamma</file>' }),
      ]),
    );

    expect(warnings).toEqual([]);
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these' },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'alpha' }, title: 'Title A', context: 'uri: file:///w/a.txt' },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'beta' }, title: 'b.txt', context: 'uri: file:///w/b.txt' },
          {
            type: 'document',
            source: { type: 'text', media_type: 'text/plain', data: '<file path="c.txt">gamma</file>' },
            title: 'file:///w/c.txt',
            context: 'uri: file:///w/c.txt',
            cache_control: ephemeral,
          },
        ],
      },
    ]);
  });

  it('sends PDFs as base64 documents, images as image blocks, and skips other binaries with a warning', () => {
    const { request, warnings } = convert(
      turn('Look', [
        blobResource('file:///w/doc.pdf', 'application/pdf', PDF_BYTES, { name: 'doc.pdf' }),
        blobResource('file:///w/pic.png', 'image/png', PNG_BYTES),
        blobResource('file:///w/song.wav', 'audio/wav', new Uint8Array([1, 2, 3])),
        blobResource('file:///w/photo.jpg', 'IMAGE/JPEG; q=1', new Uint8Array([0xff, 0xd8])),
      ]),
    );

    expect(warnings).toEqual(['audio/wav is not supported by anthropic; skipped file:///w/song.wav']);
    expect(request.messages[0]?.content).toEqual([
      { type: 'text', text: 'Look' },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from(PDF_BYTES).toString('base64') },
        title: 'doc.pdf',
        context: 'uri: file:///w/doc.pdf',
      },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgoAAAAN' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9g=' }, cache_control: ephemeral },
    ]);
  });

  it('sends a binary resource with a formatted form, or with a textual MIME type, as a text document', () => {
    const { request, warnings } = convert(
      turn('Read', [
        blobResource('file:///w/r.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'PK..', {
          formatted: 'extracted text',
        }),
        blobResource('demo://blob/1', 'text/plain', 'hello from a blob'),
        blobResource('demo://blob/2', 'text/plain', new Uint8Array([0xff, 0xfe, 0x00])),
      ]),
    );

    expect(warnings).toEqual(['text/plain is not supported by anthropic; skipped demo://blob/2']);
    expect(stripCacheControl(request.messages[0]?.content)).toEqual([
      { type: 'text', text: 'Read' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'extracted text' }, title: 'file:///w/r.docx', context: 'uri: file:///w/r.docx' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hello from a blob' }, title: 'demo://blob/1', context: 'uri: demo://blob/1' },
    ]);
  });

  it('keeps each turn’s resources inside that turn’s user message only', () => {
    const events = [
      ...turn('first', [textResource('file:///w/a.txt', 'A')], chatResponse('one')),
      ...turn('second', [], chatResponse('two')),
      ...turn('third', [textResource('file:///w/b.txt', 'B'), textResource('file:///w/c.txt', 'C')]),
    ];

    const { request } = convert(events);

    const documents = request.messages.map((message) =>
      (message.content as { type: string; title?: string }[]).filter((block) => block.type === 'document').map((block) => block.title),
    );
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(documents).toEqual([['file:///w/a.txt'], [], [], [], ['file:///w/b.txt', 'file:///w/c.txt']]);
    expect((request.messages[0]?.content as { type: string; text?: string }[])[0]).toEqual({ type: 'text', text: 'first' });
  });

  it('leaves out an empty query but keeps its resources', () => {
    const { request } = convert(turn('', [textResource('file:///w/a.txt', 'A')]));
    expect(stripCacheControl(request.messages)).toEqual([
      { role: 'user', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'A' }, title: 'file:///w/a.txt', context: 'uri: file:///w/a.txt' }] },
    ]);
  });
});

describe('convertToAnthropicRequest: answers and tools', () => {
  it('maps tool calls to tool_use and results to tool_result blocks; reasoning is not sent back', () => {
    const readme = textResource('file:///w/README.md', '# Hi\n', { mimeType: 'text/markdown' });
    const events = [
      turnStart(),
      chatRequest('refresh it'),
      reasoning('I should refresh'),
      toolCall('toolu_1', 'refresh_resource', { uri: 'file:///w/README.md' }),
      toolCall('toolu_2', 'screenshot', {}),
      toolResult('toolu_1', [{ type: 'text', text: 'refreshed' }, { type: 'resource', resource: readme }]),
      toolResult('toolu_2', [{ type: 'resource', resource: blobResource('shot.png', 'image/png', PNG_BYTES) }], true),
      chatResponse('Done.'),
    ];

    const { request, warnings } = convert(events);

    expect(warnings).toEqual([]);
    expect(stripCacheControl(request.messages)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'refresh it' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'refresh_resource', input: { uri: 'file:///w/README.md' } },
          { type: 'tool_use', id: 'toolu_2', name: 'screenshot', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [
              { type: 'text', text: 'refreshed' },
              { type: 'text', text: formatResource(readme) },
            ],
            is_error: false,
          },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgoAAAAN' } }],
            is_error: true,
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
    expect(formatResource(readme)).toBe('```markdown\n# Hi\n```');
  });

  it('sends PDFs in tool results as documents, questions as text, empty results without content; a repeated result is skipped', () => {
    const events = [
      ...turn('read', [], toolCall('t1', 'read', {}), toolCall('t2', 'ask', {}), toolCall('t3', 'noop', {})),
      toolResult('t1', [{ type: 'resource', resource: blobResource('file:///w/d.pdf', 'application/pdf', PDF_BYTES, { name: 'd.pdf' }) }]),
      toolResult('t2', [{ type: 'question', question: { id: 'q1', text: 'Overwrite?', schema: { type: 'boolean' } } }]),
      toolResult('t3', []),
      toolResult('t3', [{ type: 'text', text: 'again' }]),
    ];

    const { request, warnings } = convert(events);

    expect(warnings).toEqual(['tool result t3 has no open tool call; skipped']);
    expect(stripCacheControl(request.messages[2])).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: [
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from(PDF_BYTES).toString('base64') },
              title: 'd.pdf',
              context: 'uri: file:///w/d.pdf',
            },
          ],
          is_error: false,
        },
        { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: '[question q1 for the user] Overwrite?' }], is_error: false },
        { type: 'tool_result', tool_use_id: 't3', is_error: false },
      ],
    });
  });

  it('answers an interrupted tool call with an error result and skips results without a call', () => {
    const events = [
      ...turn('go', [], toolCall('toolu_9', 'slow', {})),
      ...turn('again', [], toolResult('toolu_404', [{ type: 'text', text: 'stray' }])),
    ];

    const { request, warnings } = convert(events);

    expect(warnings).toEqual([
      'tool call toolu_9 has no recorded result; sent as an error result',
      'tool result toolu_404 has no matching tool call; skipped',
    ]);
    expect(stripCacheControl(request.messages)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'slow', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_9', content: 'no result was recorded for this tool call (interrupted)', is_error: true },
          { type: 'text', text: 'again' },
        ],
      },
    ]);
  });

  it('merges consecutive user messages so roles alternate (a turn that got no answer)', () => {
    const { request } = convert([...turn('lost question'), ...turn('second try')]);
    expect(stripCacheControl(request.messages)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'lost question' }, { type: 'text', text: 'second try' }] },
    ]);
  });

  it('sets model, max_tokens, stream, system and tools; ignores config deltas and unknown events', () => {
    const events: ConversationEvent[] = [
      configDelta({ assistant: { model: 'x' } }),
      ...turn('hi'),
      { type: 'future_event', timestamp: 't', payload: 1 },
    ];
    const tool = { name: 'refresh_resource', description: 'Re-read a resource', parameters: { type: 'object', properties: { uri: { type: 'string' } } } };

    const { request } = convert(events, { system: 'Be brief.', tools: [tool], maxTokens: 1000 });

    expect(request).toEqual({
      model: 'claude-test',
      max_tokens: 1000,
      stream: true,
      // The first request opts into Anthropic's cache diagnostics (issue V).
      diagnostics: { previous_message_id: null },
      system: [{ type: 'text', text: 'Be brief.', cache_control: ephemeral }],
      tools: [{ name: 'refresh_resource', description: 'Re-read a resource', input_schema: tool.parameters }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: ephemeral }] }],
    });
    expect(convert(turn('hi')).request.max_tokens).toBe(8192);
  });
});

describe('cache TTL', () => {
  it('marks breakpoints with the chosen ttl', () => {
    const events = [
      { type: 'turn_start' as const, timestamp: 't' },
      { type: 'chat_request' as const, timestamp: 't', content: 'q', resources: [{ uri: 'file:///a', name: 'a', text: 'x' }] },
    ];
    const { request } = convertToAnthropicRequest({ model: 'm', events }, { cacheTtl: '1h' });
    const markers = JSON.stringify(request).match(/"cache_control":\{[^}]*\}/g) ?? [];
    expect(markers.length).toBeGreaterThan(0);
    expect(new Set(markers)).toEqual(new Set(['"cache_control":{"type":"ephemeral","ttl":"1h"}']));
    const plain = JSON.stringify(convertToAnthropicRequest({ model: 'm', events }).request);
    expect(plain).not.toContain('ttl');
  });
});
