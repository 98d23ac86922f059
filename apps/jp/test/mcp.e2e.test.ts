import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PNG_BASE64, FIXTURE_README } from '../../../packages/attachments/src/mcp/__fixtures__/fixture-server.mjs';
import { expectOneLineError, makeSandbox, readEvents, runJp, snapshotTree, turnsOf } from './helpers/run-jp.ts';

// MCP resources through the built binary: jp's fixture server and server-everything over stdio,
// configured in .jp/config.toml as a user would.
const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/attachments/src/mcp/__fixtures__/fixture-server.mjs');
const EVERYTHING_DIR = path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json'));
const EVERYTHING = path.join(EVERYTHING_DIR, 'dist', 'index.js');
const FEATURES = readFileSync(path.join(EVERYTHING_DIR, 'dist', 'docs', 'features.md'));

const sha = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');
const PNG = Buffer.from(FIXTURE_PNG_BASE64, 'base64');

const { root, env } = makeSandbox('jp-mcp-e2e-');
const ws = path.join(root, 'project');
const jpDir = path.join(ws, '.jp');
const pidFile = path.join(root, 'fixture.pid');
const jp = (args: string[]) => runJp(args, { cwd: ws, env, timeoutMs: 30_000 });

/** Every server gets this variable, so a server left running is found by its environment. */
const MARKER = `JP_MCP_E2E=${root}`;
function serversStillRunning(): number[] {
  if (!existsSync('/proc/self/environ')) return [];
  const running: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(MARKER)) running.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return running;
}

const toml = (value: unknown) => JSON.stringify(value);
const server = (args: string[], extra: Record<string, string> = {}, settings = '') =>
  `command = ${toml(process.execPath)}\nargs = ${toml(args)}\nenv = { JP_MCP_E2E = ${toml(root)}${Object.entries(extra)
    .map(([key, value]) => `, ${key} = ${toml(value)}`)
    .join('')} }\n${settings}`;

beforeAll(async () => {
  mkdirSync(ws, { recursive: true });
  expect((await jp(['init'])).code).toBe(0);
  const config = [
    `[mcp.fixture]\n${server([FIXTURE], { FIXTURE_PID_FILE: pidFile })}`,
    `[mcp.everything]\n${server([EVERYTHING, 'stdio'])}startup_timeout_secs = 20\n`,
    `[mcp.broken]\n${server([FIXTURE, '--exit-on-init'])}`,
    `[mcp.slow]\n${server([FIXTURE], { FIXTURE_SLOW_MS: '20000' }, 'request_timeout_secs = 0.5\n')}`,
  ];
  writeFileSync(path.join(jpDir, 'config.toml'), `${readFileSync(path.join(jpDir, 'config.toml'), 'utf8')}\n${config.join('\n')}`);
}, 30_000);

