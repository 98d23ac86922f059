import { isBlobResource, isTextResource, type Resource } from '@jp/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, httpContext, startLocalHttpServer, type LocalHttpServer } from './__fixtures__/local-http-server.ts';
import { lastModifiedIso } from './fetch-http-resource.ts';
import { createHttpHandler } from './http-handler.ts';
import { attachmentError as failure } from '../test-support/rejection.ts';

const handler = createHttpHandler({ userAgent: 'jp/9.9.9' });
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
const PAGE = '<!doctype html><html><head><title>Guide</title><script>track()</script></head><body><h1>Hello</h1><p>See <a href="more.html">more</a>.</p></body></html>';
let server: LocalHttpServer;
let counter = 0;
/** Called when a client closes a `/slow` request before its answer. */
let onSlowCancelled: (() => void) | undefined;

beforeAll(async () => {
  server = await startLocalHttpServer((req, res) => {
    switch (req.url) {
      case '/a/b.html':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'last-modified': 'Wed, 21 Oct 2015 07:28:00 GMT' }).end(PAGE);
        return;
      case '/notes.txt':
        res.writeHead(200, { 'content-type': 'text/plain', 'last-modified': 'not a date' }).end('plain notes\n');
        return;
      case '/data.json':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        return;
      case '/logo.png':
        res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
        return;
      case '/latin1':
        res.writeHead(200, { 'content-type': 'text/plain; charset=ISO-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
        return;
      case '/odd-charset':
        res.writeHead(200, { 'content-type': 'text/plain; charset=x-martian' }).end('hi');
        return;
      case '/counter':
        counter++;
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`call ${counter}`);
        return;
      case '/old':
        res.writeHead(301, { location: '/a/b.html' }).end();
        return;
      case '/slow': {
        const answer = setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('slow'), 2_000);
        // The client gave up on it: the connection closes before the answer was sent.
        res.on('close', () => {
          if (res.writableEnded) return;
          clearTimeout(answer);
          onSlowCancelled?.();
        });
        return;
      }
      case '/gone':
        res.writeHead(410).end();
        return;
      default:
        res.writeHead(404).end();
    }
  });
});
afterAll(async () => {
  await server.close();
});

async function resolveOne(input: string, ctx = httpContext()): Promise<Resource> {
  const resources = await handler.resolve([await handler.validate(input, ctx)], ctx);
  expect(resources).toHaveLength(1);
  return resources[0]!;
}

