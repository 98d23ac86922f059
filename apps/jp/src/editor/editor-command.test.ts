import { describe, expect, it } from 'vitest';
import { chooseEditor, editorArgv } from './editor-command.ts';

describe('chooseEditor', () => {
  it('prefers $VISUAL, then $EDITOR, then the config key, then vi', () => {
    expect(chooseEditor({ VISUAL: 'a', EDITOR: 'b' }, 'c')).toEqual({ value: 'a', source: '$VISUAL' });
    expect(chooseEditor({ VISUAL: ' ', EDITOR: 'b' }, 'c')).toEqual({ value: 'b', source: '$EDITOR' });
    expect(chooseEditor({}, 'c')).toEqual({ value: 'c', source: 'editor.command' });
    expect(chooseEditor({}, undefined)).toEqual({ value: 'vi', source: 'the default' });
  });
});

describe('editorArgv', () => {
  it('splits a value with arguments and quotes', () => {
    expect(editorArgv({ value: 'code --wait', source: '$EDITOR' }, {})).toEqual(['code', '--wait']);
    expect(editorArgv({ value: `"/opt/My Editor/ed" -n 'a b'`, source: '$EDITOR' }, {})).toEqual(['/opt/My Editor/ed', '-n', 'a b']);
  });

  it('expands variables as a shell would', () => {
    expect(editorArgv({ value: '$HOME/bin/ed -t', source: '$VISUAL' }, { HOME: '/home/u' })).toEqual(['/home/u/bin/ed', '-t']);
  });

  it('refuses shell operators instead of running part of the value', () => {
    expect(() => editorArgv({ value: 'vi; rm -rf x', source: '$EDITOR' }, {})).toThrow(/\$EDITOR \(vi; rm -rf x\) has shell syntax/);
    expect(() => editorArgv({ value: 'ed | tee', source: '$VISUAL' }, {})).toThrow(/shell syntax/);
  });

  it('refuses a value that splits into nothing', () => {
    expect(() => editorArgv({ value: '""', source: 'editor.command' }, {})).toThrow(/editor in editor.command is empty/);
  });
});
