import fs from 'node:fs/promises';
import path from 'node:path';
import { isTextResource, JpError, type Resource } from '@jp/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContentSpool, HandlerContext } from '../handler.ts';
import { tempWorkspace, type TempWorkspace } from '../test-support/temp-workspace.ts';
import { earlyDirectory, endEarlyTree, startEarlyTree, takeEarlyTree } from './early-tree.ts';
import { createEventLoopPacer } from './event-loop-pacer.ts';
import { createFileHandler } from './file-handler.ts';
import { attachmentError, rejectionOf } from '../test-support/rejection.ts';

const handler = createFileHandler();
let ws: TempWorkspace;

/** Over the 200 files from which a reader thread reads them: the early reading uses one. */
const FILES = 240;

beforeEach(async () => {
  ws = await tempWorkspace();
  for (let i = 0; i < FILES; i++) await ws.write(`tree/${i % 2 === 0 ? 'even' : 'odd'}/f${String(i).padStart(3, '0')}.txt`, `file ${i}\n`.repeat(1 + (i % 5)));
});
afterEach(async () => {
  endEarlyTree();
  await ws.cleanup();
});

/** Starts the early tree of `input` as the binary does, and waits for its walk to end. */
async function startEarly(input: string, spool?: ContentSpool): Promise<void> {
  const directory = await earlyDirectory(input, ws.root, ws.root);
  expect(directory).toBeDefined();
  await startEarlyTree({ workspaceRoot: ws.root, ...directory!, spool });
}

async function resolve(input: string, ctx: HandlerContext): Promise<Resource[]> {
  return handler.resolve([await handler.validate(input, ctx)], ctx);
}

const names = (resources: readonly Resource[]) => resources.map((resource) => resource.name);
const texts = (resources: readonly Resource[]) => resources.map((resource) => (isTextResource(resource) ? resource.text : undefined));

describe('earlyDirectory', () => {
  it('names a directory as the handler will declare it, and nothing else', async () => {
    expect(await earlyDirectory('tree', ws.root, ws.root)).toEqual({ realPath: path.join(ws.root, 'tree'), declaration: 'tree/' });
    expect(await earlyDirectory('..', ws.root, path.join(ws.root, 'tree'))).toEqual({ realPath: ws.root, declaration: './' });
    for (const input of ['tree/even/f000.txt', 'tree/**/*.txt', 'missing/', 'https://example.com/', ws.outside]) {
      expect(await earlyDirectory(input, ws.root, ws.root)).toBeUndefined();
    }
  });
});

describe('a tree begun early', () => {
  it('is what the handler resolves: its files as the walk found them, read, in order; nobody takes it twice', async () => {
    await startEarly('tree/');
    // Written once the early walk is over: the tree taken does not have it, a walk now would.
    await ws.write('tree/even/new.txt', 'later\n');
    const ctx = ws.ctx({ limits: { maxFiles: 1000 } });
    const early = await resolve('tree/', ctx);
    expect(takeEarlyTree(path.join(ws.root, 'tree'), 'tree/', ctx, { pace: createEventLoopPacer() })).toBeUndefined();
    const now = await resolve('tree/', ctx);
    expect(names(now)).toContain('tree/even/new.txt');
    const withoutNew = now.filter((resource) => resource.name !== 'tree/even/new.txt');
    expect(withoutNew).toHaveLength(FILES);
    expect(early).toEqual(withoutNew);
    expect(texts(early)[names(early).indexOf('tree/odd/f007.txt')]).toBe('file 7\n'.repeat(3));
  });

  it('is left alone by a command with another spool (or cache, or declaration): the handler walks itself', async () => {
    const spool: ContentSpool = {
      create: () => path.join(ws.root, '.jp', 'spool'),
      written: () => undefined,
      read: () => new Uint8Array(),
    };
    await fs.writeFile(spool.create(), '');
    await startEarly('tree/', spool);
    await ws.write('tree/even/new.txt', 'later\n');
    const resources = await resolve('tree/', ws.ctx({ limits: { maxFiles: 1000 } }));
    expect(names(resources)).toContain('tree/even/new.txt');
    expect(resources).toHaveLength(FILES + 1);
  });

  it("is held to the command's limits, not the defaults it began under", async () => {
    await startEarly('tree/');
    const tooMany = await attachmentError(resolve('tree/', ws.ctx({ limits: { maxFiles: 100 } })));
    expect(tooMany.code).toBe('file_too_many');

    // Files over a smaller size limit were read whole by the early reader: the policy decides all the same.
    const small = { maxFiles: 1000, maxResourceBytes: 12 };
    await startEarly('tree/');
    const rejected = await attachmentError(resolve('tree/', ws.ctx({ limits: { ...small, sizePolicy: 'reject' } })));
    const rejectedNow = await attachmentError(resolve('tree/', ws.ctx({ limits: { ...small, sizePolicy: 'reject' } })));
    expect([rejected.code, rejected.message]).toEqual([rejectedNow.code, rejectedNow.message]);

    await startEarly('tree/');
    const truncated = await resolve('tree/', ws.ctx({ limits: { ...small, sizePolicy: 'truncate' } }));
    expect(truncated).toEqual(await resolve('tree/', ws.ctx({ limits: { ...small, sizePolicy: 'truncate' } })));
    expect(texts(truncated).filter((text) => text !== undefined && text.length > 12)).toEqual([]);
  });

  it("stops at the command's abort signal", async () => {
    const directory = await earlyDirectory('tree/', ws.root, ws.root);
    void startEarlyTree({ workspaceRoot: ws.root, ...directory! });
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(resolve('tree/', { ...ws.ctx({ limits: { maxFiles: 1000 } }), signal: controller.signal }), JpError);
    expect(error).toMatchObject({ code: 'interrupted' });
  });

  it("says the early walk's warnings through the command's logger, once", async () => {
    const outsideFile = path.join(ws.outside, 'secret.txt');
    await fs.writeFile(outsideFile, 'outside\n');
    await fs.symlink(outsideFile, path.join(ws.root, 'tree', 'odd', 'link.txt'));
    await startEarly('tree/');
    expect(ws.warnings).toEqual([]);
    await resolve('tree/', ws.ctx({ limits: { maxFiles: 1000 } }));
    expect(ws.warnings).toHaveLength(1);
    expect(ws.warnings[0]).toMatch(/skipped tree\/odd\/link\.txt, a symbolic link to a file outside the workspace/);
    // As a walk of its own says it.
    await resolve('tree/', ws.ctx({ limits: { maxFiles: 1000 } }));
    expect(ws.warnings[1]).toBe(ws.warnings[0]);
  });
});
