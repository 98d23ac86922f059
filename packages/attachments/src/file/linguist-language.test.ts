import { fenceLanguage } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { textMimeType } from './file-mime-type.ts';
import { fenceName, languageForPath } from './linguist-language.ts';

describe('languageForPath', () => {
  it.each([
    ['main.rs', 'Rust'],
    ['index.ts', 'TypeScript'],
    ['app.py', 'Python'],
    ['x.h', 'C'],
    ['x.m', 'Objective-C'],
    ['x.pl', 'Perl'],
    ['README.md', 'Markdown'],
    ['q.sql', 'SQL'],
    ['a.yml', 'YAML'],
    ['Prog.CS', 'C#'],
    ['view.blade.php', 'Blade'],
    ['Dockerfile', 'Dockerfile'],
    ['.bashrc', 'Shell'],
  ])('%s is %s', async (file, language) => {
    expect((await languageForPath(`/w/${file}`))?.name).toBe(language);
  });

  it('knows nothing of unknown extensions', async () => {
    expect(await languageForPath('/w/file.zzzunknown')).toBeUndefined();
    expect(await languageForPath('/w/noextension')).toBeUndefined();
  });
});

describe('fenceName', () => {
  it.each([
    [{ name: 'Rust' }, 'rust'],
    [{ name: 'Common Lisp', aliases: ['lisp'] }, 'common-lisp'],
    [{ name: 'C++', aliases: ['cpp'] }, 'cpp'],
    [{ name: 'C#', aliases: ['csharp', 'cake'] }, 'csharp'],
    [{ name: 'F#', aliases: ['fsharp'] }, 'fsharp'],
    [{ name: 'Objective-C++', aliases: ['obj-c++', 'objc++'] }, 'objective-cpp'],
    [{ name: 'Graphviz (DOT)' }, 'graphviz-dot'],
    [{ name: "Cap'n Proto" }, 'cap-n-proto'],
  ] as const)('%j → %s', (language, fence) => {
    expect(fenceName(language)).toBe(fence);
  });

  it('gives every Linguist language a tag fenceLanguage passes through from text/x-<tag>', async () => {
    const all = Object.values(await import('linguist-languages'));
    expect(all.length).toBeGreaterThan(500);
    const bad = all.map((language) => fenceName(language)).filter((fence) => fence === '' || fenceLanguage(`text/x-${fence}`) !== fence);
    expect(bad).toEqual([]);
  });
});

describe('textMimeType', () => {
  it.each([
    ['a.rs', 'text/x-rust'],
    ['a.ts', 'text/x-typescript'],
    ['a.tsx', 'text/x-tsx'],
    ['a.js', 'text/javascript'],
    ['a.md', 'text/markdown'],
    ['a.json', 'application/json'],
    ['a.toml', 'application/toml'],
    ['a.yaml', 'text/yaml'],
    ['a.xml', 'application/xml'],
    ['a.html', 'text/html'],
    ['a.css', 'text/css'],
    ['a.java', 'text/x-java'],
    ['a.go', 'text/x-go'],
    ['a.csv', 'text/csv'],
    ['a.rss', 'application/rss+xml'],
    ['a.ini', 'text/plain'],
    ['a.txt', 'text/plain'],
    ['a.svg', 'text/x-svg'],
    ['Makefile', 'text/x-makefile'],
    ['no-extension', 'text/plain'],
  ])('%s → %s', async (file, mimeType) => {
    expect(await textMimeType(`/w/${file}`)).toBe(mimeType);
  });
});
