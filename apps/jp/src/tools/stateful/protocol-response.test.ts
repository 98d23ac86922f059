import { describe, expect, it } from 'vitest';
import { parseProtocolLine } from './protocol-response.ts';

const question = (id: string, extra: Record<string, unknown> = {}) => ({ type: 'question', question: { id, text: `${id}?`, schema: { type: 'string' } }, ...extra });

describe('parseProtocolLine', () => {
  it('reads the status, the blocks and who answers each question', () => {
    const line = JSON.stringify({
      content: [{ type: 'text', text: 'hunk 1' }, question('hunk_1'), question('name', { _meta: { 'computer.jp/target': 'user' } })],
      _meta: { 'computer.jp/status': 'waiting' },
    });
    const parsed = parseProtocolLine(line);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.response.status).toBe('waiting');
    expect(parsed.response.content.map((block) => block.type)).toEqual(['text', 'question', 'question']);
    expect(parsed.response.questions.map(({ question, target }) => [question.id, target])).toEqual([
      ['hunk_1', 'model'],
      ['name', 'user'],
    ]);
  });

  it('takes a response-wide target, and a block mark over it', () => {
    const line = JSON.stringify({
      content: [question('a'), question('b', { _meta: { 'computer.jp/target': 'assistant' } })],
      _meta: { 'computer.jp/status': 'waiting', 'computer.jp/target': 'user' },
    });
    const parsed = parseProtocolLine(line);
    expect(parsed.ok && parsed.response.questions.map((entry) => entry.target)).toEqual(['user', 'model']);
  });

  it('treats a response without status as stopped, and questions outside `waiting` as plain content', () => {
    const parsed = parseProtocolLine(JSON.stringify({ content: [question('late')], isError: true }));
    expect(parsed.ok && parsed.response).toMatchObject({ status: 'stopped', isError: true, questions: [] });
  });

  it('skips a malformed block with a warning and keeps the rest', () => {
    const parsed = parseProtocolLine(JSON.stringify({ content: [{ type: 'text' }, { type: 'text', text: 'ok' }], _meta: { 'computer.jp/status': 'running' } }));
    expect(parsed.ok && parsed.response.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(parsed.ok && parsed.response.warnings).toEqual([expect.stringContaining('content block 0 (text) is malformed')]);
  });

  it('rejects lines that are not responses', () => {
    expect(parseProtocolLine('hello')).toEqual({ ok: false, reason: expect.stringContaining('not a JSON response') });
    expect(parseProtocolLine('{"content": [')).toMatchObject({ ok: false });
    expect(parseProtocolLine('{"text": "x"}')).toMatchObject({ ok: false });
    expect(parseProtocolLine(JSON.stringify({ content: [], _meta: { 'computer.jp/status': 'paused' } }))).toEqual({
      ok: false,
      reason: expect.stringContaining('"paused"'),
    });
  });
});
