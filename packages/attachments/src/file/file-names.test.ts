import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { JpError } from '@jp/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace, type TempWorkspace } from '../test-support/temp-workspace.ts';
import { createFileHandler } from './file-handler.ts';
import { attachmentError } from '../test-support/rejection.ts';

const handler = createFileHandler();
let ws: TempWorkspace;

beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

async function names(input: string): Promise<string[]> {
  const ctx = ws.ctx();
  return (await handler.resolve([await handler.validate(input, ctx)], ctx)).map((resource) => resource.name ?? '');
}

/** Whether the temp dir's file system tells `A` from `a` (Linux: yes; macOS by default: no). */
async function caseSensitive(): Promise<boolean> {
  const probe = await ws.write('case-probe', '');
  const sensitive = !existsSync(probe.toUpperCase().replace(ws.root.toUpperCase(), ws.root));
  await fs.rm(probe);
  return sensitive;
}

describe('dots and slashes', () => {
  it('collapses ., .., repeated and trailing slashes to one declaration', async () => {
    await ws.write('src/main.rs', 'fn main() {}\n');
    for (const input of ['src//main.rs', './src/./main.rs', 'src/../src/main.rs', 'src///../src//main.rs']) {
      expect(await handler.validate(input, ws.ctx())).toBe('src/main.rs');
    }
    for (const input of ['src/', 'src//', 'src/.', 'src/lib/..', './src/../src/']) {
      await ws.mkdir('src/lib');
      expect(await handler.validate(input, ws.ctx())).toBe('src/');
    }
  });

  it('refuses a trailing slash after a file name, as the file system does', async () => {
    await ws.write('src/main.rs', '');
    expect((await attachmentError(handler.validate('src/main.rs/', ws.ctx()))).message).toMatch(/^no such file or directory: src\/main\.rs\/;/);
  });

  it('climbs out of the workspace with .. only to the external rules', async () => {
    await fs.writeFile(path.join(ws.outside, 'x.txt'), 'x');
    expect(await handler.validate(`../${path.basename(ws.outside)}/x.txt`, ws.ctx())).toMatch(/^external:[0-9a-f]{64}\/x\.txt$/);
    expect((await attachmentError(handler.validate('..', ws.ctx()))).message).toMatch(/^\.\. is a directory outside the workspace/);
  });
});

describe('Unicode and case', () => {
  it('names a decomposed file in NFC while its URI keeps the bytes on disk', async () => {
    const decomposed = 'e\u0301.txt';
    const file = await ws.write(`docs/${decomposed}`, 'accent');
    const [resource] = await handler.resolve([await handler.validate(`docs/${decomposed}`, ws.ctx())], ws.ctx());
    expect(resource?.name).toBe('docs/\u00e9.txt');
    expect(resource?.uri).toBe(pathToFileURL(file).href);
    expect(resource?.uri).toMatch(/\/docs\/e%CC%81\.txt$/);
    expect(existsSync(fileURLToPath(resource?.uri ?? ''))).toBe(true);
    expect(await names('docs/')).toEqual(['docs/\u00e9.txt']);
  });

  it('takes the spelling the file system has: another normalisation or case is another name where it is', async () => {
    await ws.write('README.md', '# r\n');
    await ws.write('e\u0301.txt', 'x');
    if (await caseSensitive()) {
      expect((await attachmentError(handler.validate('README.MD', ws.ctx()))).message).toMatch(/^no such file or directory: README\.MD;/);
      expect((await attachmentError(handler.validate('\u00e9.txt', ws.ctx()))).message).toMatch(/^no such file or directory: \u00e9\.txt;/);
    } else {
      // A case-insensitive file system finds it; the real path (and so the URI) is the one on disk.
      const [resource] = await handler.resolve([await handler.validate('README.MD', ws.ctx())], ws.ctx());
      expect(resource?.uri).toBe(pathToFileURL(path.join(ws.root, 'README.md')).href);
    }
  });
});

