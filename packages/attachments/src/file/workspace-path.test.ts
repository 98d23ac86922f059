import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fileUri, resourceName, workspaceRelative } from './workspace-path.ts';

describe('fileUri', () => {
  it('agrees with pathToFileURL on plain and on awkward paths', () => {
    const paths = [
      '/w/src/main.rs',
      '/w/a-b_c~d+e,f=g@h.txt',
      '/w/.hidden/x',
      '/w/my notes #1.md',
      '/w/50%.txt',
      '/w/q?.txt',
      '/w/caf\u00e9/e\u0301.txt',
      '/w/a\\b',
      '/w/tab\there',
      '/w/{x}[y]',
      '/w/..a/b..',
      '/',
      '/w/',
    ];
    for (const path of paths) expect(fileUri(path)).toBe(pathToFileURL(path).href);
  });

  it('agrees with pathToFileURL on many generated paths', () => {
    const alphabet = ['a', 'Z', '0', '.', '_', '-', '~', '+', ',', '=', '@', '%', '#', '?', ' ', ';', ':', '!', '$', '&', "'", '(', 'é', '/', '/', '/'];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let i = 0; i < 3000; i++) {
      let path = '/';
      const length = 1 + (next() % 12);
      for (let k = 0; k < length; k++) path += alphabet[next() % alphabet.length];
      expect(fileUri(path), path).toBe(pathToFileURL(path).href);
    }
  });
});

describe('workspace paths', () => {
  it('gives workspace-relative POSIX paths, or undefined outside', () => {
    expect(workspaceRelative('/w', '/w')).toBe('');
    expect(workspaceRelative('/w', '/w/src/a.ts')).toBe('src/a.ts');
    expect(workspaceRelative('/w', '/w2/a.ts')).toBeUndefined();
    expect(workspaceRelative('/w', '/')).toBeUndefined();
    expect(workspaceRelative('/w', '/w/..a')).toBe('..a');
  });

  it('names in NFC', () => {
    expect(resourceName('docs/e\u0301.txt')).toBe('docs/\u00e9.txt');
  });
});
