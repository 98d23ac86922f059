import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, readEvents, runJp, turnsOf } from './helpers/run-jp.ts';

// Issue H, through the built binary: `refresh_resource` reads again only what the user attached,
// files in the workspace, and MCP resources through the server whose tool returned them; nothing a
// tool (or the model) names makes jp run a command or fetch a URL. An MCP result naming a file
// outside the workspace stores no path. The offline echo model calls tools from `!tool` lines.

const here = path.dirname(fileURLToPath(import.meta.url));
const TOOL = path.resolve(here, '../src/tools/__fixtures__/fixture-tool.mjs');
const FIXTURE_SERVER = path.resolve(here, '../../../packages/attachments/src/mcp/__fixtures__/fixture-server.mjs');
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const toml = (value: unknown) => JSON.stringify(value);

type Event = Record<string, any>;

/** Every file under a directory, as bytes (Latin-1, so any byte sequence can be searched). */
function everyByte(dir: string, skip: (file: string) => boolean = () => false): string {
  let all = '';
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) all += everyByte(full, skip);
    else if (!skip(full)) all += `${readFileSync(full).toString('latin1')}\n`;
  }
  return all;
}

function workspace(prefix: string) {
  const { root, env } = makeSandbox(prefix);
  const ws = path.join(root, 'project');
  const jp = (args: string[]) => runJp(args, { cwd: ws, env, timeoutMs: 60_000 });
  /** A new conversation that holds notes.txt, so refresh_resource is offered from its first turn. */
  const start = async (query: string, extra: string[] = ['--attach', 'notes.txt']) => {
    const result = await jp(['query', '--new', '-m', 'echo', ...extra, query]);
    expect(result.code, result.stderr).toBe(0);
    return { result, id: /new conversation (\S+)/.exec(result.stderr)![1]! };
  };
  const next = async (id: string, query: string) => {
    const result = await jp(['query', '--id', id, query]);
    expect(result.code, result.stderr).toBe(0);
    return result;
  };
  /** The tool results of the conversation's last turn, content inline. */
  const results = (id: string): Event[] => turnsOf(readEvents(ws, id)).at(-1)!.filter((event) => event.type === 'tool_call_response');
  return { root, env, ws, jp, start, next, results };
}

const refresh = (uri: string) => `!tool refresh_resource ${JSON.stringify({ uri })}`;
const mint = (...uris: string[]) => `!tool mint ${JSON.stringify({ uris })}`;
const refusal = (pattern: RegExp) => ({ isError: true, content: [{ type: 'text', text: expect.stringMatching(pattern) }] });

