import { withContentRef, type ConversationEvent, type Resource } from '@jp/core';
import { describe, expect, it } from 'vitest';
import {
  blobResource,
  chatResponse,
  configDelta,
  PNG_BYTES,
  reasoning,
  textResource,
  toolCall,
  toolResult,
  turn,
  turnStart,
} from '../__fixtures__/conversation.ts';
import type { ProviderRequest, StreamEvent } from '../provider.ts';
import { createEchoProvider } from './echo-provider.ts';

const HELLO_SHA = 'a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447'; // printf 'hello world\n' | sha256sum
const PNG_SHA = '218ad85a233eff829618a6865ab681222b734c62d35a32b3eabd5c37d8945f86';
const ALPHA2_SHA = '90d10a43447e239811d9a5961bb78e2833c56e6fe60d1ed9afeaf49b1d06a7e4'; // printf 'alpha 2\n'

async function collect(request: ProviderRequest): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of createEchoProvider().stream(request)) events.push(event);
  return events;
}

const textOf = (events: StreamEvent[]) => events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');

const A_TXT = textResource('file:///tmp/w/a.txt', 'hello world\n', { formatted: 'ignored by the checksum' });
const P_PNG = blobResource('file:///tmp/w/p.png', 'image/png', PNG_BYTES);

function conversation(resources: Resource[] = [A_TXT, P_PNG]): ConversationEvent[] {
  return [
    configDelta({ model: 'echo' }),
    ...turn('What is in a.txt?\nAnd the picture?', resources),
    chatResponse('echo: …'),
    ...turn('say "hi"'),
  ];
}

