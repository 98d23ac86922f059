// The scripted HTTP server behind every provider test and the standalone `bin/wire-server.mjs`.
// Plain JavaScript (types in the sibling .d.mts) so `node` can run it without a TypeScript loader.
/** @import { IncomingMessage, ServerResponse } from 'node:http' */
/** @import { RecordedRequest, ScriptedResponse, StreamResponse, WireServer, WireServerOptions } from './wire-types.mjs' */
import { createServer } from 'node:http';

/**
 * @param {IncomingMessage} req
 * @returns {Promise<RecordedRequest>}
 */
async function recordRequest(req) {
  const parts = [];
  for await (const chunk of req) parts.push(chunk);
  const rawBody = Buffer.concat(parts).toString('utf8');
  let body;
  if (rawBody !== '') {
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    body,
    rawBody,
  };
}

/**
 * @param {RecordedRequest} request
 * @param {number} index
 * @returns {ScriptedResponse}
 */
function scriptRanOut(request, index) {
  const message = `wire-server: the script ran out: no response queued for request #${index + 1} (${request.method} ${request.path})`;
  return { type: 'json', status: 500, body: { type: 'error', error: { type: 'api_error', message } } };
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @param {StreamResponse} scripted
 * @param {ServerResponse} res
 */
async function writeStream(scripted, res) {
  res.writeHead(scripted.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...scripted.headers });
  res.flushHeaders();
  for (const [index, chunk] of scripted.chunks.entries()) {
    if (scripted.cut && index >= scripted.cut.afterChunks) break;
    if (index > 0 && scripted.chunkDelayMs) await sleep(scripted.chunkDelayMs);
    res.write(chunk);
  }
  if (scripted.cut?.mode === 'destroy') {
    // Let the written chunks reach the client, then reset the connection mid-answer.
    await sleep(20);
    res.socket?.destroy();
    return;
  }
  res.end();
}

/**
 * @param {ScriptedResponse} scripted
 * @param {RecordedRequest} request
 * @param {ServerResponse} res
 */
async function answer(scripted, request, res) {
  switch (scripted.type) {
    case 'json': {
      const body = JSON.stringify(scripted.body);
      res.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers });
      res.end(body);
      return;
    }
    case 'stream':
      await writeStream(scripted, res);
      return;
    case 'handler':
      await scripted.handle(request, res);
      return;
  }
}

/**
 * @param {WireServerOptions} [options]
 * @returns {Promise<WireServer>}
 */
export async function createWireServer(options = {}) {
  /** @type {RecordedRequest[]} */
  const requests = [];
  /** @type {ScriptedResponse[]} */
  const queue = [];
  const fallback = options.fallback ?? scriptRanOut;

  const server = createServer((req, res) => {
    void (async () => {
      const request = await recordRequest(req);
      const index = requests.push(request) - 1;
      options.onRequest?.(request, index);
      // A refusal (say, of bodies over a size) answers before the script, which keeps its answers.
      const scripted = options.refuse?.(request, index) ?? queue.shift() ?? fallback(request, index);
      await answer(scripted, request, res);
    })().catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `wire-server: ${String(error)}` } }));
    });
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve(undefined));
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('wire-server: no TCP address');

  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    enqueue: (...responses) => {
      queue.push(...responses);
    },
    get remaining() {
      return queue.length;
    },
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
