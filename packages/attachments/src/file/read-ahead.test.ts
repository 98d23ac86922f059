import fs from 'node:fs/promises';
import path from 'node:path';
import { isRefResource, isTextResource, JpError, type Resource } from '@jp/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AttachmentLimits, HandlerContext } from '../handler.ts';
import { attachmentError, rejectionOf } from '../test-support/rejection.ts';
import { tempWorkspace, type TempWorkspace } from '../test-support/temp-workspace.ts';
import { testSpool, type TestSpool } from '../test-support/test-spool.ts';
import { createEventLoopPacer } from './event-loop-pacer.ts';
import { createFileHandler } from './file-handler.ts';
import { startReadAhead, type ReadAhead, type ReadAheadHost, type ReadAheadRequest } from './read-ahead.ts';

const handler = createFileHandler();
let ws: TempWorkspace;
let spool: TestSpool;
/** Read-aheads started by a test, ended after it (a tree nobody took keeps its reader thread). */
let started: ReadAhead[];

/** Over the 200 files from which a reader thread reads them: the read-ahead uses one. */
const FILES = 240;

beforeEach(async () => {
  ws = await tempWorkspace();
  spool = testSpool(path.join(ws.root, '.jp', 'spool'));
  started = [];
  for (let i = 0; i < FILES; i++) await ws.write(`tree/${i % 2 === 0 ? 'even' : 'odd'}/f${String(i).padStart(3, '0')}.txt`, `file ${i}\n`.repeat(1 + (i % 5)));
});
afterEach(async () => {
  for (const readAhead of started) readAhead.close();
  await ws.cleanup();
});

/** A host as the CLI's: the workspace is the temp one (or `-w` relative to it), the stores are the test's. */
function testHost(overrides: Partial<ReadAheadHost> = {}) {
  const asked = { workspaceRoot: [] as Array<string | undefined>, stores: 0 };
  const host: ReadAheadHost = {
    cwd: ws.root,
    workspaceRoot(option) {
      asked.workspaceRoot.push(option);
      return option === undefined ? ws.root : path.resolve(ws.root, option);
    },
    stores() {
      asked.stores++;
      return { spool };
    },
    ...overrides,
  };
  return { host, asked };
}

/** What `jp query` asks for when it attaches these, without `-w`. */
const attaching = (...attach: string[]): ReadAheadRequest => ({ attach, workspace: undefined });

async function start(request: ReadAheadRequest, host: ReadAheadHost = testHost().host): Promise<ReadAhead | undefined> {
  const readAhead = await startReadAhead(request, host);
  if (readAhead !== undefined) started.push(readAhead);
  return readAhead;
}

/** The context of a command that resolves with the same spool, and the read-ahead when given one. */
function command(limits: Partial<AttachmentLimits>, readAhead?: ReadAhead): HandlerContext {
  return { ...ws.ctx({ limits }), spool, readAhead };
}

/** Runs `then` once the walk of a tree the handler takes is over, before the handler goes on. */
function afterWalk(readAhead: ReadAhead, then: () => Promise<unknown>): ReadAhead & { taken: number } {
  const watched = {
    taken: 0,
    take: (...args: Parameters<ReadAhead['take']>) => {
      const tree = readAhead.take(...args);
      if (tree === undefined) return undefined;
      watched.taken++;
      return { ...tree, walked: tree.walked.then(async (files) => (await then(), files)) };
    },
    close: () => readAhead.close(),
  };
  return watched;
}

const TREE = () => path.join(ws.root, 'tree');
const take = (readAhead: ReadAhead, ctx: HandlerContext, realPath = TREE(), declaration = 'tree/') =>
  readAhead.take(realPath, declaration, ctx, { pace: createEventLoopPacer(ctx.signal) });
const names = (resources: readonly Resource[]) => resources.map((resource) => resource.name);

