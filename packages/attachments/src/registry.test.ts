import { pathToFileURL } from 'node:url';
import { AttachmentError, type Resource } from '@jp/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileHandler } from './file/file-handler.ts';
import type { AttachmentHandler } from './handler.ts';
import { createRegistry } from './registry.ts';
import { tempWorkspace, type TempWorkspace } from './test-support/temp-workspace.ts';
import { schemeOf } from './uri-scheme.ts';
import { attachmentError as rejection } from './test-support/rejection.ts';

/** A handler that records its calls and turns each declaration into one text resource. */
function fakeHandler(schemes: string[], calls: string[][] = []): AttachmentHandler {
  return {
    schemes,
    validate: async (input) => `${input}#validated`,
    resolve: async (declarations) => {
      calls.push([...declarations]);
      return declarations.map((declaration): Resource => ({ uri: declaration, text: declaration }));
    },
    refresh: async (uri) => ({ uri, text: `fresh ${uri}` }),
    covers: (declaration, uri) => declaration === uri,
  };
}

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

describe('schemeOf', () => {
  it('reads RFC 3986 schemes, lowercased, and not paths or drive letters', () => {
    expect(schemeOf('HTTPS://example.com')).toBe('https');
    expect(schemeOf('mcp+server+demo://x')).toBe('mcp+server+demo');
    expect(schemeOf('cmd:git diff')).toBe('cmd');
    expect(schemeOf('src/a:b')).toBeUndefined();
    expect(schemeOf('./foo:bar')).toBeUndefined();
    expect(schemeOf('C:\\x')).toBeUndefined();
    expect(schemeOf('src/**/*.ts')).toBeUndefined();
  });
});