describe('echo provider', () => {
  it('describes turns, queries and every resource with MIME type, byte size and full sha256', async () => {
    const events = await collect({ model: 'echo', events: conversation() });

    expect(textOf(events)).toBe(
      [
        'echo: 2 turns',
        'turn 0: "What is in a.txt?" (+1 more line)',
        `  resource file:///tmp/w/a.txt text/plain 12 bytes sha256:${HELLO_SHA}`,
        `  resource file:///tmp/w/p.png image/png 12 bytes sha256:${PNG_SHA}`,
        'turn 1: "say \\"hi\\""',
      ].join('\n'),
    );
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop', usage: { inputTokens: 'What is in a.txt?\nAnd the picture?'.length + 12 + 12 + 'say "hi"'.length, outputTokens: [...textOf(events)].length } });
  });

  it('describes content references by their size and digest, as it describes the same content loaded', async () => {
    const refs = [withContentRef(A_TXT, { sha256: HELLO_SHA, size: 12, encoding: 'text' }), withContentRef(P_PNG, { sha256: PNG_SHA, size: 12, encoding: 'binary' })];
    expect(textOf(await collect({ model: 'echo', events: conversation(refs) }))).toBe(textOf(await collect({ model: 'echo', events: conversation() })));

    // A reference is taken at its word: echo never reads stored content.
    const unread = withContentRef(P_PNG, { sha256: 'f'.repeat(64), size: 7, encoding: 'binary' });
    const lines = textOf(await collect({ model: 'echo', events: turn('x', [unread]) })).split('\n');
    expect(lines[2]).toBe(`  resource file:///tmp/w/p.png image/png 7 bytes sha256:${'f'.repeat(64)}`);
  });

  it('streams one delta per line and is deterministic', async () => {
    const request: ProviderRequest = { model: 'echo', events: conversation() };
    const first = await collect(request);
    const second = await collect(request);

    expect(second).toEqual(first);
    expect(first.filter((event) => event.type === 'text-delta')).toHaveLength(5);
    expect(first[0]).toEqual({ type: 'text-delta', text: 'echo: 2 turns\n' });
  });

  it('streams a long answer in runs of 64 whole lines', async () => {
    const resources = Array.from({ length: 200 }, (_, i) => ({ uri: `file:///w/f${i}.txt`, text: `${i}` }));
    const events: ConversationEvent[] = [
      { type: 'turn_start', timestamp: 't' },
      { type: 'chat_request', timestamp: 't', content: 'q', resources },
    ];
    const deltas = (await collect({ model: 'echo', events })).flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
    const lines = deltas.join('').split('\n');
    expect(lines.length).toBeGreaterThan(200);
    expect(deltas).toHaveLength(Math.ceil(lines.length / 64));
    expect(deltas.slice(0, -1).every((delta) => delta.endsWith('\n') && delta.split('\n').length === 65)).toBe(true);
  });

  it('lists the system prompt size, offered tools, tool calls and their results', async () => {
    const events: ConversationEvent[] = [
      ...turn('refresh', [], reasoning('thinking'), toolCall('t1', 'refresh_resource', { uri: 'file:///tmp/w/a.txt' })),
      toolResult('t1', [{ type: 'text', text: 'refreshed' }, { type: 'resource', resource: textResource('file:///tmp/w/a.txt', 'alpha 2\n') }]),
      toolCall('t2', 'ask', {}),
      toolResult('t2', [{ type: 'question', question: { id: 'q1', text: 'Sure?', schema: { type: 'boolean' } } }], true),
      turnStart(),
    ];
    const tools = [{ name: 'refresh_resource', description: 'r', parameters: {} }, { name: 'ask', description: 'a', parameters: {} }];

    const text = textOf(await collect({ model: 'echo', events, system: 'Be brief.', tools }));

    expect(text).toBe(
      [
        'echo: 2 turns',
        'system: 9 chars',
        'tools: refresh_resource, ask',
        'turn 0: "refresh"',
        '  tool_call t1 refresh_resource {"uri":"file:///tmp/w/a.txt"}',
        '  tool_result t1 ok',
        '    text 9 chars',
        `    resource file:///tmp/w/a.txt text/plain 8 bytes sha256:${ALPHA2_SHA}`,
        '  tool_call t2 ask {}',
        '  tool_result t2 error',
        '    question q1',
        'turn 1: (no request)',
      ].join('\n'),
    );
  });

  it('prints - for a missing MIME type and removes whitespace inside one, so lines parse from the right', async () => {
    const events = turn('x', [
      textResource('cmd:git diff --cached', 'diff', { mimeType: 'text/x-diff; charset=utf-8' }),
      blobResource('file:///tmp/w/blob', 'application/octet-stream', new Uint8Array([1, 2])),
    ]);
    delete (events[1] as { resources: { mimeType?: string }[] }).resources[1]!.mimeType;

    const lines = textOf(await collect({ model: 'echo', events })).split('\n');

    expect(lines[2]).toMatch(/^ {2}resource cmd:git diff --cached text\/x-diff;charset=utf-8 4 bytes sha256:[0-9a-f]{64}$/);
    expect(lines[3]).toMatch(/^ {2}resource file:\/\/\/tmp\/w\/blob - 2 bytes sha256:[0-9a-f]{64}$/);
    const parsed = /^\s+resource (.+) (\S+) (\d+) bytes sha256:([0-9a-f]{64})$/.exec(lines[2] ?? '');
    expect(parsed?.slice(1, 4)).toEqual(['cmd:git diff --cached', 'text/x-diff;charset=utf-8', '4']);
  });

  it('says "1 turn" and "0 turns"', async () => {
    expect(textOf(await collect({ model: 'echo', events: turn('only') }))).toBe('echo: 1 turn\nturn 0: "only"');
    expect(textOf(await collect({ model: 'echo', events: [] }))).toBe('echo: 0 turns');
  });

  it('buildRequest returns the structured description with no warnings', () => {
    const { request, warnings } = createEchoProvider().buildRequest({ model: 'echo', events: conversation() });

    expect(warnings).toEqual([]);
    expect(request).toMatchObject({
      model: 'echo',
      tools: [],
      turns: [
        {
          index: 0,
          query: 'What is in a.txt?\nAnd the picture?',
          resources: [
            { uri: 'file:///tmp/w/a.txt', mimeType: 'text/plain', bytes: 12, sha256: HELLO_SHA },
            { uri: 'file:///tmp/w/p.png', mimeType: 'image/png', bytes: 12, sha256: PNG_SHA },
          ],
        },
        { index: 1, query: 'say "hi"', resources: [] },
      ],
    });
  });

  it('calls the tools a !tool line asks for, one per call, then answers', async () => {
    const directive = 'refresh please\n!tool refresh_resource {"uri":"file:///tmp/w/a.txt"}\n!tool noop';
    const first = await collect({ model: 'echo', events: turn(directive) });
    expect(first).toEqual([
      { type: 'tool-call', id: 'echo_0_0', name: 'refresh_resource', arguments: { uri: 'file:///tmp/w/a.txt' } },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: directive.length, outputTokens: 0 } },
    ]);

    const afterFirst = [...turn(directive), toolCall('echo_0_0', 'refresh_resource', { uri: 'file:///tmp/w/a.txt' }), toolResult('echo_0_0', [])];
    expect((await collect({ model: 'echo', events: afterFirst }))[0]).toEqual({ type: 'tool-call', id: 'echo_0_1', name: 'noop', arguments: {} });

    const afterBoth = [...afterFirst, toolCall('echo_0_1', 'noop', {}), toolResult('echo_0_1', [])];
    const answer = await collect({ model: 'echo', events: afterBoth });
    expect(textOf(answer)).toContain('  tool_call echo_0_1 noop {}\n  tool_result echo_0_1 ok');
    expect(answer.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const stream = createEchoProvider().stream({ model: 'echo', events: turn('x') }, { signal: controller.signal });
    await expect(stream[Symbol.asyncIterator]().next()).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('echo with a schema', () => {
  it('answers with the description as one JSON document', async () => {
    const provider = createEchoProvider();
    const request = {
      model: 'echo',
      schema: { type: 'object' },
      events: [
        { type: 'turn_start' as const, timestamp: 't' },
        { type: 'chat_request' as const, timestamp: 't', content: 'q', resources: [{ uri: 'file:///a', text: 'abc' }] },
      ],
    };
    let text = '';
    for await (const event of provider.stream(request)) if (event.type === 'text-delta') text += event.text;
    const json = JSON.parse(text);
    expect(json.turns).toHaveLength(1);
    expect(json.turns[0].resources[0]).toMatchObject({ uri: 'file:///a', bytes: 3 });
  });
});
