import * as linguist from 'linguist-languages';
import mime from 'mime-types';
import { describe, expect, it, vi } from 'vitest';

/** Names that share a key in many ways: case, several dots, dotfiles, Linguist's exact names, no extension. */
function names(): string[] {
  const extensions = Object.keys(mime.types).flatMap((extension) => [extension, extension.toUpperCase()]);
  const linguistNames = Object.values(linguist).flatMap((language) => [...((language as { filenames?: string[] }).filenames ?? []), ...((language as { extensions?: string[] }).extensions ?? [])]);
  const dotted = [...extensions.map((extension) => `file.${extension}`), ...linguistNames.map((name) => (name.startsWith('.') ? `x${name}` : name))];
  const odd = ['README', 'readme', 'Makefile', 'makefile', 'MAKEFILE', '.bashrc', '.BASHRC', 'a.tar.gz', 'b.TAR.GZ', 'v.blade.php', 'w.php', 'x.', '.', 'noext', 'x.constructor', 'a.d.ts', 'b.ts', 'C.TS'];
  return [...dotted, ...linguistNames, ...odd].map((name) => `dir/${name}`);
}

async function typesInOrder(order: string[]): Promise<Map<string, [string, string | undefined]>> {
  vi.resetModules();
  const { loadFileMimeTypes } = await import('./file-mime-type.ts');
  const types = await loadFileMimeTypes();
  return new Map(order.map((name) => [name, [types.of(name).text, types.of(name).media]]));
}

describe('file MIME types, worked out once per name key', () => {
  it('answer every name alike whichever name of its key comes first', async () => {
    const all = names();
    const forward = await typesInOrder(all);
    const backward = await typesInOrder([...all].reverse());
    const differing = all.filter((name) => JSON.stringify(forward.get(name)) !== JSON.stringify(backward.get(name)));
    expect(differing.map((name) => [name, forward.get(name), backward.get(name)])).toEqual([]);
    expect(forward.get('dir/b.ts')).toEqual(['text/x-typescript', undefined]);
    expect(forward.get('dir/Makefile')).toEqual(['text/x-makefile', undefined]);
    // text() is asked only of content that decoded as text; media() keeps a PNG a blob anyway.
    expect(forward.get('dir/file.png')).toEqual(['text/plain', 'image/png']);
    // A dotfile's first dot starts no extension: `.ccxml` has no registered type, `a.ccxml` has.
    expect([forward.get('dir/.ccxml')?.[0], forward.get('dir/file.ccxml')?.[0]]).toEqual(['text/x-xml', 'application/ccxml+xml']);
  });
});
