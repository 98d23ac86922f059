import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineError, makeSandbox, readEvents, runJp, snapshotTree, turnsOf } from './helpers/run-jp.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const PAGE = '<!doctype html><html><head><title>Résumé</title><style>h1{}</style></head><body><h1>Caf\u00e9 guide</h1><p>Read <a href="next.html">on</a>.</p></body></html>';

// http(s) attachments through the built binary, against a server on 127.0.0.1 only.
describe('http attachments through the binary', () => {
  const { root, env } = makeSandbox('jp-e2e-http-');
  const ws = path.join(root, 'project');
  const jpDir = path.join(ws, '.jp');
  const jp = (args: string[]) => runJp(args, { cwd: ws, env });
  const sockets = new Set<import('node:net').Socket>();
  let server: http.Server;
  let origin = '';
  let closedOrigin = '';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      switch (req.url) {
        case '/a/b.html':
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
          return;
        case '/loop':
          res.writeHead(302, { location: '/loop-back' }).end();
          return;
        case '/loop-back':
          res.writeHead(302, { location: '/loop' }).end();
          return;
        case '/hang':
          return; // never answers
        default:
          res.writeHead(404).end();
      }
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A port that was free a moment ago: nothing listens there.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedOrigin = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    mkdirSync(ws, { recursive: true });
    const init = await jp(['init']);
    expect(init.code, init.stderr).toBe(0);
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  let id = '';

  it('attaches a page under its normalised URL: raw HTML in text, Markdown in formatted', async () => {
    const result = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', `${origin}/a/./b.html`, 'x']);
    expect(result.code, result.stderr).toBe(0);
    const final = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    const uri = `${origin}/a/b.html`;
    expect(final.text).toContain(`  resource ${uri} text/html ${Buffer.byteLength(PAGE)} bytes sha256:${sha(PAGE)}`);

    id = final.conversation;
    const turns = turnsOf(readEvents(ws, id));
    const request = turns[0]!.find((e) => e.type === 'chat_request')!;
    expect(request.resources).toEqual([
      {
        uri,
        name: uri,
        title: 'Résumé',
        mimeType: 'text/html',
        text: PAGE,
        formatted: `# Café guide\n\nRead [on](${origin}/a/next.html).`,
      },
    ]);
    const delta = turns[0]!.find((e) => e.type === 'config_delta')!;
    expect(delta.delta.conversation.attachments).toEqual([uri]);
  });

  it('an upper-case scheme is the same resource and the same declaration', async () => {
    const result = await jp(['query', '--attach', `${origin.replace('http:', 'HTTP:')}/a/b.html#intro`, 'again']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`  resource ${origin}/a/b.html text/html`);
    const turns = turnsOf(readEvents(ws, id));
    expect(turns[1]!.find((e) => e.type === 'chat_request')!.resources.map((r: { uri: string }) => r.uri)).toEqual([`${origin}/a/b.html`]);
    // Already declared under its canonical form: no new declaration.
    expect(turns[1]!.some((e) => e.type === 'config_delta')).toBe(false);
  });

  const cases: Array<{ name: string; args: () => string[]; message: () => RegExp }> = [
    {
      name: 'a URL with credentials in it',
      args: () => ['query', '--new', '-m', 'echo', '--attach', origin.replace('//', '//me:hunter2@') + '/a/b.html', 'x'],
      message: () => /user name or password in it, which would be stored in the conversation; remove them/,
    },
    {
      name: 'a refused connection',
      args: () => ['query', '--new', '-m', 'echo', '--attach', `${closedOrigin}/`, 'x'],
      message: () => new RegExp(`GET ${closedOrigin}/ failed: connection refused \\(ECONNREFUSED\\)`),
    },
    {
      name: 'port 1 (blocked by fetch)',
      args: () => ['query', '--new', '-m', 'echo', '--attach', 'http://127.0.0.1:1/', 'x'],
      message: () => /GET http:\/\/127\.0\.0\.1:1\/ refused: port 1 is on fetch's list of ports kept for other protocols/,
    },
    {
      name: 'a server that never answers',
      args: () => ['-c', 'conversation.attachment.http.timeout_secs=0.5', 'query', '--new', '-m', 'echo', '--attach', `${origin}/hang`, 'x'],
      message: () => /GET http:\/\/127\.0\.0\.1:\d+\/hang timed out after 0\.5 s; raise conversation\.attachment\.http\.timeout_secs/,
    },
    {
      name: 'a redirect loop',
      args: () => ['query', '--new', '-m', 'echo', '--attach', `${origin}/loop`, 'x'],
      message: () => /\/loop redirects in a loop \(.*\/loop → .*\/loop-back → .*\/loop\)/,
    },
    {
      name: 'a missing page',
      args: () => ['query', '--new', '-m', 'echo', '--attach', `${origin}/nothing`, 'x'],
      message: () => /GET http:\/\/127\.0\.0\.1:\d+\/nothing returned 404 Not Found; check the URL/,
    },
  ];

  for (const testCase of cases) {
    it(`${testCase.name}: one clear line, exit 4, .jp/ unchanged`, async () => {
      const before = snapshotTree(jpDir);
      const result = await jp(testCase.args());
      expectOneLineError(result, 4, testCase.message());
      expect(result.stderr).not.toContain('hunter2');
      expect(snapshotTree(jpDir)).toEqual(before);
    });
  }
});
