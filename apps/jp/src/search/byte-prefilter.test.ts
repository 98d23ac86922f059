import { describe, expect, it } from 'vitest';
import { BytePrefilter } from './byte-prefilter.ts';
import { compilePattern } from './search-pattern.ts';

const lines = (pattern: Parameters<typeof compilePattern>[0], text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  return new BytePrefilter(compilePattern(pattern), 'json').candidateLines(bytes).map(([start, end]) => bytes.toString('utf8', start, end));
};

describe('BytePrefilter', () => {
  const events = [
    JSON.stringify({ type: 'chat_request', content: 'say "hi" to the \\ backslash' }),
    JSON.stringify({ type: 'chat_response', message: 'nothing here' }),
    JSON.stringify({ type: 'tool_call_request', name: 'read', arguments: { path: 'a"b' } }),
  ].join('\n');

  it('points at the stored lines that hold the text, as JSON escapes it', () => {
    expect(lines({ pattern: '"hi"' }, events)).toEqual([events.split('\n')[0]]);
    expect(lines({ pattern: 'the\\' }, events)).toEqual([]);
    expect(lines({ pattern: 'the \\ back' }, events)).toEqual([events.split('\n')[0]]);
    expect(lines({ pattern: 'say "hi"' }, events)).toEqual([events.split('\n')[0]]);
    expect(lines({ pattern: 'absent' }, events)).toEqual([]);
  });

  it('finds text of tool arguments, stored as a JSON value and searched as JSON.stringify writes it', () => {
    expect(lines({ pattern: '{"path":"a' }, events)).toEqual([events.split('\n')[2]]);
  });

  it('with -i, finds any case, and the long s and Kelvin sign that Unicode folds onto s and k', () => {
    const text = ['{"content":"SAY Hi"}', '{"content":"ſay KO"}', '{"content":"nothing"}'].join('\n');
    expect(lines({ pattern: 'say', ignoreCase: true }, text)).toEqual(['{"content":"SAY Hi"}', '{"content":"ſay KO"}']);
    expect(lines({ pattern: 'ko', ignoreCase: true }, text)).toEqual(['{"content":"ſay KO"}']);
  });

  it('gives every line when the pattern has no required text, and each line once', () => {
    expect(lines({ pattern: '[0-9]', regex: true }, 'a\nb\n\nc')).toEqual(['a', 'b', 'c']);
    expect(lines({ pattern: 'aa' }, 'aaaa\nxaa')).toEqual(['aaaa', 'xaa']);
  });

  it('says where in raw bytes a match may start (a pack scanned whole), overlapping places included', () => {
    const prefilter = new BytePrefilter(compilePattern({ pattern: 'aa' }), 'raw');
    expect(prefilter.positions(Buffer.from('aaa b aa'))).toEqual([0, 1, 6]);
    expect(new BytePrefilter(compilePattern({ pattern: '.', regex: true }), 'raw').positions(Buffer.from('x'))).toBeUndefined();
  });
});