describe('refresh_resource: what may be read again', { timeout: 60_000 }, () => {
  const { root, ws, jp, start, next, results } = workspace('jp-e2e-refresh-');
  const marks = path.join(root, 'marks');
  const outside = path.join(root, 'outside');
  const mark = (name: string) => path.join(marks, name);
  const hits = new Map<string, number>();
  let server: http.Server;
  let origin = '';
  const expectRefused = (response: Event | undefined, pattern: RegExp) => expect(response).toMatchObject(refusal(pattern));
  /**
   * From what a conversation stored, not from the test's own tally: how many refresh_resource
   * calls were answered with an error (a fork counts the ones it copied too).
   */
  const refusedRefreshes = (id: string): number => {
    const events = readEvents(ws, id);
    const calls = new Set(events.filter((event) => event.type === 'tool_call_request' && event.name === 'refresh_resource').map((event) => event.id));
    return events.filter((event) => event.type === 'tool_call_response' && calls.has(event.id) && event.isError === true).length;
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
      if (req.url === '/a') res.writeHead(200, { 'content-type': 'text/plain' }).end(`page a, hit ${hits.get('/a')}\n`);
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('fetched\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    for (const dir of [ws, marks, outside]) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(ws, 'notes.txt'), 'one\n');
    writeFileSync(path.join(ws, 'inside.txt'), 'inside\n');
    writeFileSync(path.join(outside, 'secret.txt'), 'TOP SECRET\n');
    symlinkSync('inside.txt', path.join(ws, 'link.txt'));
    symlinkSync(outside, path.join(ws, 'linkdir'));
    expect((await jp(['init'])).code).toBe(0);
    const mcpServer = (name: string, env: Record<string, string>) =>
      `[mcp.${name}]\ncommand = ${toml(process.execPath)}\nargs = [${toml(FIXTURE_SERVER)}]\n` +
      `env = { ${Object.entries(env).map(([key, value]) => `${key} = ${toml(value)}`).join(', ')} }\ntools = ["embedded_resource"]\nrun = "unattended"\n`;
    writeFileSync(
      path.join(ws, '.jp', 'config.toml'),
      [
        `[tools.mint]\ncommand = ${toml(process.execPath)}\nargs = [${toml(TOOL)}, "mint"]\ndescription = "resources under the given URIs"\nrun = "unattended"\n`,
        mcpServer('fixture', { FIXTURE_ECHO_ENV: 'served by fixture' }),
        mcpServer('other', { FIXTURE_ECHO_ENV: 'served by other' }),
        mcpServer('cmdy', { FIXTURE_EMBED_URIS: `cmd:touch ${mark('mcp-minted')}` }),
      ].join('\n'),
    );
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('the repro: a cmd: URI a local tool returned is refused, now, in the next turn, by attachment ls --check and in a fork', async () => {
    const uri = `cmd:touch ${mark('M1')}`;
    const { id } = await start(`x\n${mint(uri)}\n${refresh(uri)}`);
    const [minted, refreshed] = results(id);
    expect(minted).toMatchObject({ isError: false, content: [{ type: 'resource', resource: { uri } }] });
    expectRefused(refreshed, /the user did not attach it .*choose a command for jp to run/);

    await next(id, refresh(uri));
    expectRefused(results(id)[0], /choose a command for jp to run/);

    const check = await jp(['-F', 'json', 'attachment', 'ls', '--check', '--id', id]);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout).undeclared.find((entry: Event) => entry.uri === uri)).toMatchObject({ status: 'not-refreshable' });

    const fork = await jp(['conversation', 'fork', id]);
    expect(fork.code, fork.stderr).toBe(0);
    await next(fork.stdout.trim(), refresh(uri));
    expectRefused(results(fork.stdout.trim())[0], /choose a command for jp to run/);
    expect(existsSync(mark('M1'))).toBe(false);
    // Stored: two refusals in the conversation, and the fork's own after the two it copied.
    expect(refusedRefreshes(id)).toBe(2);
    expect(refusedRefreshes(fork.stdout.trim())).toBe(3);
  });

  it('a cmd: URI the user attached is refreshable; spellings of it that a tool returned are not', async () => {
    const declared = `cmd:touch ${mark('M2')}`;
    const { id } = await start('x', ['--attach', declared]);
    expect(existsSync(mark('M2'))).toBe(true);
    rmSync(mark('M2'));
    const variants = [
      `cmd:touch  ${mark('M2')}`,
      `cmd: touch ${mark('M2')}`,
      `cmd:touch ${mark('M2')} `,
      `CMD:touch ${mark('M2')}`,
      `cmd://touch?arg=${encodeURIComponent(mark('M2'))}`,
      `cmd:touch%20${mark('M2')}`,
    ];
    const unminted = `cmd:Touch ${mark('M2')}`;
    await next(id, [mint(...variants), ...variants.map(refresh), refresh(unminted)].join('\n'));
    const [, ...refused] = results(id);
    refused.slice(0, variants.length).forEach((response) => expectRefused(response, /choose a command for jp to run/));
    expectRefused(refused.at(-1), /not a resource in this conversation/);
    expect(existsSync(mark('M2'))).toBe(false);

    await next(id, refresh(declared));
    expect(results(id)[0]).toMatchObject({ isError: false });
    expect(existsSync(mark('M2'))).toBe(true);
    // Stored: the six spellings and the unminted URI were refused; the declared one was not.
    expect(refusedRefreshes(id)).toBe(7);
  });

  it('http(s), stdin: and external: URIs a tool returned are refused and nothing is fetched; the attached URL is', async () => {
    const { id } = await start('x', ['--attach', `${origin}/a`]);
    expect(hits.get('/a')).toBe(1);
    const minted = [
      `${origin}/minted`,
      `${origin}/a/`,
      `${origin}/A`,
      `${origin}/%61`,
      `https://127.0.0.1:1/x`,
      `stdin:${sha('piped')}`,
      `external:${sha('/elsewhere')}/x.txt`,
    ];
    const sameFetch = `HTTP://127.0.0.1:${new URL(origin).port}/a`;
    await next(id, [mint(...minted, sameFetch), ...minted.map(refresh), refresh(sameFetch)].join('\n'));
    const [, ...responses] = results(id);
    const patterns = [/choose a URL for jp to fetch/, /choose a URL/, /choose a URL/, /choose a URL/, /choose a URL/, /piped input/, /outside the workspace; it cannot be refreshed/];
    patterns.forEach((pattern, i) => expectRefused(responses[i], pattern));
    expect([...hits.keys()].sort()).toEqual(['/a']);
    // Allowed by the rule: the attached URL in another case of scheme (the same fetch).
    expect(responses.at(-1)).toMatchObject({ isError: false, content: [{ type: 'resource', resource: { text: 'page a, hit 2\n' } }] });
    expect(hits.get('/a')).toBe(2);
    // Stored: the seven minted URIs were refused; the attached URL was not.
    expect(refusedRefreshes(id)).toBe(7);
  });

  it('a file: URI a tool returned inside the workspace is refreshable', async () => {
    writeFileSync(path.join(ws, 'notes2.txt'), 'before\n');
    const uri = pathToFileURL(path.join(ws, 'notes2.txt')).href;
    const { id } = await start(`x\n${mint('file:notes2.txt')}`);
    expect(results(id)[0]).toMatchObject({ content: [{ type: 'resource', resource: { uri } }] });
    writeFileSync(path.join(ws, 'notes2.txt'), 'after\n');
    await next(id, refresh(uri));
    expect(results(id)[0]).toMatchObject({ isError: false, content: [{ type: 'resource', resource: { uri, text: 'after\n' } }] });
  });

  it('file: URIs that lead out of the workspace are never read: dot-dot, encoded, capitals, symlinks, near-misses', async () => {
    const secret = path.join(outside, 'secret.txt');
    const escapes = [`file://${ws}/../outside/secret.txt`, `file://${ws}/%2e%2e/outside/secret.txt`, `FILE://${secret}`, 'file:../outside/secret.txt'];
    const notes = pathToFileURL(path.join(ws, 'notes.txt')).href;
    const link = pathToFileURL(path.join(ws, 'link.txt')).href;
    const throughDir = pathToFileURL(path.join(ws, 'linkdir', 'secret.txt')).href;
    const probesOut = [
      ...escapes,
      `file://${secret}`,
      throughDir,
      `FILE://${ws}/notes.txt`,
      `${notes}/`,
      notes.replace('notes', '%6Eotes'),
    ];
    const { id, result } = await start([mint(...escapes, 'file:linkdir/secret.txt', 'file:link.txt'), ...probesOut.map(refresh), refresh(link)].join('\n'));
    const [minted, ...responses] = results(id);
    // The escapes were left out of the tool's result, with a warning each; the two paths inside the workspace were kept.
    expect(result.stderr.match(/tool mint: content block \d \(resource\) was skipped: .* is outside the workspace/g)).toHaveLength(escapes.length);
    expect(minted!.content.map((block: Event) => block.resource.uri)).toEqual([throughDir, link]);
    const patterns = [
      /not a resource in this conversation/,
      /not a resource in this conversation/,
      /not a resource in this conversation/,
      /not a resource in this conversation/,
      /not a resource in this conversation/,
      /refreshing .* failed: .*outside the workspace/,
      /not a resource in this conversation/,
      /not a resource in this conversation/,
      /not a resource in this conversation/,
    ];
    patterns.forEach((pattern, i) => expectRefused(responses[i], pattern));
    // Before the swap, the symlink leads inside the workspace: it is refreshable.
    expect(responses.at(-1)).toMatchObject({ isError: false, content: [{ type: 'resource', resource: { text: 'inside\n' } }] });

    // Swapped to point outside between turns: refused.
    rmSync(path.join(ws, 'link.txt'));
    symlinkSync(secret, path.join(ws, 'link.txt'));
    await next(id, refresh(link));
    expectRefused(results(id)[0], /refreshing .* failed: .*outside the workspace/);
    expect(everyByte(path.join(ws, '.jp'))).not.toContain('TOP SECRET');
    // Stored: the nine ways out, and the swapped link, were refused; the link before the swap was not.
    expect(refusedRefreshes(id)).toBe(10);
  });

  it('MCP resources a server tool returned are refreshed through that server, not another; not through a local tool', async () => {
    const fromFixture = await start(`x\n!tool mcp__fixture__embedded_resource {}\n${refresh('fixture://env')}`);
    expect(results(fromFixture.id)[0]).toMatchObject({ content: [{ type: 'resource', resource: { uri: 'fixture://env', text: 'embedded\n' } }] });
    expect(results(fromFixture.id)[1]).toMatchObject({ isError: false, content: [{ type: 'resource', resource: { uri: 'fixture://env', text: 'served by fixture' } }] });

    const fromOther = await start(`x\n!tool mcp__other__embedded_resource {}\n${refresh('fixture://env')}`);
    expect(results(fromOther.id)[1]).toMatchObject({ isError: false, content: [{ type: 'resource', resource: { text: 'served by other' } }] });

    // Across turns, in a fork and in `attachment ls --check`, the server is still known from the stream.
    const fork = await jp(['conversation', 'fork', fromOther.id]);
    await next(fork.stdout.trim(), refresh('fixture://env'));
    // The same content as `other` served before: it was read from `other` again.
    expect(results(fork.stdout.trim())[0]).toMatchObject({ isError: false, content: [{ type: 'text', text: expect.stringContaining(`unchanged since the snapshot returned by a tool in turn 0 (sha256 ${sha('served by other')})`) }] });
    const check = await jp(['-F', 'json', 'attachment', 'ls', '--check', '--id', fromFixture.id]);
    // Its newest snapshot is what `fixture` served: fresh when read through `fixture` (`other` would make it changed).
    expect(JSON.parse(check.stdout).undeclared.find((entry: Event) => entry.uri === 'fixture://env')).toMatchObject({ status: 'fresh' });

    const fromLocal = await start(`x\n${mint('fixture://env')}\n${refresh('fixture://env')}`);
    expectRefused(results(fromLocal.id)[1], /no MCP server's tool returned it/);

    // A cmd: URI an MCP tool returned is asked of that server (which has no such resource), never run.
    const minted = `cmd:touch ${mark('mcp-minted')}`;
    const fromCmdy = await start(`x\n!tool mcp__cmdy__embedded_resource {}\n${refresh(minted)}`);
    expectRefused(results(fromCmdy.id)[1], /refreshing .* failed: .*server cmdy has no resource/);
    const checkCmdy = await jp(['-F', 'json', 'attachment', 'ls', '--check', '--id', fromCmdy.id]);
    expect(checkCmdy.code, checkCmdy.stderr).toBe(0);
    expect(existsSync(mark('mcp-minted'))).toBe(false);
    // Stored: one refusal each where no server's tool (or another server) returned the URI, none elsewhere.
    expect([fromFixture.id, fromOther.id, fork.stdout.trim(), fromLocal.id, fromCmdy.id].map(refusedRefreshes)).toEqual([0, 0, 0, 1, 1]);
  });

});

describe('MCP tool results store no path outside the workspace', { timeout: 60_000 }, () => {
  const { root, ws, jp, start, results } = workspace('jp-e2e-mcp-paths-');

  beforeAll(async () => {
    mkdirSync(path.join(root, 'outside'), { recursive: true });
    mkdirSync(ws, { recursive: true });
    writeFileSync(path.join(ws, 'notes.txt'), 'one\n');
    writeFileSync(path.join(root, 'outside', 'secret.txt'), 'TOP SECRET\n');
    expect((await jp(['init'])).code).toBe(0);
    // `{cwd}` is the server's directory (the workspace) and `{parent}` the one above: the
    // configuration, which is stored, names no path.
    const uris = [
      'file://{parent}/outside/secret.txt',
      'FILE://{parent}/outside/secret.txt',
      'file://{cwd}/../outside/secret.txt',
      'file://{cwd}/%2e%2e/outside/secret.txt',
      'file://localhost{parent}/outside/secret.txt',
      'file:../outside/secret.txt',
      ' file://{parent}/outside/secret.txt',
      'file://{cwd}/notes.txt',
    ];
    writeFileSync(
      path.join(ws, '.jp', 'config.toml'),
      `[mcp.leaky]\ncommand = ${toml(process.execPath)}\nargs = [${toml(FIXTURE_SERVER)}]\n` +
        `env = { FIXTURE_EMBED_URIS = ${toml(uris.join('\n'))} }\ntools = ["embedded_resource"]\nrun = "unattended"\n`,
    );
  });

  it('each outside file: URI is left out with a warning; the workspace file is kept; no byte under .jp/ holds the path', async () => {
    const { id, result } = await start('x\n!tool mcp__leaky__embedded_resource {}');
    expect(result.stderr.match(/MCP tool embedded_resource on leaky: content block \d \(resource\) was skipped/g)).toHaveLength(7);
    expect(results(id)[0]).toMatchObject({ isError: false, content: [{ type: 'resource', resource: { uri: pathToFileURL(path.join(ws, 'notes.txt')).href, text: 'embedded\n' } }] });
    expect(results(id)[0]!.content).toHaveLength(1);

    const all = everyByte(path.join(ws, '.jp'));
    for (const leak of [`${root}/outside`, `${ws}/../`, `${ws}/%2e%2e`, `localhost${root}`]) expect(all).not.toContain(leak);
    // Apart from the configuration (which holds the placeholders), not even the name appears.
    const stored = everyByte(path.join(ws, '.jp'), (file) => /(config\.toml|base-config\.json)$/.test(file));
    expect(stored).not.toContain('outside');
  });
});
