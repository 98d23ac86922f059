import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isTextResource, type Resource } from '@jp/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace, type TempWorkspace } from '../test-support/temp-workspace.ts';
import { createFileHandler } from './file-handler.ts';
import { attachmentError } from '../test-support/rejection.ts';
import { fileHandlerAsUnprivileged } from '../test-support/file-handler-as-unprivileged.ts';

const handler = createFileHandler();
let ws: TempWorkspace;

beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

async function resolveInput(input: string, cwd = ws.root): Promise<Resource[]> {
  const ctx = ws.ctx({ cwd });
  return handler.resolve([await handler.validate(input, ctx)], ctx);
}

function textOf(resource: Resource | undefined): string {
  expect(resource !== undefined && isTextResource(resource)).toBe(true);
  return resource !== undefined && isTextResource(resource) ? resource.text : '';
}

describe('file handler inputs', () => {
  it('gives one canonical URI and declaration for relative, absolute, file: and dotted inputs', async () => {
    const file = await ws.write('src/main.rs', 'fn main() {}\n');
    const inputs = ['src/main.rs', './src/../src/main.rs', 'src//main.rs', file, `file:src/main.rs`, pathToFileURL(file).href, `file://localhost${file}`];
    for (const input of inputs) {
      expect(await handler.validate(input, ws.ctx())).toBe('src/main.rs');
      const [resource, ...rest] = await resolveInput(input);
      expect(rest).toEqual([]);
      expect(resource).toMatchObject({ uri: pathToFileURL(file).href, name: 'src/main.rs', mimeType: 'text/x-rust' });
      expect(textOf(resource)).toBe('fn main() {}\n');
    }
  });

  it('resolves relative inputs against the cwd and stores them relative to the workspace root', async () => {
    await ws.write('src/lib/util.ts', 'export {};\n');
    const cwd = path.join(ws.root, 'src');
    expect(await handler.validate('lib/util.ts', ws.ctx({ cwd }))).toBe('src/lib/util.ts');
    expect(await handler.validate('../src/lib/', ws.ctx({ cwd }))).toBe('src/lib/');
    expect(await handler.validate('**/*.ts', ws.ctx({ cwd }))).toBe('src/**/*.ts');
    expect(await handler.validate('..', ws.ctx({ cwd }))).toBe('./');
  });

  it('writes directories with a trailing slash and the workspace root as ./', async () => {
    await ws.write('src/a.ts', '');
    for (const input of ['src', 'src/', 'src///', './src/.', 'file:src/']) expect(await handler.validate(input, ws.ctx())).toBe('src/');
    for (const input of ['.', './', ws.root, `${ws.root}/`]) expect(await handler.validate(input, ws.ctx())).toBe('./');
  });

  it('decodes percent-encoding in file: URLs and encodes the canonical URI like pathToFileURL', async () => {
    const file = await ws.write('docs/my notes #1.md', '# hi\n');
    expect(await handler.validate('file:docs/my%20notes%20%231.md', ws.ctx())).toBe('docs/my notes #1.md');
    const [resource] = await resolveInput('docs/my notes #1.md');
    expect(resource?.uri).toBe(pathToFileURL(file).href);
    expect(resource?.uri).toContain('my%20notes%20%231.md');
    expect(resource?.name).toBe('docs/my notes #1.md');
  });

  it('keeps a path that looks like a URI a path by prefixing ./', async () => {
    await ws.write('notes:2024.md', 'x');
    expect(await handler.validate('./notes:2024.md', ws.ctx())).toBe('./notes:2024.md');
    const [resource] = await handler.resolve(['./notes:2024.md'], ws.ctx());
    expect(resource?.name).toBe('notes:2024.md');
  });

  it('treats an existing file with glob characters as that file', async () => {
    await ws.write('a[1].txt', 'literal');
    await ws.write('a1.txt', 'glob match');
    expect(await handler.validate('a[1].txt', ws.ctx())).toBe('a[1].txt');
    const resources = await handler.resolve(['a[1].txt'], ws.ctx());
    expect(resources.map((resource) => textOf(resource))).toEqual(['literal']);
  });

  it('names resources in NFC', async () => {
    const decomposed = 'cafe\u0301.txt';
    const file = await ws.write(decomposed, 'x');
    const [resource] = await resolveInput(decomposed);
    expect(resource?.name).toBe('caf\u00e9.txt');
    expect(resource?.uri).toBe(pathToFileURL(file).href);
  });

  it('refuses malformed and remote file URLs and empty input', async () => {
    expect((await attachmentError(handler.validate('file:bad%zz', ws.ctx()))).message).toMatch(/malformed file URL/);
    expect((await attachmentError(handler.validate('file://server/share/x', ws.ctx()))).message).toMatch(/only local files/);
    expect((await attachmentError(handler.validate('', ws.ctx()))).message).toMatch(/empty file path/);
  });

  it('checks glob syntax only', async () => {
    expect(await handler.validate('lib/**/*.go', ws.ctx())).toBe('lib/**/*.go');
    expect((await attachmentError(handler.validate('src/**/../*.ts', ws.ctx()))).message).toMatch(/'\.\.' may only come before/);
    expect((await attachmentError(handler.validate('!src/*.ts', ws.ctx()))).message).toMatch(/negated globs/);
  });
});

