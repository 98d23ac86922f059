import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fileCovers } from './file-covers.ts';

const root = '/work/ws';
const uri = (relative: string) => pathToFileURL(path.join(root, relative)).href;

describe('fileCovers', () => {
  it('covers the file itself and nothing else', () => {
    expect(fileCovers('src/main.rs', uri('src/main.rs'), root)).toBe(true);
    expect(fileCovers('src/main.rs', uri('src/main.rs.bak'), root)).toBe(false);
    expect(fileCovers('./src/main.rs', uri('src/main.rs'), root)).toBe(true);
    expect(fileCovers(`${root}/src/main.rs`, uri('src/main.rs'), root)).toBe(true);
  });

  it('covers files under a directory, not siblings sharing a prefix', () => {
    expect(fileCovers('src/', uri('src/a/b.ts'), root)).toBe(true);
    expect(fileCovers('src/', uri('srcx/a.ts'), root)).toBe(false);
    expect(fileCovers('./', uri('anything/at/all.md'), root)).toBe(true);
    expect(fileCovers('./', 'file:///elsewhere/x.md', root)).toBe(false);
  });

  it('covers files matching a glob on the workspace-relative path', () => {
    expect(fileCovers('src/**/*.ts', uri('src/a/b.ts'), root)).toBe(true);
    expect(fileCovers('src/**/*.ts', uri('src/a/b.rs'), root)).toBe(false);
    expect(fileCovers('src/**/*.ts', uri('src/.hidden.ts'), root)).toBe(false);
    expect(fileCovers('*.md', uri('docs/a.md'), root)).toBe(false);
    expect(fileCovers('v\\[1\\]/*.md', uri('v[1]/a.md'), root)).toBe(true);
  });

  it('matches percent-encoded URIs and literal names with glob characters', () => {
    expect(fileCovers('docs/my notes.md', uri('docs/my notes.md'), root)).toBe(true);
    expect(fileCovers('a[1].txt', uri('a[1].txt'), root)).toBe(true);
  });

  it('covers no other scheme and nothing outside the workspace', () => {
    expect(fileCovers('src/', 'https://example.com/src/a.ts', root)).toBe(false);
    expect(fileCovers('src/', 'external:abc/a.ts', root)).toBe(false);
    expect(fileCovers('../x.md', 'file:///work/x.md', root)).toBe(false);
  });
});
