import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLimits } from '../handler.ts';
import { closedPort, startLocalHttpServer, type LocalHttpServer } from './__fixtures__/local-http-server.ts';
import { fetchLimited, formatBytes } from './fetch-limited.ts';
import { attachmentError as failure } from '../test-support/rejection.ts';

let server: LocalHttpServer;
/** What the endless stream wrote before its connection closed. */
let streamClosed: Promise<{ chunks: number; finished: boolean }>;
let onStreamClosed: (result: { chunks: number; finished: boolean }) => void = () => {};

function redirect(res: ServerResponse, status: number, location?: string): void {
  res.writeHead(status, location === undefined ? {} : { location });
  res.end();
}

beforeAll(async () => {
  server = await startLocalHttpServer((req, res) => {
    const path = req.url ?? '/';
    const hop = /^\/r\/(\d+)$/.exec(path);
    if (hop !== null) {
      const left = Number(hop[1]);
      if (left === 0) res.end('end of the chain');
      else redirect(res, 302, String(left - 1));
      return;
    }
    switch (path) {
      case '/text':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
        return;
      case '/empty':
        res.writeHead(204).end();
        return;
      case '/dots/x':
        return redirect(res, 301, './../a/../text#ignored');
      case '/loop/a':
        return redirect(res, 302, '/loop/b');
      case '/loop/b':
        return redirect(res, 307, 'a');
      case '/self':
        return redirect(res, 308, '/self');
      case '/to-ftp':
        return redirect(res, 302, 'ftp://127.0.0.1/file');
      case '/to-creds':
        return redirect(res, 302, `${server.origin.replace('//', '//user:secret@')}/text`);
      case '/no-location':
        return redirect(res, 302);
      case '/to-missing':
        return redirect(res, 303, '/missing');
      case '/fails':
        res.writeHead(500).end('boom');
        return;
      case '/not-modified':
        res.writeHead(304).end();
        return;
      case '/big-declared':
        res.writeHead(200, { 'content-length': String(100 * 1024 * 1024) });
        res.write('only a little');
        return; // and never the rest
      case '/stream': {
        // 80 KiB, then nothing more and no end: only a client that stops at its limit closes this.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunks = 5;
        for (let i = 0; i < chunks; i++) res.write(Buffer.alloc(16 * 1024, 0x61));
        res.on('close', () => onStreamClosed({ chunks, finished: res.writableFinished }));
        return;
      }
      case '/hang':
        return; // never answers
      case '/stall-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
        return;
      default:
        res.writeHead(404).end('not here');
    }
  });
});
afterAll(async () => {
  await server.close();
});

const LIMITS: FetchLimits = { maxBytes: 1024 * 1024, timeoutMs: 5_000, maxRedirects: 5 };

function get(path: string, limits: Partial<FetchLimits> = {}, signal?: AbortSignal) {
  const url = path.startsWith('http') ? path : server.url(path);
  return fetchLimited(new URL(url), { limits: { ...LIMITS, ...limits }, userAgent: 'jp-test', signal });
}

