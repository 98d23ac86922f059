import { afterEach, describe, expect, it } from 'vitest';
import { cutStream, jsonResponse, sseResponse } from './responses.mjs';
import { createWireServer } from './wire-server.mjs';
import type { WireServer } from './wire-types.d.mts';

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createWireServer', () => {
  it('listens on 127.0.0.1 and records method, path, query, headers and the parsed JSON body', async () => {
    server = await createWireServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    server.enqueue(jsonResponse(200, { ok: true }));

    const response = await fetch(`${server.url}/v1/things?alt=sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k1' },
      body: JSON.stringify({ hello: 'world' }),
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/things', query: { alt: 'sse' }, body: { hello: 'world' } });
    expect(request?.headers['x-api-key']).toBe('k1');
    expect(request?.rawBody).toBe('{"hello":"world"}');
  });

  it('answers scripted responses first in, first out, with their status and headers', async () => {
    server = await createWireServer();
    server.enqueue(jsonResponse(429, { n: 1 }, { 'retry-after': '7' }), jsonResponse(201, { n: 2 }));
    expect(server.remaining).toBe(2);

    const first = await fetch(server.url, { method: 'POST' });
    const second = await fetch(server.url, { method: 'POST' });

    expect([first.status, first.headers.get('retry-after'), await first.json()]).toEqual([429, '7', { n: 1 }]);
    expect([second.status, await second.json()]).toEqual([201, { n: 2 }]);
    expect(server.remaining).toBe(0);
  });

  it('fails loudly with a 500 naming the request once the script has run out', async () => {
    server = await createWireServer();
    const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: 'not json' });

    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe('wire-server: the script ran out: no response queued for request #1 (POST /v1/messages)');
    expect(server.requests[0]?.body).toBeUndefined();
    expect(server.requests[0]?.rawBody).toBe('not json');
  });

  it('streams server-sent events with content-type text/event-stream', async () => {
    server = await createWireServer();
    server.enqueue(sseResponse([{ event: 'a', data: { x: 1 } }, { data: 'plain' }]));

    const response = await fetch(server.url);

    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe('event: a\ndata: {"x":1}\n\ndata: plain\n\n');
  });

  it('cuts a stream cleanly (end) or by resetting the socket (destroy)', async () => {
    server = await createWireServer();
    const events = sseResponse([{ data: '1' }, { data: '2' }, { data: '3' }]);
    server.enqueue(cutStream(events, 1, 'end'), cutStream(events, 2, 'destroy'));

    const ended = await fetch(server.url);
    expect(await ended.text()).toBe('data: 1\n\n');

    const destroyed = await fetch(server.url);
    await expect(destroyed.text()).rejects.toThrow();
  });

  it('lets a handler answer by itself', async () => {
    server = await createWireServer();
    server.enqueue({
      type: 'handler',
      handle: (request, response) => {
        response.writeHead(418).end(`saw ${request.path}`);
      },
    });

    const response = await fetch(`${server.url}/teapot`);

    expect([response.status, await response.text()]).toEqual([418, 'saw /teapot']);
  });

  it('close() drops kept-alive connections so it never hangs', async () => {
    server = await createWireServer();
    server.enqueue(jsonResponse(200, {}));
    await (await fetch(server.url)).json();
    const closing = server.close();
    server = undefined;
    await expect(closing).resolves.toBeUndefined();
  });
});
