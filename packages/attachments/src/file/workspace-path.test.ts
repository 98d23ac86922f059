import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filePathOf, fileUri, resourceName, workspaceRelative } from './workspace-path.ts';

/** Paths of 1 to 12 characters drawn from plain, awkward and separator characters, the same every run. */
function generatedPaths(count: number): string[] {
  const alphabet = ['a', 'Z', '0', '.', '_', '-', '~', '+', ',', '=', '@', '%', '#', '?', ' ', ';', ':', '!', '$', '&', "'", '(', 'é', '/', '/', '/'];
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let generated = '/';
    const length = 1 + (next() % 12);
    for (let k = 0; k < length; k++) generated += alphabet[next() % alphabet.length];
    out.push(generated);
  }
  return out;
}

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
    for (const generated of generatedPaths(3000)) expect(fileUri(generated), generated).toBe(pathToFileURL(generated).href);
  });
});

describe('filePathOf', () => {
  it('agrees with fileURLToPath on the URIs of plain, awkward and generated paths', () => {
    const uris = [...generatedPaths(3000), '/w/src/main.rs', '/w/my notes #1.md', '/w/./a', '/w//a', '/w/a/..'].map((p) => pathToFileURL(p).href);
    uris.push('file:///w/a/../b', 'file:///w/./a', 'file:///w//a', 'file:///w/%41', 'file://host/w/a', 'file:///w/a%2Fb');
    for (const uri of uris) {
      let expected: string | Error;
      try {
        expected = fileURLToPath(uri);
      } catch (error) {
        expected = error as Error;
      }
      if (expected instanceof Error) expect(() => filePathOf(uri), uri).toThrow();
      else expect(filePathOf(uri), uri).toBe(expected);
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

  it('agrees with path.relative on generated paths, under the root or not', () => {
    const slow = (root: string, absolute: string) => {
      const relative = path.relative(root, absolute);
      if (relative === '') return '';
      return relative === '..' || relative.startsWith('../') || path.isAbsolute(relative) ? undefined : relative;
    };
    for (const root of ['/w', '/w/', '/', '/w/a']) {
      for (const tail of generatedPaths(2000)) {
        const absolute = path.posix.join(root, tail);
        for (const candidate of [absolute, `/w${tail}`, tail]) expect(workspaceRelative(root, candidate), `${root} ${candidate}`).toBe(slow(root, candidate));
      }
    }
  });

  it('names in NFC', () => {
    expect(resourceName('docs/e\u0301.txt')).toBe('docs/\u00e9.txt');
  });
});
