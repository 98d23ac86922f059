import { describe, expect, it } from 'vitest';
import {
  openaiChatChunks,
  openaiChatErrorChunk,
  openaiChatTextStream,
  openaiChatToolCallStream,
  openaiErrorResponse,
  openaiResponsesErrorEvent,
  openaiResponsesEvents,
  openaiResponsesFailedEvent,
  openaiResponsesTextStream,
  openaiResponsesToolCallStream,
} from './openai-responses.mjs';

type Data = Record<string, any>;
const data = (chunks: string[]): Data[] =>
  chunks.map((chunk) => {
    const line = chunk.split('\n').find((text) => text.startsWith('data: '))!.slice(6);
    return line === '[DONE]' ? { done: true } : (JSON.parse(line) as Data);
  });

describe('openai Responses answers', () => {
  it('emits the full Responses sequence for a text answer, response.created first, with numbered events', () => {
    const events = openaiResponsesEvents([{ type: 'text', text: ['Hel', 'lo'] }], { usage: { input_tokens: 3, input_tokens_details: { cached_tokens: 1 } } });

    expect(events.map((event) => event.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => (event.data as Data).sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(events[4]?.data).toEqual({
      type: 'response.output_text.delta',
      sequence_number: 4,
      item_id: 'msg_0',
      output_index: 0,
      content_index: 0,
      delta: 'Hel',
      logprobs: [],
    });
    const completed = (events.at(-1)?.data as Data).response;
    expect(completed).toMatchObject({ status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hello' }] }] });
    expect(completed.usage).toEqual({
      input_tokens: 3,
      input_tokens_details: { cached_tokens: 1 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    });
  });

  it('frames events with their names and ends an incomplete answer with response.incomplete', () => {
    const response = openaiResponsesTextStream('ok', { status: 'incomplete' });

    expect(response.chunks[0]).toMatch(/^event: response\.created\ndata: \{"type":"response\.created","sequence_number":0,/);
    const last = data(response.chunks).at(-1)!;
    expect([last.type, last.response.incomplete_details]).toEqual(['response.incomplete', { reason: 'max_output_tokens' }]);
  });

  it('streams function-call arguments in two deltas that join to the arguments', () => {
    const events = data(openaiResponsesToolCallStream({ id: 'call_1', name: 'f', arguments: { uri: 'file:///a' } }, { text: 'Looking.' }).chunks);

    const deltas = events.filter((event) => event.type === 'response.function_call_arguments.delta').map((event) => event.delta as string);
    expect(deltas).toHaveLength(2);
    expect(deltas.join('')).toBe('{"uri":"file:///a"}');
    const done = events.filter((event) => event.type === 'response.output_item.done').map((event) => event.item);
    expect(done[1]).toEqual({ id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{"uri":"file:///a"}', status: 'completed' });
  });

  it('builds error and failed events', () => {
    expect(openaiResponsesErrorEvent('boom', 'server_error')).toEqual({
      event: 'error',
      data: { type: 'error', code: 'server_error', message: 'boom', param: null, sequence_number: 999 },
    });
    expect(openaiResponsesFailedEvent('bad', 'invalid_prompt').data).toMatchObject({ type: 'response.failed', response: { status: 'failed', error: { code: 'invalid_prompt', message: 'bad' } } });
  });
});

describe('openai chat-completions answers', () => {
  it('emits a role chunk, content deltas, the finish chunk, a usage chunk and [DONE], without event names', () => {
    const response = openaiChatTextStream('a b', { usage: { prompt_tokens: 7 } });
    const chunks = data(response.chunks);

    expect(response.chunks.every((chunk) => !chunk.startsWith('event:'))).toBe(true);
    expect(chunks.map((chunk) => (chunk.done ? '[DONE]' : (chunk.choices[0]?.delta ?? 'usage')))).toEqual([
      { role: 'assistant', content: '' },
      { content: 'a ' },
      { content: 'b' },
      {},
      'usage',
      '[DONE]',
    ]);
    expect(chunks[3]?.choices[0].finish_reason).toBe('stop');
    expect(chunks[4]).toMatchObject({ object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 7, completion_tokens: 5 } });
  });

  it('can leave out the usage chunk and [DONE]', () => {
    expect(data(openaiChatTextStream('x', { usage: null, done: false }).chunks)).toHaveLength(3);
  });

  it('streams tool calls by index with arguments split in two, finishing with tool_calls', () => {
    const chunks = data(openaiChatToolCallStream([{ id: 'c1', name: 'f', arguments: { a: 1 } }, { id: 'c2', name: 'g', arguments: {} }]).chunks);
    const calls = chunks.flatMap((chunk) => chunk.choices?.[0]?.delta.tool_calls ?? []);

    expect(calls.map((call: Data) => [call.index, call.id, call.function.name, call.function.arguments])).toEqual([
      [0, 'c1', 'f', '{"a'],
      [0, undefined, undefined, '":1}'],
      [1, 'c2', 'g', '{'],
      [1, undefined, undefined, '}'],
    ]);
    expect(openaiChatChunks([{ type: 'tool_call', id: 'c', name: 'f', arguments: {} }]).at(-3)?.data).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }] });
  });

  it('builds an error chunk and JSON error bodies', () => {
    expect(openaiChatErrorChunk('down', 503)).toEqual({ data: { error: { code: 503, message: 'down' } } });
    expect(openaiErrorResponse(401)).toEqual({
      type: 'json',
      status: 401,
      headers: {},
      body: { error: { message: 'wire-server: scripted 401', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
    });
    expect(openaiErrorResponse(429, { code: 'insufficient_quota', headers: { 'retry-after': '1' } })).toMatchObject({
      headers: { 'retry-after': '1' },
      body: { error: { type: 'requests', code: 'insufficient_quota' } },
    });
  });
});