describe('names that are not UTF-8', () => {
  const latin1 = (name: string) => Buffer.from(name, 'latin1');

  it('skips them in a directory with a warning that shows the bytes', async () => {
    await ws.write('data/ok.txt', 'ok');
    await fs.writeFile(Buffer.concat([latin1(`${ws.root}/data/caf`), Buffer.from([0xe9]), latin1('.txt')]), 'latin-1 name');
    await fs.mkdir(Buffer.concat([latin1(`${ws.root}/data/d`), Buffer.from([0xff])]));
    await fs.writeFile(path.join(ws.root, 'data', '\ufffd-real.txt'), 'a name that really holds U+FFFD');
    expect(await names('data/')).toEqual(['data/ok.txt', 'data/\ufffd-real.txt']);
    expect(ws.warnings.sort()).toEqual([
      'data/: skipped data/caf\\xe9.txt, its name is not valid UTF-8; rename it to attach it',
      'data/: skipped data/d\\xff/, its name is not valid UTF-8; rename it to attach what it holds',
    ]);
  });

  it('says so when a path the user typed shows U+FFFD and is missing', async () => {
    await fs.writeFile(Buffer.concat([latin1(`${ws.root}/caf`), Buffer.from([0xe9]), latin1('.txt')]), 'x');
    // Node hands jp argv with each byte that is not UTF-8 replaced by U+FFFD.
    const error = await attachmentError(handler.validate('caf\ufffd.txt', ws.ctx()));
    expect(error.message).toBe(
      'no such file or directory: caf\ufffd.txt; the path has bytes that are not valid UTF-8 (shown as \ufffd), and jp attaches only files whose names are valid UTF-8 (names go into JSON and URIs), so rename it',
    );
    expect(error.code).toBe('file_name_not_utf8');
  });

  it('refuses file: URLs whose percent-encoding is not UTF-8', async () => {
    expect((await attachmentError(handler.validate(`file://${ws.root}/caf%E9.txt`, ws.ctx()))).message).toMatch(
      /^malformed file URL .*caf%E9\.txt: its percent-encoding is not UTF-8, and jp attaches only files whose names are UTF-8;/,
    );
    expect((await attachmentError(handler.validate('file:caf%E9.txt', ws.ctx()))).message).toMatch(/: bad percent-encoding \(or bytes that are not UTF-8\);/);
  });

  it('refuses a symlink whose target is not UTF-8, inside or outside the workspace', async () => {
    const inside = Buffer.concat([latin1(`${ws.root}/r`), Buffer.from([0xe9]), latin1('sum\u00e9.txt')]);
    await fs.writeFile(inside, 'x');
    await fs.symlink(inside, path.join(ws.root, 'link.txt'));
    const outside = Buffer.concat([latin1(`${ws.outside}/r`), Buffer.from([0xe9])]);
    await fs.writeFile(outside, 'y');
    await fs.symlink(outside, path.join(ws.root, 'far.txt'));
    for (const input of ['link.txt', 'far.txt']) {
      expect((await attachmentError(handler.validate(input, ws.ctx()))).message).toBe(
        `${input} resolves to a path that is not valid UTF-8; jp attaches only files whose names are valid UTF-8 (names go into JSON and URIs), so rename it`,
      );
    }
  });
});

describe('reading many files', () => {
  it('reports progress once per file with the count and the workspace-relative path', async () => {
    for (const name of ['b.ts', 'a.ts', 'sub/c.ts']) await ws.write(`src/${name}`, name);
    await ws.write('one.md', '1');
    const updates: Array<[number, string]> = [];
    const ctx = { ...ws.ctx(), progress: { update: (done: number, label: string) => updates.push([done, label]) } };
    await handler.resolve(['one.md', 'src/'], ctx);
    expect(updates).toEqual([
      [1, 'one.md'],
      [2, 'src/a.ts'],
      [3, 'src/b.ts'],
      [4, 'src/sub/c.ts'],
    ]);
  });

  it('stops with exit 130 when resolution is aborted', async () => {
    await ws.write('src/a.ts', 'a');
    const controller = new AbortController();
    controller.abort();
    const error = await handler.resolve(['src/'], { ...ws.ctx(), signal: controller.signal }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JpError);
    expect((error as JpError).exitCode).toBe(130);
  });
});