describe('a directory read ahead', () => {
  it('is what the file handler resolves: the files as its walk found them, read, in order; taken once', async () => {
    const readAhead = afterWalk((await start(attaching('tree/')))!, () => ws.write('tree/even/new.txt', 'later\n'));
    const ctx = command({ maxFiles: 1000 }, readAhead);
    const early = await handler.resolve(['tree/'], ctx);
    expect(readAhead.taken).toBe(1);
    expect(take(readAhead, ctx)).toBeUndefined();
    // A walk made now finds the file written once the read-ahead's walk was over.
    const now = await handler.resolve(['tree/'], command({ maxFiles: 1000 }));
    expect(names(now)).toContain('tree/even/new.txt');
    expect(early).toHaveLength(FILES);
    expect(early).toEqual(now.filter((resource) => resource.name !== 'tree/even/new.txt'));
    expect(early.filter((resource) => !isRefResource(resource))).toEqual([]);
    expect(spool.load(early[names(early).indexOf('tree/odd/f007.txt')]!)).toMatchObject({ text: 'file 7\n'.repeat(3) });
  });

  it('is taken only for its directory, declaration and workspace: for any other the handler walks itself', async () => {
    const readAhead = (await start(attaching('tree/')))!;
    const ctx = command({ maxFiles: 1000 }, readAhead);
    expect(names(await handler.resolve(['tree/odd/'], ctx))).toHaveLength(FILES / 2);
    // The same directory declared otherwise (a declaration names its files' labels and errors).
    expect(names(await handler.resolve(['tree'], ctx))).toHaveLength(FILES);
    expect(take(readAhead, { ...ctx, workspaceRoot: ws.outside })).toBeUndefined();
    // None of these took it.
    expect(take(readAhead, ctx)).toBeDefined();
    expect(take(readAhead, ctx)).toBeUndefined();
  });

  it("is held to the command's limits, not those it began under: the same results as a walk of the command's own", async () => {
    const alone = (limits: Partial<AttachmentLimits>) => handler.resolve(['tree/'], command(limits));
    const ahead = async (limits: Partial<AttachmentLimits>) => handler.resolve(['tree/'], command(limits, await start(attaching('tree/'))));

    const tooMany = await attachmentError(ahead({ maxFiles: 100 }));
    expect(tooMany.code).toBe('file_too_many');
    expect(tooMany.message).toBe((await attachmentError(alone({ maxFiles: 100 }))).message);

    // The read-ahead read files over this size limit whole: the policy decides all the same.
    const small = { maxFiles: 1000, maxResourceBytes: 12 };
    const rejected = await attachmentError(ahead({ ...small, sizePolicy: 'reject' }));
    const rejectedAlone = await attachmentError(alone({ ...small, sizePolicy: 'reject' }));
    expect([rejected.code, rejected.message]).toEqual([rejectedAlone.code, rejectedAlone.message]);

    const truncated = await ahead({ ...small, sizePolicy: 'truncate' });
    expect(truncated).toEqual(await alone({ ...small, sizePolicy: 'truncate' }));
    const descriptions = truncated.filter((resource) => resource.description !== undefined);
    expect(descriptions.length).toBeGreaterThan(0);
    expect(descriptions.map((resource) => (isTextResource(resource) ? resource.text.length : undefined)).filter((length) => length !== 12)).toEqual([]);
  });

  it('leaves out what .git/info/exclude and the global excludes file exclude, as the handler’s own walk does', async () => {
    vi.stubEnv('HOME', ws.outside);
    vi.stubEnv('XDG_CONFIG_HOME', '');
    vi.stubEnv('GIT_CONFIG_GLOBAL', undefined);
    vi.stubEnv('GIT_CONFIG_NOSYSTEM', '1');
    try {
      await ws.write('.git/info/exclude', 'f00*.txt\n');
      await ws.write(path.join('..', path.basename(ws.outside), '.config', 'git', 'ignore'), 'tree/odd/f1*.txt\n');
      const readAhead = afterWalk((await start(attaching('tree/')))!, async () => undefined);
      const early = names(await handler.resolve(['tree/'], command({ maxFiles: 1000 }, readAhead)));
      expect(readAhead.taken).toBe(1);
      const alone = names(await handler.resolve(['tree/'], command({ maxFiles: 1000 })));
      expect(early).toEqual(alone);
      expect(early.filter((name) => /\/f00\d\.txt$/.test(name!))).toEqual([]);
      expect(early.filter((name) => /^tree\/odd\/f1/.test(name!))).toEqual([]);
      expect(early).toContain('tree/even/f010.txt');
      expect(early).toHaveLength(FILES - 10 - 50);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("stops at the command's abort signal", async () => {
    const controller = new AbortController();
    controller.abort();
    const ctx = { ...command({ maxFiles: 1000 }, await start(attaching('tree/'))), signal: controller.signal };
    const error = await rejectionOf(handler.resolve(['tree/'], ctx), JpError);
    expect(error.code).toBe('interrupted');
  });

  it("says its walk's warnings through the command's logger, once, as a walk of the command's own says them", async () => {
    const outsideFile = path.join(ws.outside, 'secret.txt');
    await fs.writeFile(outsideFile, 'outside\n');
    await fs.symlink(outsideFile, path.join(ws.root, 'tree', 'odd', 'link.txt'));
    await handler.resolve(['tree/'], command({ maxFiles: 1000 }, await start(attaching('tree/'))));
    expect(ws.warnings).toEqual([expect.stringMatching(/skipped tree\/odd\/link\.txt, a symbolic link to a file outside the workspace/)]);
    await handler.resolve(['tree/'], command({ maxFiles: 1000 }));
    expect(ws.warnings[1]).toBe(ws.warnings[0]);
  });
});

describe('startReadAhead', () => {
  it.each([
    ['a query attaching nothing', []],
    ['a file', ['tree/even/f000.txt']],
    ['a glob', ['tree/**/*.txt']],
    ['a URL', ['https://example.com/tree/']],
    ['a missing directory', ['missing/']],
    ['a directory outside the workspace', ['<outside>']],
  ])('starts nothing for %s', async (_, attach) => {
    const { host, asked } = testHost();
    expect(await start(attaching(...attach.map((input) => (input === '<outside>' ? ws.outside : input))), host)).toBeUndefined();
    expect(asked.stores).toBe(0);
  });

  it('starts nothing without a workspace', async () => {
    const { host, asked } = testHost({ workspaceRoot: () => undefined });
    expect(await start(attaching('tree/'), host)).toBeUndefined();
    expect(asked.stores).toBe(0);
  });

  it('reads the first attached directory, in the workspace `-w` names, relative to the cwd', async () => {
    const { host, asked } = testHost({ cwd: path.join(ws.root, 'tree', 'odd') });
    const readAhead = (await start({ attach: ['f001.txt', 'https://example.com/', '../even', '..'], workspace: '.' }, host))!;
    expect(asked).toEqual({ workspaceRoot: ['.'], stores: 1 });
    const ctx = command({});
    expect(take(readAhead, ctx)).toBeUndefined();
    expect(take(readAhead, ctx, path.join(ws.root, 'tree', 'even'), 'tree/even/')).toBeDefined();
  });
});
