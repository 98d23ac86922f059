import { describe, expect, it } from 'vitest';
import { editorFirstQuery } from './editor-first-args.ts';

describe('editorFirstQuery', () => {
  it('takes jp q with no text and the options the template reads cheaply', () => {
    expect(editorFirstQuery(['q'], true)).toEqual({ new: false, id: undefined, model: undefined });
    expect(editorFirstQuery(['query', '-n', '-m', 'echo'], true)).toEqual({ new: true, id: undefined, model: 'echo' });
    expect(editorFirstQuery(['q', '--id', 'abc', '--model=anthropic/x', '-e'], true)).toEqual({ new: false, id: 'abc', model: 'anthropic/x' });
    expect(editorFirstQuery(['q', '--id=abc~k', '--edit'], true)).toEqual({ new: false, id: 'abc~k', model: undefined });
  });

  it('leaves everything else to the CLI', () => {
    expect(editorFirstQuery(['q'], false)).toBeUndefined();
    expect(editorFirstQuery(['chat'], true)).toBeUndefined();
    expect(editorFirstQuery(['q', 'some', 'text'], true)).toBeUndefined();
    expect(editorFirstQuery(['q', '-e', 'prefill'], true)).toBeUndefined();
    expect(editorFirstQuery(['-c', 'a=b', 'q'], true)).toBeUndefined();
    expect(editorFirstQuery(['q', '-c', 'a=b'], true)).toBeUndefined();
    expect(editorFirstQuery(['q', '-a', 'x.txt'], true)).toBeUndefined();
    expect(editorFirstQuery(['q', '-n', '--id', 'abc'], true)).toBeUndefined();
    expect(editorFirstQuery(['q', '-m', 'echo', '-m', 'echo'], true)).toBeUndefined();
    expect(editorFirstQuery(['q', '--id'], true)).toBeUndefined();
    expect(editorFirstQuery(['q', '--id', '-n'], true)).toBeUndefined();
    expect(editorFirstQuery(['q', '--model='], true)).toBeUndefined();
    expect(editorFirstQuery(['q', '-nm', 'echo'], true)).toBeUndefined();
    expect(editorFirstQuery(['q', '--new=1'], true)).toBeUndefined();
    expect(editorFirstQuery(['q', '--', 'text'], true)).toBeUndefined();
    expect(editorFirstQuery(['q', '--help'], true)).toBeUndefined();
  });
});