describe('file handler symlinks and the workspace boundary', () => {
  it('gives a symlink inside the workspace the URI and name of its real target', async () => {
    const target = await ws.write('real/target.md', 'target\n');
    await fs.symlink(target, path.join(ws.root, 'link.md'));
    expect(await handler.validate('link.md', ws.ctx())).toBe('real/target.md');
    const [resource] = await resolveInput('link.md');
    expect(resource).toMatchObject({ uri: pathToFileURL(target).href, name: 'real/target.md' });
  });

  it('refuses directories and globs outside the workspace', async () => {
    await fs.mkdir(path.join(ws.outside, 'docs'));
    await fs.writeFile(path.join(ws.outside, 'docs', 'a.md'), 'a');
    const dir = path.join(ws.outside, 'docs');
    expect((await attachmentError(handler.validate(dir, ws.ctx()))).message).toBe(
      `${dir} is a directory outside the workspace; jp snapshots files from outside the workspace one at a time, so attach the files you need by path`,
    );
    const glob = `${dir}/*.md`;
    expect((await attachmentError(handler.validate(glob, ws.ctx()))).message).toMatch(/^glob .* starts outside the workspace; globs expand inside the workspace only/);
    await fs.symlink(dir, path.join(ws.root, 'linked-docs'));
    expect((await attachmentError(handler.validate('linked-docs/', ws.ctx()))).message).toMatch(/^linked-docs\/ is a directory outside the workspace/);
  });
});

describe('file handler errors', () => {
  it('reports a missing file as the user named it', async () => {
    const error = await attachmentError(handler.validate('src/nope.rs', ws.ctx()));
    expect(error.message).toMatch(/^no such file or directory: src\/nope\.rs;/);
    expect(error.attachment).toBe('src/nope.rs');
    expect(error.exitCode).toBe(4);
    const deleted = await ws.write('gone.txt', 'x');
    const declaration = await handler.validate('gone.txt', ws.ctx());
    await fs.rm(deleted);
    expect((await attachmentError(handler.resolve([declaration], ws.ctx()))).message).toMatch(/^no such file or directory: gone\.txt/);
  });

  it('reports an unreadable file (as nobody when the tests run as root, who reads anything)', async () => {
    const file = await ws.write('locked.txt', 'locked content');
    await fs.chmod(file, 0o000);
    const outcomes = await fileHandlerAsUnprivileged({ root: ws.root, reachable: [ws.root, path.join(ws.root, '.jp')] }, [
      { op: 'validate', input: './locked.txt' },
      { op: 'resolve', input: 'locked.txt' },
    ]);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([false, false]);
    expect(outcomes[0]!.message).toMatch(/^cannot read \.\/locked\.txt: permission denied/);
    expect(outcomes[1]!.message).toMatch(/^cannot read locked\.txt: permission denied/);
  });

  it('refuses a FIFO without blocking on it', { timeout: 5000 }, async () => {
    const fifo = path.join(ws.root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect((await attachmentError(handler.validate('pipe', ws.ctx()))).message).toMatch(/^pipe is not a regular file/);
    expect((await attachmentError(handler.resolve(['pipe'], ws.ctx()))).message).toMatch(/^pipe is not a regular file/);
    // Inside a directory a FIFO is skipped, not read.
    await ws.write('data.txt', 'data');
    const resources = await handler.resolve(['./'], ws.ctx());
    expect(resources.map((resource) => resource.name)).toEqual(['data.txt']);
  });

  it('refuses a socket', async () => {
    const socketPath = path.join(ws.root, 'sock');
    const server = net.createServer();
    await new Promise<void>((done) => server.listen(socketPath, done));
    try {
      expect((await attachmentError(handler.validate('sock', ws.ctx()))).message).toMatch(/not a regular file/);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

describe('file handler refresh', () => {
  it('re-reads a file URI with current content', async () => {
    const file = await ws.write('src/main.rs', 'v1');
    const [first] = await resolveInput('src/main.rs');
    await fs.writeFile(file, 'v2');
    const refreshed = await handler.refresh(first?.uri ?? '', ws.ctx());
    expect(refreshed).toMatchObject({ uri: first?.uri, name: 'src/main.rs', text: 'v2', mimeType: 'text/x-rust' });
  });

  it('refuses URIs that are not workspace files', async () => {
    await fs.writeFile(path.join(ws.outside, 'o.txt'), 'o');
    const outsideUri = pathToFileURL(path.join(ws.outside, 'o.txt')).href;
    expect((await attachmentError(handler.refresh(outsideUri, ws.ctx()))).message).toMatch(/it is outside the workspace, and only workspace files can be refreshed/);
    expect((await attachmentError(handler.refresh('https://example.com/', ws.ctx()))).message).toMatch(/not a file:\/\/ resource URI/);
    expect((await attachmentError(handler.refresh(pathToFileURL(path.join(ws.root, 'gone*.txt')).href, ws.ctx()))).message).toMatch(
      /no such file or directory/,
    );
    await ws.mkdir('dir');
    expect((await attachmentError(handler.refresh(pathToFileURL(path.join(ws.root, 'dir')).href, ws.ctx()))).message).toMatch(/is a directory/);
  });
});
