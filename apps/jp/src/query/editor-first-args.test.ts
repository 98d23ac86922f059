import { describe, expect, it } from 'vitest';
import { editorFirstQuery } from './editor-first-args.ts';

const terminal = () => true;

describe('editorFirstQuery', () => {
  it('takes jp q with no text and the options the template reads cheaply', () => {
    expect(editorFirstQuery(['q'], terminal)).toEqual({ new: false, id: undefined, model: undefined });
    expect(editorFirstQuery(['query', '-n', '-m', 'echo'], terminal)).toEqual({ new: true, id: undefined, model: 'echo' });
    expect(editorFirstQuery(['q', '--id', 'abc', '--model=anthropic/x', '-e'], terminal)).toEqual({ new: false, id: 'abc', model: 'anthropic/x' });
    expect(editorFirstQuery(['q', '--id=abc~k', '--edit'], terminal)).toEqual({ new: false, id: 'abc~k', model: undefined });
  });

  it('leaves everything else to the CLI', () => {
    expect(editorFirstQuery(['q'], () => false)).toBeUndefined();
    expect(editorFirstQuery(['chat'], terminal)).toBeUndefined();
    // Off a terminal, or for another command, the terminal is not even asked about.
    expect(editorFirstQuery(['c', 'ls'], () => expect.unreachable())).toBeUndefined();
    expect(editorFirstQuery(['q', 'text'], () => expect.unreachable())).toBeUndefined();
    expect(editorFirstQuery(['q', 'some', 'text'], terminal)).toBeUndefined();
    expect(editorFirstQuery(['q', '-e', 'prefill'], terminal)).toBeUndefined();
    expect(editorFirstQuery(['-c', 'a=b', 'q'], terminal)).toBeUndefined();
    expect(editorFirstQuery(['q', '-c', 'a=b'], terminal)).toBeUndefined();
    expect(editorFirstQuery(['q', '-a', 'x.txt'], terminal)).toBeUndefined();
    expect(editorFirstQuery(['q', '-n', '--id', 'abc'], terminal)).toBeUndefined();
    expect(editorFirstQuery(['q', '-m', 'echo', '-m', 'echo'], terminal)).toBeUndefined();
    expect(editorFirstQuery(['q', '--id'], terminal)).toBeUndefined();
    expect(editorFirstQuery(['q', '--id', '-n'], terminal)).toBeUndefined();
    expect(editorFirstQuery(['q', '--model='], terminal)).toBeUndefined();
    expect(editorFirstQuery(['q', '-nm', 'echo'], terminal)).toBeUndefined();
    expect(editorFirstQuery(['q', '--new=1'], terminal)).toBeUndefined();
    expect(editorFirstQuery(['q', '--', 'text'], terminal)).toBeUndefined();
    expect(editorFirstQuery(['q', '--help'], terminal)).toBeUndefined();
  });
});
