import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxedGit } from '../src/store/__fixtures__/sandboxed-git.ts';
import { expectOneLineError, JP_BIN, makeSandbox, readEvents, runJp } from './helpers/run-jp.ts';

// `jp conversation grep`, `-a jp://…` and the MCP tool search_conversations through the built
// binary (RFD 033), on a workspace whose turns the offline echo model made: a query, its answer, a
// tool call and result, a tree attached as a pack, and a title.
const here = path.dirname(fileURLToPath(import.meta.url));
const TOOL = path.resolve(here, '../src/tools/__fixtures__/fixture-tool.mjs');
const { root, home, env } = makeSandbox('jp-grep-e2e-');
const ws = path.join(root, 'project');
const jp = (args: string[], cwd = ws) => runJp(args, { cwd, env, timeoutMs: 30_000 });
const ok = async (args: string[], cwd = ws) => {
  const result = await jp(args, cwd);
  expect(result.code, `jp ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result.stdout;
};

let id = '';
let other = '';
const clients: Client[] = [];

beforeAll(async () => {
  mkdirSync(path.join(ws, 'tree'), { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(path.join(ws, 'tree', `f${String(i).padStart(2, '0')}.txt`), `file ${i}\n${i === 7 ? 'a packed-needle here\n' : 'plain\n'}`);
  await ok(['init']);
  writeFileSync(
    path.join(ws, '.jp', 'config.toml'),
    `[tools.fx_echo]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(TOOL)}, "echo-args"]\ndescription = "fixture tool: echo-args"\nrun = "unattended"\n`,
  );
  const created = await ok(['-F', 'json', 'q', '-n', '-m', 'echo', '--title', 'The title-needle hunt', 'a query-needle to start']);
  id = JSON.parse(created.trim().split('\n').at(-1)!).conversation as string;
  await ok(['q', '-m', 'echo', '-a', 'tree/', 'here is the tree']);
  await ok(['q', '-m', 'echo', 'call it\n!tool fx_echo {"say":"tool-needle"}']);
  const second = await ok(['-F', 'json', 'q', '-n', '-m', 'echo', `${'a'.repeat(40)}! nothing else`]);
  other = JSON.parse(second.trim().split('\n').at(-1)!).conversation as string;
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
});

describe('jp conversation grep', () => {
  it('finds a query, an answer, a tool result, a snapshot in a pack and a title; each coordinate shown by c show --turn holds the text', async () => {
    expect(readdirSync(path.join(ws, '.jp', 'blobs', 'packs')).filter((name) => name.endsWith('.pack'))).toHaveLength(1);
    const out = await ok(['c', 'grep', '--regex', '(query|tool|packed|title)-needle']);
    const lines = out.trimEnd().split('\n');
    const scopes = lines.map((line) => line.split(':')[2]);
    expect(scopes).toEqual(expect.arrayContaining(['title', 'user', 'assistant', 'tool', 'resource']));
    expect(lines).toContain(`${id}:..:title:The title-needle hunt`);
    expect(lines).toContain(`${id}:0:user:a query-needle to start`);
    expect(lines).toContain(`${id}:1:resource:file:tree/f07.txt:2:a packed-needle here`);
    expect(lines.some((line) => line.startsWith(`${id}:2:tool:`) && line.includes('tool-needle'))).toBe(true);
    for (const line of lines) {
      const [conversation, turn, scope, ...rest] = line.split(':');
      const shown = await ok(['c', 'show', conversation!, '--turn', turn!]);
      // A snapshot's text is not printed by show, its name is; a title heads the whole conversation.
      expect(shown, line).toContain(scope === 'resource' ? 'tree/f07.txt' : rest.join(':'));
    }
  });

  it('prints one JSON object per hit with -F json', async () => {
    const out = await ok(['-F', 'json', 'c', 'grep', 'packed-needle']);
    expect(out.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual([
      {
        id,
        turn: 1,
        scope: 'resource',
        uri: expect.stringMatching(new RegExp(`^jp://conversation/${id}/resource/[0-9a-f]{64}$`)),
        resource: { uri: expect.stringMatching(/^file:\/\/\/.*\/tree\/f07\.txt$/), name: 'tree/f07.txt', mimeType: 'text/plain', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
        line: 2,
        column: 3,
        text: 'a packed-needle here',
      },
    ]);
  });

  it('exits 1 with nothing printed when nothing matches, and 2 with the reason for a bad pattern or scope', async () => {
    const none = await jp(['c', 'grep', 'no-such-text-anywhere']);
    expect(none).toMatchObject({ code: 1, stdout: '', stderr: '' });
    expectOneLineError(await jp(['c', 'grep', '--regex', 'a(b']), 2, /invalid regular expression "a\(b": Unterminated group/);
    expectOneLineError(await jp(['c', 'grep', '--scope', 'answers', 'x']), 2, /unknown scope "answers"/);
  });
});

