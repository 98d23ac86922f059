import { readFile } from 'node:fs/promises';
import * as linguist from 'linguist-languages';
import mime from 'mime-types';
import { describe, expect, it } from 'vitest';
import { binaryMimeType, registeredMimeType } from './file-mime-type.ts';
import { GENERATE_COMMAND, generateFileTables } from './generate-file-tables.ts';
import * as linguistTable from './generated/linguist-table.ts';
import { REGISTERED_MIME_TYPES_JSON } from './generated/registered-mime-types.ts';
import { buildIndex } from './linguist-index.ts';
import { languageIndexFromTable } from './linguist-language.ts';

// A dependency update that changes the data fails here until the tables are regenerated.
const stale = (what: string) => `${what} is out of date with mime-types / linguist-languages: run \`${GENERATE_COMMAND}\` and commit the result`;

describe('generated file tables', () => {
  it.each(generateFileTables().map((file) => [file.path, file.text]))('%s matches the installed libraries', async (relative, text) => {
    const committed = await readFile(new URL(relative, import.meta.url), 'utf8').catch(() => '');
    expect(committed, stale(relative)).toBe(text);
  });

  it('gives the same Linguist languages as indexing the library', () => {
    const built = buildIndex(Object.values(linguist));
    const index = languageIndexFromTable(linguistTable);
    expect(index.longestExtension, stale('generated/linguist-table.ts')).toBe(built.longestExtension);
    for (const [table, keys, json] of [
      [index.byExtension, built.byExtension, linguistTable.EXTENSIONS_JSON],
      [index.byFilename, built.byFilename, linguistTable.FILENAMES_JSON],
    ] as const) {
      expect(Object.keys(JSON.parse(json)).sort(), stale('generated/linguist-table.ts')).toEqual([...keys.keys()].sort());
      const differing = [...keys].filter(([key, language]) => JSON.stringify(table.get(key)) !== JSON.stringify(language));
      expect(differing, stale('generated/linguist-table.ts')).toEqual([]);
    }
    // Only the table's own keys: a name that is also an Object.prototype property is no language.
    for (const key of ['constructor', '__proto__', 'toString', '.constructor', '.__proto__']) {
      expect([index.byFilename.get(key), index.byExtension.get(key)]).toEqual([undefined, undefined]);
    }
  });

  it('registers the type mime-types looks up for any name', () => {
    const names = [
      '',
      '.',
      '..',
      'x.',
      'a..',
      'noextension',
      'Makefile',
      '.bashrc',
      '/w/.bashrc',
      'x.TS',
      'a/b.ts',
      'a.json/b',
      'a/b.c/d',
      'dir/.hidden.JSON',
      'x.tar.gz',
      'x.zzzunknown',
      'constructor',
      'x.constructor',
      'x.__proto__',
      'x.hasOwnProperty',
    ];
    for (const extension of Object.keys(mime.types)) {
      const upper = extension.toUpperCase();
      names.push(extension, `.${extension}`, `x.${upper}`, `/w/dir.d/file.${extension}`, `C:\\w\\file.${upper}`);
    }
    expect(Object.keys(JSON.parse(REGISTERED_MIME_TYPES_JSON)).sort(), stale('generated/registered-mime-types.ts')).toEqual(Object.keys(mime.types).sort());
    const differing = names.filter((name) => {
      const expected = mime.lookup(name);
      return registeredMimeType(name) !== (expected === false ? undefined : expected) || binaryMimeType(name) !== (expected || 'application/octet-stream');
    });
    expect(differing, stale('generated/registered-mime-types.ts')).toEqual([]);
  });
});