describe('http handler', () => {
  it('claims http and https and validates to the normalised URL', async () => {
    expect(handler.schemes).toEqual(['http', 'https']);
    expect(await handler.validate(`HTTP://127.0.0.1:${server.port}/a/./x/../b.html#top`, httpContext())).toBe(server.url('/a/b.html'));
    const error = await failure(handler.validate(`http://me:hunter2@127.0.0.1:${server.port}/`, httpContext()));
    expect(error.message).toMatch(/user name or password in it, which would be stored in the conversation/);
    expect(error.message).not.toContain('hunter2');
  });

  it('keeps an HTML page raw in text, with Markdown in formatted, its title and Last-Modified', async () => {
    const resource = await resolveOne(server.url('/a/./b.html'));
    expect(resource).toEqual({
      uri: server.url('/a/b.html'),
      name: server.url('/a/b.html'),
      title: 'Guide',
      mimeType: 'text/html',
      annotations: { lastModified: '2015-10-21T07:28:00.000Z' },
      text: PAGE,
      formatted: `# Hello\n\nSee [more](${server.url('/a/more.html')}).`,
    });
  });

  it('reads text and JSON as text, an image as a blob; an invalid Last-Modified is left out', async () => {
    expect(await resolveOne(server.url('/notes.txt'))).toEqual({ uri: server.url('/notes.txt'), name: server.url('/notes.txt'), mimeType: 'text/plain', text: 'plain notes\n' });
    const json = await resolveOne(server.url('/data.json'));
    expect(isTextResource(json) && json.text).toBe('{"ok":true}');
    expect(json.mimeType).toBe('application/json');
    const png = await resolveOne(server.url('/logo.png'));
    expect(isBlobResource(png) && png.blob).toEqual(PNG);
    expect(png).toMatchObject({ mimeType: 'image/png', uri: server.url('/logo.png') });
  });

  it('decodes the charset the server names, and warns about one it cannot decode', async () => {
    expect(await resolveOne(server.url('/latin1'))).toMatchObject({ mimeType: 'text/plain', text: 'café' });
    const ctx = httpContext();
    expect(await resolveOne(server.url('/odd-charset'), ctx)).toMatchObject({ text: 'hi' });
    expect(ctx.warnings).toEqual([`${server.url('/odd-charset')}: charset "x-martian" is not one jp can decode; read as UTF-8`]);
  });

  it('keeps the requested URL as the URI after a redirect and says where the content came from', async () => {
    const resource = await resolveOne(server.url('/old'));
    expect(resource).toMatchObject({
      uri: server.url('/old'),
      name: server.url('/old'),
      description: `fetched from ${server.url('/a/b.html')} after 1 redirect`,
      mimeType: 'text/html',
    });
    expect(handler.covers(server.url('/old'), resource.uri, httpContext())).toBe(true);
  });

  it('sends the configured User-Agent', async () => {
    const before = server.requests.length;
    await resolveOne(server.url('/notes.txt'));
    expect(server.requests[before]?.headers['user-agent']).toBe('jp/9.9.9');
  });

  it('resolves several URLs in declaration order, fetching a repeated one once', async () => {
    const ctx = httpContext();
    const labels: string[] = [];
    ctx.progress = { update: (_done, label) => labels.push(label) };
    const urls = [server.url('/notes.txt'), server.url('/data.json'), `HTTP://127.0.0.1:${server.port}/notes.txt`];
    const resources = await handler.resolve(urls, ctx);
    expect(resources.map((resource) => resource.uri)).toEqual([server.url('/notes.txt'), server.url('/data.json')]);
    expect(labels.sort()).toEqual([server.url('/data.json'), server.url('/notes.txt')]);
  });

  it('fails on the first failing URL in declaration order and cancels the slow ones', async () => {
    const cancelled = new Promise<void>((resolve) => (onSlowCancelled = resolve));
    const error = await failure(handler.resolve([server.url('/slow'), server.url('/gone'), server.url('/missing')], httpContext()));
    expect(error.message).toBe(`GET ${server.url('/gone')} returned 410 Gone; check the URL`);
    expect(error.exitCode).toBe(4);
    // The failure did not wait for /slow: the server sees that request's connection closed by the
    // client before its answer (were it awaited, the answer would go out and this would never resolve:
    // the test's timeout is the hang guard).
    await cancelled;
    onSlowCancelled = undefined;
  });

  it('refresh fetches again', async () => {
    const uri = server.url('/counter');
    const first = await handler.refresh(uri, httpContext());
    const second = await handler.refresh(uri, httpContext());
    expect([first, second].map((resource) => (isTextResource(resource) ? resource.text : ''))).toEqual([`call ${counter - 1}`, `call ${counter}`]);
    expect(second.uri).toBe(uri);
  });

  it('applies the context limits and reports a refused connection', async () => {
    const tiny = httpContext({ maxBytes: 100 });
    expect((await failure(handler.resolve([server.url('/a/b.html')], tiny))).message).toMatch(/is larger than the limit of 100 bytes/);
    const quick = httpContext({ timeoutMs: 200 });
    expect((await failure(handler.refresh(server.url('/slow'), quick))).message).toMatch(/timed out after 0\.2 s/);
    const port = await closedPort();
    expect((await failure(handler.refresh(`http://127.0.0.1:${port}/`, httpContext()))).message).toMatch(/connection refused \(ECONNREFUSED\)/);
  });

  it('covers compares normalised URLs', () => {
    const ctx = httpContext();
    expect(handler.covers('https://Example.COM:443/a/./b', 'https://example.com/a/b', ctx)).toBe(true);
    expect(handler.covers('https://example.com/a/b#x', 'https://example.com/a/b', ctx)).toBe(true);
    expect(handler.covers('https://example.com/a/b', 'https://example.com/a/b/', ctx)).toBe(false);
    expect(handler.covers('https://example.com/a?x=1', 'https://example.com/a?x=2', ctx)).toBe(false);
    expect(handler.covers('http://example.com/a', 'https://example.com/a', ctx)).toBe(false);
    expect(handler.covers('not a url', 'https://example.com/a', ctx)).toBe(false);
  });
});

describe('lastModifiedIso', () => {
  it.each([
    ['Wed, 21 Oct 2015 07:28:00 GMT', '2015-10-21T07:28:00.000Z'],
    ['Sunday, 06-Nov-94 08:49:37 GMT', '1994-11-06T08:49:37.000Z'],
    ['yesterday', undefined],
    ['', undefined],
    [null, undefined],
  ])('%s → %s', (header, iso) => {
    expect(lastModifiedIso(header)).toBe(iso);
  });
});
