import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSandbox, readEvents, runJp, turnsOf } from './helpers/run-jp.ts';

// One test per kind of MCP server jp has been tried against (RFD 018): the published servers,
// installed as pinned devDependencies, and servers we wrote on each SDK. Each is listed, has a
// resource attached where it serves resources, and a tool called through the echo model.

const here = path.dirname(fileURLToPath(import.meta.url));
// Where pnpm links jp's devDependencies (some packages do not export their package.json).
const packageDir = (name: string) => path.join(here, '..', 'node_modules', name);
const fixture = (name: string) => path.join(here, 'fixtures', 'mcp-servers', name);

type Event = Record<string, any>;

/**
 * mcp-obsidian 1.0.0 lower-cases its vault path and then opens files under it, so a vault whose
 * path has capitals (a sandbox from mkdtemp) finds no note on a case-sensitive file system.
 */
const VAULT = path.join(tmpdir(), `jp-wild-vault-${process.pid}-${Date.now()}`);
afterAll(() => rmSync(VAULT, { recursive: true, force: true }));

interface ServerCase {
  /** The config name (`mcp.<name>`). */
  name: string;
  args: (dirs: { root: string; ws: string }) => string[];
  env?: (dirs: { root: string; ws: string }) => Record<string, string>;
  /** Before jp starts: files the server needs. */
  prepare?: (dirs: { root: string; ws: string }) => void;
  /** A resource to attach and what its text holds; a server without resources says so instead. */
  resource?: { uri: string; text: RegExp };
  tool: { name: string; args: (dirs: { root: string; ws: string }) => Record<string, unknown>; text: RegExp };
  /** What `jp mcp ls` says of it. */
  info: RegExp;
}