describe('fetchLimited', () => {
  it('reads a body and sends User-Agent and Accept', async () => {
    const before = server.requests.length;
    const fetched = await get('/text');
    expect(new TextDecoder().decode(fetched.bytes)).toBe('hello');
    expect(fetched).toMatchObject({ url: new URL(server.url('/text')), redirects: 0 });
    expect(fetched.headers.get('content-type')).toBe('text/plain');
    expect(server.requests[before]?.headers).toMatchObject({ 'user-agent': 'jp-test', accept: '*/*' });
  });

  it('reads an empty 204 body', async () => {
    expect((await get('/empty')).bytes).toEqual(new Uint8Array(0));
  });

  it('follows a relative Location with dot segments and a fragment', async () => {
    const fetched = await get('/dots/x');
    expect(fetched.url.href).toBe(server.url('/text'));
    expect(fetched.redirects).toBe(1);
    expect(new TextDecoder().decode(fetched.bytes)).toBe('hello');
  });

  it('follows a chain of exactly maxRedirects redirects', async () => {
    const fetched = await get('/r/5');
    expect(fetched.redirects).toBe(5);
    expect(fetched.url.href).toBe(server.url('/r/0'));
  });

  it('refuses one redirect more, without requesting its target', async () => {
    const before = server.requests.length;
    const error = await failure(get('/r/6'));
    expect(error.message).toBe(
      `${server.url('/r/6')} redirects more than 5 times (the last to ${server.url('/r/0')}); raise conversation.attachment.http.max_redirects or attach the final URL`,
    );
    expect(error.attachment).toBe(server.url('/r/6'));
    expect(server.requests.slice(before).map((request) => request.url)).toEqual(['/r/6', '/r/5', '/r/4', '/r/3', '/r/2', '/r/1']);
    expect((await failure(get('/r/1', { maxRedirects: 0 }))).message).toMatch(/redirects and following redirects is off \(the last to .*\/r\/0\)/);
  });

  it('detects a redirect loop and names it', async () => {
    const error = await failure(get('/loop/a', { maxRedirects: 50 }));
    expect(error.message).toBe(
      `${server.url('/loop/a')} redirects in a loop (${server.url('/loop/a')} → ${server.url('/loop/b')} → ${server.url('/loop/a')}); the server is misconfigured, attach another URL`,
    );
    expect((await failure(get('/self'))).message).toMatch(/redirects in a loop \(.*\/self → .*\/self\)/);
  });

  it('refuses a redirect to another scheme or to a URL with credentials', async () => {
    expect((await failure(get('/to-ftp'))).message).toBe(
      `${server.url('/to-ftp')} redirects to ftp://127.0.0.1/file, which is not http or https; jp follows redirects to http(s) URLs only`,
    );
    const creds = await failure(get('/to-creds'));
    expect(creds.message).toMatch(/redirects to http:\/\/\*\*\*@127\.0\.0\.1:\d+\/text, a URL with a user name or password that would be stored in the conversation/);
    expect(creds.message).not.toContain('secret');
    expect((await failure(get('/no-location'))).message).toMatch(/returned 302 Found without a Location header/);
  });

  it('names the status of a 4xx or 5xx answer, and the hop it came from', async () => {
    expect((await failure(get('/missing'))).message).toBe(`GET ${server.url('/missing')} returned 404 Not Found; check the URL`);
    expect((await failure(get('/fails'))).message).toBe(`GET ${server.url('/fails')} returned 500 Internal Server Error; the server failed; try again later`);
    expect((await failure(get('/to-missing'))).message).toBe(
      `GET ${server.url('/missing')} (redirected from ${server.url('/to-missing')}) returned 404 Not Found; check the URL`,
    );
    expect((await failure(get('/not-modified'))).message).toMatch(/returned 304 Not Modified; jp attaches only successful \(2xx\) responses/);
  });

  it('refuses a body whose Content-Length is over the limit before reading it', async () => {
    // The server never sends the rest of the body: reading it would end in the timeout's error, not this one.
    const error = await failure(get('/big-declared', { maxBytes: 1024 * 1024, timeoutMs: 3_000 }));
    expect(error.message).toBe(
      `${server.url('/big-declared')} is larger than the limit of 1 MiB (Content-Length says 104857600 bytes); raise conversation.attachment.http.max_bytes to attach it`,
    );
  });

  it('cuts a streamed body off once it passes the limit, closing the connection', async () => {
    streamClosed = new Promise((resolve) => (onStreamClosed = resolve));
    const error = await failure(get('/stream', { maxBytes: 64 * 1024 }));
    expect(error.message).toMatch(/\/stream is larger than the limit of 64 KiB \(more than 65536 bytes arrived\)/);
    // The body never ends: the server sees its connection closed only because the client closed it
    // (a client reading on would wait out the test's timeout instead).
    const closed = await streamClosed;
    expect(closed).toEqual({ chunks: 5, finished: false });
  });

  it('times out on a server that never answers, and on a body that stalls', async () => {
    for (const path of ['/hang', '/stall-body']) {
      const started = Date.now();
      const error = await failure(get(path, { timeoutMs: 300 }));
      expect(error.message).toBe(`GET ${server.url(path)} timed out after 0.3 s; raise conversation.attachment.http.timeout_secs or try again later`);
      // It waited its timeout, not less (the message names it; the test's timeout guards a hang).
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    }
  });

  it('reports a refused connection with its code', async () => {
    const port = await closedPort();
    const error = await failure(get(`http://127.0.0.1:${port}/`));
    expect(error.message).toBe(
      `GET http://127.0.0.1:${port}/ failed: connection refused (ECONNREFUSED); check that the server is running and the port is right`,
    );
  });

  it("explains fetch's blocked ports such as 1", async () => {
    expect((await failure(get('http://127.0.0.1:1/'))).message).toBe(
      "GET http://127.0.0.1:1/ refused: port 1 is on fetch's list of ports kept for other protocols; serve the page on another port",
    );
  });

  it("rethrows the caller's abort reason as is", async () => {
    const controller = new AbortController();
    const reason = new Error('interrupted');
    setTimeout(() => controller.abort(reason), 50);
    await expect(get('/hang', {}, controller.signal)).rejects.toBe(reason);
  });
});

describe('formatBytes', () => {
  it.each([
    [10 * 1024 * 1024, '10 MiB'],
    [64 * 1024, '64 KiB'],
    [1000, '1000 bytes'],
    [1536 * 1024, '1536 KiB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