describe('MCP resources through the binary', () => {
  let conversation = '';

  it('attaches a direct resource, a {+path} template match and a server-everything document, URIs as the servers give them', async () => {
    const result = await jp([
      'query', '--new', '-m', 'echo',
      '--attach', 'mcp+fixture+fixture://docs/readme',
      '--attach', 'mcp+fixture+fixture://files/a/b/c.txt',
      '--attach', 'mcp+everything+demo://resource/static/document/features.md',
      'x',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const pathText = 'path: a/b/c.txt\n';
    expect(result.stdout).toContain(`  resource fixture://docs/readme text/markdown ${Buffer.byteLength(FIXTURE_README)} bytes sha256:${sha(FIXTURE_README)}\n`);
    expect(result.stdout).toContain(`  resource fixture://files/a/b/c.txt text/plain ${pathText.length} bytes sha256:${sha(pathText)}\n`);
    expect(result.stdout).toContain(`  resource demo://resource/static/document/features.md text/markdown ${FEATURES.length} bytes sha256:${sha(FEATURES)}\n`);

    conversation = /new conversation (\S+)/.exec(result.stderr)?.[1] ?? '';
    const request = turnsOf(readEvents(ws, conversation))[0]!.find((event) => event.type === 'chat_request')!;
    expect(request.resources.map((resource: Record<string, unknown>) => [resource.uri, resource.name, resource.title])).toEqual([
      ['fixture://docs/readme', 'readme', 'Fixture README'],
      ['fixture://files/a/b/c.txt', 'file', 'A file by path'],
      ['demo://resource/static/document/features.md', 'features.md', undefined],
    ]);
    // The servers were stopped when jp exited.
    expect(existsSync(pidFile)).toBe(true);
    expect(serversStillRunning()).toEqual([]);
  }, 30_000);

  it('attaches a blob resource as bytes', async () => {
    const result = await jp(['query', '--attach', 'mcp+fixture+fixture://images/pixel.png', 'and this?']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`  resource fixture://images/pixel.png image/png ${PNG.length} bytes sha256:${sha(PNG)}\n`);
    const request = turnsOf(readEvents(ws, conversation))[1]!.find((event) => event.type === 'chat_request')!;
    expect(request.resources).toEqual([{ uri: 'fixture://images/pixel.png', mimeType: 'image/png', blob: FIXTURE_PNG_BASE64, name: 'pixel', title: 'One pixel' }]);
  }, 30_000);

  it('attachment add starts no server; the next query resolves the declaration once, the one after does not', async () => {
    rmSync(pidFile, { force: true });
    const add = await jp(['attachment', 'add', 'mcp+fixture+fixture://notes/5']);
    expect(add.code, add.stderr).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
    const next = await jp(['query', 'notes?']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toContain(`  resource fixture://notes/5 text/plain 7 bytes sha256:${sha('note 5\n')}\n`);
    const after = await jp(['query', 'again?']);
    expect(after.code, after.stderr).toBe(0);
    const turns = turnsOf(readEvents(ws, conversation));
    expect(turns).toHaveLength(4);
    expect(turns[2]!.find((event) => event.type === 'chat_request')!.resources.map((resource: { uri: string }) => resource.uri)).toEqual(['fixture://notes/5']);
    expect(turns[3]!.find((event) => event.type === 'chat_request')).not.toHaveProperty('resources');
    expect(serversStillRunning()).toEqual([]);
  }, 30_000);

  it('jp mcp ls: every server, whether it starts and what it offers; a broken one is reported, exit 0', async () => {
    const text = await jp(['mcp', 'ls']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      'fixture: ok, jp-fixture 1.0.0; resources (listChanged), tools (listChanged)\n  tool task_only not offered: it requires task-based execution (execution.taskSupport = "required"), which jp does not support yet\n',
    );
    expect(text.stdout).toMatch(/^everything: ok, mcp-servers\/everything \S+; .*resources \(subscribe, listChanged\)/m);
    expect(text.stdout).toContain('broken: failed: MCP server broken exited during startup with exit code 3 (stderr: "fixture: refusing to initialize (--exit-on-init)")\n');
    expect(text.stdout).toContain(`  command: ${process.execPath} ${FIXTURE} --exit-on-init\n`);

    const json = await jp(['-F', 'json', 'mcp', 'ls']);
    expect(json.code, json.stderr).toBe(0);
    const { servers } = JSON.parse(json.stdout);
    expect(servers.map((entry: { name: string; ok: boolean }) => [entry.name, entry.ok])).toEqual([
      ['fixture', true],
      ['everything', true],
      ['broken', false],
      ['slow', true],
    ]);
    expect(servers[0]).toEqual({
      name: 'fixture',
      command: process.execPath,
      args: [FIXTURE],
      ok: true,
      serverInfo: { name: 'jp-fixture', version: '1.0.0', title: 'jp MCP fixture' },
      capabilities: { resources: { listChanged: true }, tools: { listChanged: true } },
      unavailableTools: [{ name: 'task_only', reason: 'it requires task-based execution (execution.taskSupport = "required"), which jp does not support yet' }],
    });
    expect(servers[2].error).toMatch(/exit code 3/);
    expect(serversStillRunning()).toEqual([]);
  }, 30_000);

  it('jp mcp resources SERVER: direct resources and templates, as text and JSON', async () => {
    const text = await jp(['mcp', 'resources', 'fixture']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^resources \(8\):\n {2}fixture:\/\/docs\/readme +text\/markdown +readme \(Fixture README\)\n/);
    expect(text.stdout).toMatch(/^templates \(2\):\n {2}fixture:\/\/notes\/\{id\} +text\/plain +note \(A note by id\)\n {2}fixture:\/\/files\/\{\+path\} +text\/plain +file \(A file by path\)\n$/m);

    const json = await jp(['-F', 'json', 'mcp', 'resources', 'fixture']);
    expect(json.code, json.stderr).toBe(0);
    const listing = JSON.parse(json.stdout);
    expect(listing.server).toBe('fixture');
    expect(listing.resources[1]).toEqual({ uri: 'fixture://images/pixel.png', name: 'pixel', title: 'One pixel', mimeType: 'image/png' });
    expect(listing.templates).toEqual([
      { uriTemplate: 'fixture://notes/{id}', name: 'note', title: 'A note by id', description: 'Any id gives a note', mimeType: 'text/plain' },
      { uriTemplate: 'fixture://files/{+path}', name: 'file', title: 'A file by path', description: 'Echoes the path, slashes included', mimeType: 'text/plain' },
    ]);
    expect(serversStillRunning()).toEqual([]);
  }, 30_000);

  it('jp mcp resources of an unknown server: exit 2 naming the configured ones', async () => {
    expectOneLineError(await jp(['mcp', 'resources', 'nosuch']), 2, /no MCP server "nosuch" is configured \(configured: fixture, everything, broken, slow\)/);
  });
});

describe('bad MCP attachments: one clear line, exit 4, .jp/ unchanged', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['an unknown server', 'mcp+nosuch+x://y', /^jp: mcp\+nosuch\+x:\/\/y: no MCP server "nosuch" is configured \(configured: fixture, everything, broken, slow\)/],
    ['a server that exits during initialize', 'mcp+broken+fixture://docs/readme', /MCP server broken exited during startup with exit code 3 \(stderr: "fixture: refusing to initialize/],
    ['a resource the server does not have (-32602)', 'mcp+fixture+fixture://nope', /server fixture has no resource fixture:\/\/nope .*`jp mcp resources fixture`/],
    ['a read handler that throws', 'mcp+fixture+fixture://broken', /server fixture failed to read fixture:\/\/broken: the broken resource always fails$/],
    ['a read slower than request_timeout_secs', 'mcp+slow+fixture://slow', /MCP server slow did not answer resources\/read within 0\.5 s; raise mcp\.slow\.request_timeout_secs/],
  ];
  for (const [name, attachment, message] of cases) {
    it(`${name}: ${attachment}`, async () => {
      const before = snapshotTree(jpDir);
      const result = await jp(['query', '--new', '-m', 'echo', '--attach', attachment, 'x']);
      expectOneLineError(result, 4, message);
      expect(result.stderr).toContain(attachment);
      expect(snapshotTree(jpDir)).toEqual(before);
      expect(serversStillRunning()).toEqual([]);
    }, 30_000);
  }
});

describe('a workspace without MCP servers', () => {
  const bare = path.join(root, 'bare');

  beforeAll(async () => {
    mkdirSync(bare, { recursive: true });
    expect((await runJp(['init'], { cwd: bare, env })).code).toBe(0);
  });

  it('jp mcp ls says how to add one and exits 0; JSON is an empty list', async () => {
    const text = await runJp(['mcp', 'ls'], { cwd: bare, env });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/^no MCP servers configured; add one to \.jp\/config\.toml as \[mcp\.NAME\]/);
    const json = await runJp(['-F', 'json', 'mcp', 'ls'], { cwd: bare, env });
    expect(JSON.parse(json.stdout)).toEqual({ servers: [] });
  });

  it('an MCP attachment says none are configured and how to add one', async () => {
    const before = snapshotTree(path.join(bare, '.jp'));
    const result = await runJp(['query', '--new', '-m', 'echo', '--attach', 'mcp+docs+demo://x', 'x'], { cwd: bare, env });
    expectOneLineError(result, 4, /^jp: mcp\+docs\+demo:\/\/x: no MCP servers are configured; add \[mcp\.docs\] with a command \(and args\) to \.jp\/config\.toml$/);
    expect(snapshotTree(path.join(bare, '.jp'))).toEqual(before);
  });
});