const CASES: ServerCase[] = [
  {
    name: 'everything',
    args: () => [path.join(packageDir('@modelcontextprotocol/server-everything'), 'dist', 'index.js'), 'stdio'],
    resource: { uri: 'demo://resource/dynamic/text/1', text: /Resource 1/ },
    tool: { name: 'get-sum', args: () => ({ a: 2, b: 3 }), text: /5/ },
    info: /ok, mcp-servers\/everything 2\.0\.0; .*tasks/,
  },
  {
    name: 'everything2025',
    args: () => [path.join(packageDir('server-everything-2025'), 'dist', 'index.js'), 'stdio'],
    resource: { uri: 'test://static/resource/1', text: /Resource 1/ },
    tool: { name: 'add', args: () => ({ a: 2, b: 3 }), text: /5/ },
    info: /ok, example-servers\/everything 1\.0\.0/,
  },
  {
    name: 'filesystem',
    args: ({ root }) => [path.join(packageDir('@modelcontextprotocol/server-filesystem'), 'dist', 'index.js'), path.join(root, 'files')],
    prepare: ({ root }) => {
      mkdirSync(path.join(root, 'files'), { recursive: true });
      writeFileSync(path.join(root, 'files', 'a.txt'), 'hello from a file\n');
    },
    tool: { name: 'read_text_file', args: ({ root }) => ({ path: path.join(root, 'files', 'a.txt') }), text: /hello from a file/ },
    info: /ok, secure-filesystem-server \S+; tools/,
  },
  {
    name: 'memory',
    args: () => [path.join(packageDir('@modelcontextprotocol/server-memory'), 'dist', 'index.js')],
    env: ({ root }) => ({ MEMORY_FILE_PATH: path.join(root, 'memory.jsonl') }),
    resource: { uri: 'memory://knowledge-graph', text: /"entities": \[\]/ },
    tool: { name: 'read_graph', args: () => ({}), text: /"relations"/ },
    info: /ok, memory-server \S+; resources/,
  },
  {
    name: 'hello',
    args: () => [path.join(packageDir('mcp-hello-world'), 'build', 'stdio.js')],
    resource: { uri: 'greeting://jp', text: /jp/ },
    tool: { name: 'echo', args: () => ({ message: 'hi there' }), text: /You said: hi there/ },
    info: /ok, .* resources/,
  },
  {
    name: 'git',
    args: () => [path.join(packageDir('@cyanheads/git-mcp-server'), 'dist', 'index.js')],
    prepare: ({ root }) => {
      const repo = path.join(root, 'repo');
      mkdirSync(repo, { recursive: true });
      const git = (args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
      git(['init', '-q']);
      writeFileSync(path.join(repo, 'f.txt'), 'x\n');
      git(['add', 'f.txt']);
      git(['-c', 'user.email=jp@example.invalid', '-c', 'user.name=jp', 'commit', '-qm', 'init']);
    },
    resource: { uri: 'git://working-directory', text: /workingDirectory/ },
    tool: { name: 'git_status', args: ({ root }) => ({ path: path.join(root, 'repo') }), text: /"isClean": true/ },
    info: /ok, @cyanheads\/git-mcp-server 2\.15\.3; /,
  },
  {
    name: 'obsidian',
    args: () => [path.join(packageDir('mcp-obsidian'), 'dist', 'index.js'), VAULT],
    prepare: () => {
      mkdirSync(VAULT, { recursive: true });
      writeFileSync(path.join(VAULT, 'note.md'), '# A vault note\n');
    },
    tool: { name: 'read_notes', args: () => ({ paths: ['note.md'] }), text: /# A vault note/ },
    info: /ok, mcp-obsidian \S+; tools/,
  },
  {
    name: 'lowlevel',
    args: () => [fixture('sdk1-low-level-server.mjs')],
    resource: { uri: 'low://doc', text: /low-level document/ },
    tool: { name: 'add', args: () => ({ a: 2, b: 3 }), text: /sum 5/ },
    info: /ok, jp-sdk1-low-level 1\.0\.0/,
  },
  {
    name: 'modern',
    args: () => [fixture('sdk2-modern-server.mjs')],
    resource: { uri: 'modern://note', text: /a modern note/ },
    tool: { name: 'add', args: () => ({ a: 2, b: 3 }), text: /sum 5/ },
    info: /ok, jp-sdk2-modern 1\.0\.0/,
  },
  {
    name: 'tmcp',
    args: () => [fixture('tmcp-server.mjs')],
    resource: { uri: 'tmcp://echo/word', text: /echo word/ },
    tool: { name: 'add', args: () => ({ a: 2, b: 3 }), text: /sum 5/ },
    info: /ok, jp-tmcp-fixture 1\.0\.0/,
  },
  {
    name: 'fastmcp',
    args: () => [fixture('fastmcp-server.mjs')],
    resource: { uri: 'fast://note', text: /a fastmcp note/ },
    tool: { name: 'add', args: () => ({ a: 2, b: 3 }), text: /sum 5/ },
    info: /ok, jp-fastmcp-fixture 1\.0\.0/,
  },
];

/** A workspace whose config has this one server, tools on. */
async function workspaceFor(server: ServerCase) {
  const { root, env } = makeSandbox(`jp-wild-${server.name}-`);
  const ws = path.join(root, 'project');
  mkdirSync(ws, { recursive: true });
  const dirs = { root, ws };
  server.prepare?.(dirs);
  const jp = (args: string[]) => runJp(args, { cwd: ws, env, timeoutMs: 60_000 });
  expect((await jp(['init'])).code).toBe(0);
  const serverEnv = Object.entries(server.env?.(dirs) ?? {}).map(([key, value]) => `${key} = ${JSON.stringify(value)}`);
  writeFileSync(
    path.join(ws, '.jp', 'config.toml'),
    `[mcp.${server.name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify(server.args(dirs))}\nenv = { ${serverEnv.join(', ')} }\ntools = [${JSON.stringify(server.tool.name)}]\nrun = "unattended"\nstartup_timeout_secs = 30\n`,
  );
  return { jp, ws, dirs };
}

describe('MCP servers in the wild', () => {
  it.each(CASES.map((server) => [server.name, server] as const))('%s: listed, a resource attached, a tool called', async (_, server) => {
    const { jp, ws, dirs } = await workspaceFor(server);
    const ls = await jp(['mcp', 'ls']);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toMatch(new RegExp(`^${server.name}: ${server.info.source}`, 'm'));

    const call = `!tool mcp__${server.name}__${server.tool.name} ${JSON.stringify(server.tool.args(dirs))}`;
    const attach = server.resource === undefined ? [] : ['--attach', `mcp+${server.name}+${server.resource.uri}`];
    const result = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', ...attach, call]);
    expect(result.code, result.stderr).toBe(0);
    const id = JSON.parse(result.stdout.trim().split('\n').at(-1)!).conversation as string;
    const turn = turnsOf(readEvents(ws, id))[0]!;
    if (server.resource !== undefined) {
      const request = turn.find((event: Event) => event.type === 'chat_request')!;
      const resource = request.resources.find((entry: Event) => entry.uri === server.resource!.uri);
      expect(resource, JSON.stringify(request.resources)).toBeDefined();
      expect(resource.text).toMatch(server.resource.text);
    }
    const response = turn.find((event: Event) => event.type === 'tool_call_response')!;
    expect(response.isError, JSON.stringify(response.content)).toBe(false);
    expect(response.content.map((block: Event) => block.text ?? '').join('\n')).toMatch(server.tool.text);
  }, 90_000);

  it('filesystem serves no resources: attaching from it says so', async () => {
    const server = CASES.find((entry) => entry.name === 'filesystem')!;
    const { jp } = await workspaceFor(server);
    const result = await jp(['query', '--new', '-m', 'echo', '--attach', 'mcp+filesystem+file:///etc/hostname', 'x']);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('jp: mcp+filesystem+file:///etc/hostname: server filesystem does not serve resources (it said: Method not found)\n');
  }, 90_000);

  it('fastmcp: a read of a text and an image under one URI keeps both, the image as part 2', async () => {
    const server = CASES.find((entry) => entry.name === 'fastmcp')!;
    const { jp, ws } = await workspaceFor(server);
    const result = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'mcp+fastmcp+fast://pair', 'x']);
    expect(result.code, result.stderr).toBe(0);
    const id = JSON.parse(result.stdout.trim().split('\n').at(-1)!).conversation as string;
    const request = turnsOf(readEvents(ws, id))[0]!.find((event: Event) => event.type === 'chat_request')!;
    expect(request.resources.map((resource: Event) => [resource.uri, resource.mimeType])).toEqual([
      ['fast://pair', 'text/plain'],
      ['fast://pair#part=2', 'image/png'],
    ]);
    expect(request.resources[0].text).toBe('the caption\n');
  }, 90_000);
});