describe('AttachmentRegistry dispatch', () => {
  const file = fakeHandler(['file']);
  const http = fakeHandler(['http', 'https']);
  const mcp = fakeHandler(['mcp+']);
  const registry = createRegistry([file, http, mcp]);

  it('sends registered schemes to their handler and scheme families to the prefix owner', () => {
    expect(registry.handlerFor('https://example.com/a')).toBe(http);
    expect(registry.handlerFor('HTTP://example.com/a')).toBe(http);
    expect(registry.handlerFor('mcp+server+demo://x')).toBe(mcp);
    expect(registry.handlerFor('file:src/main.rs')).toBe(file);
  });

  it('sends paths and globs to the file handler', () => {
    for (const input of ['src/main.rs', './x', '~/x', '/abs/path', 'src/**/*.ts', '.', '../up/x.md', 'src/a:b.md']) {
      expect(registry.handlerFor(input)).toBe(file);
    }
  });

  it('refuses an unknown scheme, listing the supported ones', () => {
    const error = (() => {
      try {
        registry.handlerFor('foo:bar');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(AttachmentError);
    expect((error as AttachmentError).message).toBe(
      'unsupported attachment scheme "foo:" in foo:bar; supported: file:, http:, https:, mcp+<…>: and plain paths or globs (for a file whose name has a colon, write ./foo:bar)',
    );
    expect((error as AttachmentError).exitCode).toBe(4);
    expect(registry.handlerForUri('foo:bar')).toBeUndefined();
  });

  it('refuses two handlers claiming one scheme', () => {
    expect(() => createRegistry([fakeHandler(['file']), fakeHandler(['FILE'])])).toThrow(/two attachment handlers claim the scheme file/);
  });

  it('validates through the handler', async () => {
    expect(await registry.validate('https://x', ws.ctx())).toBe('https://x#validated');
    expect((await rejection(registry.validate('gopher://x', ws.ctx()))).message).toBe(
      'unsupported attachment scheme "gopher:" in gopher://x; supported: file:, http:, https:, mcp+<…>: and plain paths or globs',
    );
    expect((await rejection(registry.validate('  ', ws.ctx()))).message).toMatch(/^empty attachment/);
  });

  it('resolves in declaration order, one call per run of declarations of one handler, URIs kept once', async () => {
    const calls: string[][] = [];
    const ordered = createRegistry([fakeHandler(['file'], calls), fakeHandler(['https'], calls)]);
    const resources = await ordered.resolve(['a.md', 'b.md', 'https://x', 'c.md', 'a.md'], ws.ctx());
    expect(resources.map((resource) => resource.uri)).toEqual(['a.md', 'b.md', 'https://x', 'c.md']);
    expect(calls).toEqual([['a.md', 'b.md'], ['https://x'], ['c.md', 'a.md']]);
  });

  it('throws the first failure in declaration order', async () => {
    const failing = (message: string, delay: number): AttachmentHandler => ({
      ...fakeHandler([message]),
      resolve: () => new Promise((_, reject) => setTimeout(() => reject(new AttachmentError(message, message)), delay)),
    });
    const slowFirst = createRegistry([failing('first', 30), failing('second', 0)]);
    expect((await rejection(slowFirst.resolve(['first:x', 'second:y'], ws.ctx()))).message).toBe('first');
  });

  it('refreshes through the owner of the URI scheme and refuses unknown ones', async () => {
    expect(await registry.refresh('https://x', ws.ctx())).toEqual({ uri: 'https://x', text: 'fresh https://x' });
    expect((await rejection(registry.refresh('external:abc/x.pdf', ws.ctx()))).message).toMatch(/no attachment handler owns its scheme/);
  });

  it('asks the declaration’s handler whether it covers a URI', () => {
    expect(registry.covers('https://x', 'https://x', ws.ctx())).toBe(true);
    expect(registry.covers('https://x', 'https://y', ws.ctx())).toBe(false);
    expect(registry.covers('foo:bar', 'foo:bar', ws.ctx())).toBe(false);
  });
});

describe('AttachmentRegistry with the file handler', () => {
  it('validates, resolves and covers real files end to end', async () => {
    const main = await ws.write('src/main.rs', 'fn main() {}\n');
    await ws.write('src/lib.rs', 'pub fn f() {}\n');
    const registry = createRegistry([createFileHandler()]);
    const ctx = ws.ctx();
    const declarations = [await registry.validate('./src/../src/main.rs', ctx), await registry.validate('src/', ctx)];
    expect(declarations).toEqual(['src/main.rs', 'src/']);
    const resources = await registry.resolve(declarations, ctx);
    expect(resources.map((resource) => resource.name)).toEqual(['src/main.rs', 'src/lib.rs']);
    const uri = pathToFileURL(main).href;
    expect(registry.handlerForUri(uri)?.schemes).toEqual(['file', 'external']);
    expect(registry.covers('src/', uri, ctx)).toBe(true);
    expect(registry.covers('src/lib.rs', uri, ctx)).toBe(false);
    expect((await registry.refresh(uri, ctx)).name).toBe('src/main.rs');
    expect((await rejection(registry.validate('foo:bar', ctx))).message).toMatch(/supported: file:, external: and plain paths or globs/);
  });
});

describe('families claim their prefix', () => {
  it('sends malformed mcp+ input to the mcp handler, not to the file handler', async () => {
    const { AttachmentRegistry } = await import('./registry.ts');
    const { createFileHandler } = await import('./file/file-handler.ts');
    const mcp = { schemes: ['mcp+'], validate: async () => 'm', resolve: async () => [], refresh: async () => ({ uri: 'x', text: '' }), covers: () => false };
    const registry = new AttachmentRegistry([createFileHandler(), mcp]);
    expect(registry.handlerFor('mcp+my_server+x://y')).toBe(mcp);
    expect(registry.handlerFor('MCP+fixture+nouri')).toBe(mcp);
    expect(registry.handlerFor('mcp-notes.txt')).not.toBe(mcp);
  });
});

describe('AttachmentRegistry.resolve progress', () => {
  it('tells progress when each declaration begins and ends, failures included', async () => {
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: AttachmentHandler = {
      ...fakeHandler(['cmd']),
      resolve: async (declarations) => {
        log.push(`resolving ${declarations.join(',')}`);
        await gate;
        throw new AttachmentError(declarations[0]!, 'failed', { code: 'attachment_test' });
      },
    };
    const registry = createRegistry([fakeHandler(['demo']), slow]);
    const progress = {
      update: () => undefined,
      begin: (declaration: string) => {
        log.push(`begin ${declaration}`);
        return () => log.push(`end ${declaration}`);
      },
    };
    const resolving = registry.resolve(['demo://a', 'cmd:sleep 1'], { ...ws.ctx(), progress });
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['begin demo://a', 'begin cmd:sleep 1', 'resolving cmd:sleep 1', 'end demo://a']);
    release();
    await expect(resolving).rejects.toThrow('failed');
    expect(log.at(-1)).toBe('end cmd:sleep 1');
  });
});