describe('a turn or a snapshot of one conversation attached to another', () => {
  it('-a jp://conversation/ID/turn/N stores that turn as a markdown resource, and the request carries it', async () => {
    const uri = `jp://conversation/${id}/turn/0`;
    const result = await ok(['-F', 'json', 'q', '-n', '-m', 'echo', '-a', uri, 'what was asked?']);
    const made = JSON.parse(result.trim().split('\n').at(-1)!).conversation as string;
    const request = readEvents(ws, made).find((event) => event.type === 'chat_request')!;
    expect(request.resources).toEqual([expect.objectContaining({ uri, mimeType: 'text/markdown', text: expect.stringContaining('a query-needle to start') })]);
    expect(request.resources[0].text).toMatch(/^# Turn 0/);
    // The echo model lists what its request held: the turn, by URI.
    expect(result).toContain(`resource ${uri} text/markdown`);
  });

  it('refresh_resource reads a transcript again: unchanged, it says so; after a new turn there, it gives the new text', async () => {
    const uri = `jp://conversation/${other}`;
    const made = JSON.parse((await ok(['-F', 'json', 'q', '-n', '-m', 'echo', '-a', uri, 'follow it'])).trim().split('\n').at(-1)!).conversation as string;
    const lastResult = () => readEvents(ws, made).filter((event) => event.type === 'tool_call_response').at(-1)!;
    await ok(['q', '--id', made, '-m', 'echo', `again\n!tool refresh_resource {"uri":"${uri}"}`]);
    expect(lastResult()).toMatchObject({ isError: false, content: [{ type: 'text', text: expect.stringContaining(`${uri} is unchanged since the snapshot`) }] });
    await ok(['q', '--id', other, '-m', 'echo', 'a later-turn-needle']);
    await ok(['q', '--id', made, '-m', 'echo', `now\n!tool refresh_resource {"uri":"${uri}"}`]);
    expect(lastResult()).toMatchObject({ isError: false, content: [{ type: 'resource', resource: { uri, mimeType: 'text/markdown', text: expect.stringContaining('a later-turn-needle') } }] });
  });

  it('-a jp://conversation/ID/resource/SHA stores the snapshot with its own MIME type and bytes', async () => {
    const [hit] = (await ok(['-F', 'json', 'c', 'grep', 'packed-needle'])).trimEnd().split('\n').map((line) => JSON.parse(line) as { uri: string });
    const result = await ok(['-F', 'json', 'q', '-n', '-m', 'echo', '-a', hit!.uri, 'and this file?']);
    const made = JSON.parse(result.trim().split('\n').at(-1)!).conversation as string;
    // The same bytes as the packed file: stored once, so read through `show`, which reads packs.
    const shown = JSON.parse(await ok(['-F', 'json', 'c', 'show', made])) as { events: Array<Record<string, any>> };
    const request = shown.events.find((event) => event.type === 'chat_request')!;
    expect(request.resources).toEqual([expect.objectContaining({ uri: hit!.uri, mimeType: 'text/plain', text: 'file 7\na packed-needle here\n' })]);
  });

  it('refuses a conversation that is not here (another workspace, or removed), in one line, exit 4', async () => {
    expectOneLineError(await jp(['q', '-n', '-m', 'echo', '-a', 'jp://conversation/0zzzzzzzz-zzzzz', 'x']), 4, /no conversation 0zzzzzzzz-zzzzz in this workspace/);
    const doomed = JSON.parse((await ok(['-F', 'json', 'q', '-n', '-m', 'echo', 'short-lived'])).trim().split('\n').at(-1)!).conversation as string;
    await ok(['c', 'rm', '--yes', doomed]);
    expectOneLineError(await jp(['q', '-n', '-m', 'echo', '-a', `jp://conversation/${doomed}/turn/0`, 'x']), 4, new RegExp(`cannot attach jp://conversation/${doomed}/turn/0`));
    expectOneLineError(await jp(['q', '-n', '-m', 'echo', '-a', `jp://conversation/${id}/turn/99`, 'x']), 4, /has no turn 99; its turns are 0 to 2/);
  });

  it('completion offers conversation ids after jp://conversation/, in bash and fish too', async () => {
    const out = await ok(['__complete', 'jp-uris', 'jp://conversation/']);
    expect(out).toContain(`jp://conversation/${id}\tThe title-needle hunt`);
    expect(out).toContain(`jp://conversation/${other}\t`);
    const bin = path.join(root, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'jp'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(JP_BIN)} "$@"\n`);
    chmodSync(path.join(bin, 'jp'), 0o755);
    const shellEnv = { ...env, PATH: `${bin}:${process.env.PATH}` };
    // bash splits `jp://…` at the colon: COMP_WORDS as bash makes them, the line as typed.
    const line = `jp q -a jp://conversation/${id.slice(0, 11)}`;
    const bash = [
      'eval "$(jp completion bash)"',
      `COMP_LINE='${line}'; COMP_POINT=\${#COMP_LINE}; COMP_WORDS=(jp q -a jp : //conversation/${id.slice(0, 11)}); COMP_CWORD=5; COMPREPLY=(); _jp`,
      'printf "<%s>\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    const bashed = spawnSync('bash', ['--norc', '--noprofile', '-c', bash], { cwd: ws, env: shellEnv, encoding: 'utf8' });
    expect(bashed.stderr).toBe('');
    expect(bashed.stdout).toBe(`<//conversation/${id}>\n`);
    if (spawnSync('fish', ['--version']).status === 0) {
      const fished = spawnSync('fish', ['--no-config', '-c', `jp completion fish | source\ncomplete -C "jp q -a jp://conversation/${id.slice(0, 11)}"`], { cwd: ws, env: shellEnv, encoding: 'utf8' });
      expect(fished.stdout).toBe(`jp://conversation/${id}\tThe title-needle hunt\n`);
    }
  });
});

describe('search_conversations for MCP clients, through jp mcp serve', () => {
  async function connect(): Promise<Client> {
    const transport = new StdioClientTransport({ command: process.execPath, args: [JP_BIN, 'mcp', 'serve', '-w', ws], env: env as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'jp-grep-e2e', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  it('returns hits with resource links to their jp:// URIs, which the client can read', async () => {
    const client = await connect();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('search_conversations');
    const result = await client.callTool({ name: 'search_conversations', arguments: { pattern: 'query-needle', scope: 'user' } });
    const content = result.content as Array<{ type: string; text?: string; uri?: string }>;
    expect(result.isError).toBeFalsy();
    expect(content[0]!.text).toContain(`${id}:0:user:a query-needle to start`);
    const links = content.filter((block) => block.type === 'resource_link');
    expect(links.map((link) => link.uri)).toEqual([`jp://conversation/${id}/turn/0`]);
    const read = await client.readResource({ uri: links[0]!.uri! });
    expect((read.contents[0] as { text: string }).text).toContain('a query-needle to start');
  });

  it('answers a catastrophic pattern with an error result within 2 s, and goes on serving', async () => {
    const client = await connect();
    // A client-side time limit of 2 s: the call rejects if the server has not answered by then.
    const result = await client.callTool({ name: 'search_conversations', arguments: { pattern: '(a+)+$', regex: true } }, undefined, { timeout: 2000 });
    expect(result.isError).toBe(true);
    expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/ran for more than 1 s and was stopped/);
    const after = await client.callTool({ name: 'search_conversations', arguments: { pattern: 'nothing else' } }, undefined, { timeout: 10_000 });
    expect((after.content as Array<{ text: string }>)[0]!.text).toContain(`${other}:0:user:`);
  });
});

describe('a branch after a union merge (RFD 029)', { timeout: 120_000 }, () => {
  it('names the hit by the branch and its turn, which c show takes', async () => {
    const { git } = sandboxedGit('', { dir: home, env });
    const base = path.join(root, 'git');
    const origin = path.join(base, 'origin');
    mkdirSync(origin, { recursive: true });
    git(origin, 'init', '-q');
    await ok(['init', '--no-gitignore'], origin);
    const made = await ok(['-F', 'json', 'q', '-n', '-m', 'echo', 'q0'], origin);
    const shared = JSON.parse(made.trim().split('\n').at(-1)!).conversation as string;
    git(origin, 'add', '-A');
    git(origin, 'commit', '-qm', 'start');
    git(origin, 'checkout', '-q', '--detach');
    git(base, 'clone', '-q', origin, 'a');
    git(base, 'clone', '-q', origin, 'b');
    const [a, b] = [path.join(base, 'a'), path.join(base, 'b')];
    await ok(['q', '--id', shared, '-m', 'echo', 'on a'], a);
    await ok(['q', '--id', shared, '-m', 'echo', 'on b: branch-needle'], b);
    for (const clone of [a, b]) {
      git(clone, 'add', '-A');
      git(clone, 'commit', '-qm', path.basename(clone));
    }
    git(b, 'push', '-q', 'origin', 'HEAD:main');
    git(a, 'pull', '-q', '--no-edit', 'origin', 'main');
    expect(existsSync(path.join(a, '.jp', 'conversations', shared, 'events.jsonl'))).toBe(true);
    const lines = (await ok(['c', 'grep', '--scope', 'user', 'branch-needle'], a)).trimEnd().split('\n');
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^${shared}~[^:]+:1:user:on b: branch-needle$`))]);
    const [branch, turn] = lines[0]!.split(':');
    expect(await ok(['c', 'show', branch!, '--turn', turn!], a)).toContain('on b: branch-needle');
  });
});
