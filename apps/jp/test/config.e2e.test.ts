import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandaloneServer, type WireServer } from '@jp/test-server';
import { expectOneLineError, makeSandbox, readStoredEvents, runJp, turnsOf } from './helpers/run-jp.ts';

// Issue I through the built binary: a conversation's configuration is a three-way merge of the
// config files as they are now, the keys it set itself, and this command's -c; jp config set
// edits the file in place; syntax errors name file, line and column; -c can set one key of a
// configured server.

const EVERYTHING = path.join(path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const FEATURES = 'mcp+everything+demo://resource/static/document/features.md';
const SECRET = 'ghp_workspaceLiteral_5e6f7a8b';

const { root, home, env: sandboxEnv } = makeSandbox('jp-config-e2e-');
const ws = path.join(root, 'project');
const jpDir = path.join(ws, '.jp');
const userFile = path.join(home, '.config', 'jp', 'config.toml');
const env = { ...sandboxEnv, ANTHROPIC_API_KEY: 'sk-test-key' };
const jp = (args: string[], cwd = ws) => runJp(args, { cwd, env, timeoutMs: 60_000 });
const idOf = (stdout: string): string => JSON.parse(stdout.trim().split('\n').at(-1)!).conversation;
const deltasOf = (turn: Array<Record<string, any>>) => turn.filter((event) => event.type === 'config_delta');
const commentLines = (text: string) => text.split('\n').filter((line) => line.startsWith('#'));

let server: WireServer;
let initConfig = '';
/** A conversation that never set its model; one that set it with -m. */
let follows = '';
let pinned = '';

beforeAll(async () => {
  server = await startStandaloneServer();
  mkdirSync(ws, { recursive: true });
  expect((await jp(['init'])).code).toBe(0);
  initConfig = readFileSync(path.join(jpDir, 'config.toml'), 'utf8');
  expect((await jp(['config', 'set', 'assistant.model', 'echo'])).code).toBe(0);
  const a = await jp(['-F', 'json', 'query', '--new', 'a']);
  expect(a.code, a.stderr).toBe(0);
  follows = idOf(a.stdout);
  const p = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', 'a']);
  expect(p.code, p.stderr).toBe(0);
  pinned = idOf(p.stdout);
});

afterAll(async () => {
  await server?.close();
});

describe('edits to the config files reach existing conversations', { timeout: 60_000 }, () => {
  it('jp config set assistant.model: the next query of a conversation that never set it uses the new model', async () => {
    expect((await jp(['config', 'set', 'providers.anthropic.base_url', JSON.stringify(server.url)])).code).toBe(0);
    expect((await jp(['config', 'set', 'assistant.model', 'anthropic/claude-new'])).code).toBe(0);
    const result = await jp(['query', '--id', follows, 'b']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('ok 1\n');
    expect(server.requests.map((request) => (request.body as { model: string }).model)).toEqual(['claude-new']);
  });

  it('a conversation that set the key itself (-m) keeps its value', async () => {
    const result = await jp(['query', '--id', pinned, 'b']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^echo: 2 turns/);
    expect(server.requests).toHaveLength(1);
  });

  it('the change is recorded once, in the turn it reached, marked as coming from the files', async () => {
    const turns = turnsOf(readStoredEvents(ws, follows));
    expect(deltasOf(turns[1]!)).toEqual([
      {
        type: 'config_delta',
        timestamp: expect.any(String),
        source: 'files',
        delta: { assistant: { model: 'anthropic/claude-new' }, providers: { anthropic: { base_url: server.url } } },
      },
    ]);
    // The pinned conversation saw the same change: recorded there too, and its own -m still wins.
    expect(deltasOf(turnsOf(readStoredEvents(ws, pinned))[1]!).map((event) => event.source)).toEqual(['files']);
    const again = await jp(['query', '--id', follows, 'c']);
    expect(again.code, again.stderr).toBe(0);
    expect(deltasOf(turnsOf(readStoredEvents(ws, follows))[2]!)).toEqual([]);
  });

  it('conversation show prints it (text and JSON), and a fork that copies the turns has it', async () => {
    const text = await jp(['conversation', 'show', follows]);
    expect(text.stdout).toContain(`config changed in .jp/config.toml: {"assistant":{"model":"anthropic/claude-new"},"providers":{"anthropic":{"base_url":${JSON.stringify(server.url)}}}}`);
    const json = JSON.parse((await jp(['-F', 'json', 'conversation', 'show', follows])).stdout);
    expect(json.events.filter((event: { type: string }) => event.type === 'config_delta').map((event: { source?: string }) => event.source)).toEqual(['files']);
    const fork = JSON.parse((await jp(['-F', 'json', 'conversation', 'fork', follows])).stdout).id;
    expect(readStoredEvents(ws, fork)).toEqual(readStoredEvents(ws, follows));
    const shown = JSON.parse((await jp(['-F', 'json', 'config', 'show', '--id', fork])).stdout);
    expect(shown.config.assistant.model).toBe('anthropic/claude-new');
    expect(shown.sources['assistant.model']).toBe('workspace');
  });

  it('a fork without turns keeps what its source set as its own', async () => {
    const fork = JSON.parse((await jp(['-F', 'json', 'conversation', 'fork', pinned, '--no-turns'])).stdout).id;
    expect(readStoredEvents(ws, fork)).toEqual([{ type: 'config_delta', timestamp: expect.any(String), delta: { assistant: { model: 'echo' } } }]);
    const shown = JSON.parse((await jp(['-F', 'json', 'config', 'show', '--id', fork])).stdout);
    expect([shown.config.assistant.model, shown.sources['assistant.model']]).toEqual(['echo', 'conversation']);
    const result = await jp(['query', '--id', fork, 'fresh']);
    expect(result.stdout).toMatch(/^echo: 1 turn/);
  });

  it('an MCP server added to the workspace file after the conversation began is there', async () => {
    expect((await jp(['config', 'set', 'mcp.everything.command', JSON.stringify(process.execPath)])).code).toBe(0);
    expect((await jp(['config', 'set', 'mcp.everything.args', JSON.stringify([EVERYTHING, 'stdio'])])).code).toBe(0);
    const result = await jp(['query', '--id', pinned, '--attach', FEATURES, 'with features']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('resource demo://resource/static/document/features.md');
  });

  it('a secret value written into the workspace file by hand is used but never recorded', async () => {
    const file = path.join(jpDir, 'config.toml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n[mcp.gh]\ncommand = "gh-mcp"\nenv = { GH_TOKEN = "${SECRET}", GH_HOST = "\${GH_HOST}" }\n`);
    const result = await jp(['query', '--id', pinned, 'after the secret']);
    expect(result.code, result.stderr).toBe(0);
    const [delta] = deltasOf(turnsOf(readStoredEvents(ws, pinned)).at(-1)!);
    expect(delta).toMatchObject({ source: 'files', delta: { mcp: { gh: { command: 'gh-mcp', env: { GH_HOST: '${GH_HOST}' } } } } });
    for (const id of readdirSync(path.join(jpDir, 'conversations'))) {
      for (const name of ['events.jsonl', 'base-config.json']) expect(readFileSync(path.join(jpDir, 'conversations', id, name), 'utf8')).not.toContain(SECRET);
    }
  });

  it('jp config set kept every comment jp init wrote', () => {
    const written = readFileSync(path.join(jpDir, 'config.toml'), 'utf8');
    expect(commentLines(initConfig).length).toBeGreaterThan(3);
    expect(commentLines(written)).toEqual(commentLines(initConfig));
    expect(written.startsWith(initConfig.split('\n[assistant]\n')[0]!)).toBe(true);
  });
});

describe('jp config show --id: each value and where it came from', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    expect((await jp(['config', 'set', '--user', 'assistant.max_tokens', '777'])).code).toBe(0);
  });

  it('in text: one TOML line per key, its source in a comment', async () => {
    const result = await jp(['-c', 'assistant.max_tool_rounds=4', 'config', 'show', '--id', pinned]);
    expect(result.code, result.stderr).toBe(0);
    const line = (key: string) => result.stdout.split('\n').find((text) => text.startsWith(`${key} = `))?.replace(/\s+#/, '  #');
    expect(line('assistant.model')).toBe('assistant.model = "echo"  # conversation');
    expect(line('assistant.max_tokens')).toBe('assistant.max_tokens = 777  # user file');
    expect(line('mcp.everything.command')).toBe(`mcp.everything.command = ${JSON.stringify(process.execPath)}  # workspace file`);
    expect(line('assistant.max_tool_rounds')).toBe('assistant.max_tool_rounds = 4  # command line');
    expect(line('conversation.lock_timeout_secs')).toBe('conversation.lock_timeout_secs = 10  # default');
    expect(result.stdout).toContain(`# user file: ${userFile}\n`);
  });

  it('in JSON: the effective configuration, a source per key and the files', async () => {
    const shown = JSON.parse((await jp(['-F', 'json', '-c', 'assistant.max_tool_rounds=4', 'config', 'show', '--id', follows])).stdout);
    expect(shown.conversation).toBe(follows);
    expect(shown.config.assistant).toMatchObject({ model: 'anthropic/claude-new', max_tokens: 777, max_tool_rounds: 4 });
    expect(shown.sources).toMatchObject({
      'assistant.model': 'workspace',
      'assistant.max_tokens': 'user',
      'assistant.max_tool_rounds': 'invocation',
      'conversation.lock_timeout_secs': 'default',
    });
    expect(shown.files).toEqual({ user: userFile, workspace: path.join(jpDir, 'config.toml') });
  });
});

describe('-c can set one key of a configured server', { timeout: 60_000 }, () => {
  it('-c mcp.everything.startup_timeout_secs=30 (and several on one table) merge into the server the file defines', async () => {
    const cfg = ['-c', 'mcp.everything.startup_timeout_secs=30', '-c', 'mcp.everything.request_timeout_secs=20'];
    const shown = JSON.parse((await jp(['-F', 'json', ...cfg, 'config', 'show', '--id', pinned])).stdout);
    expect(shown.config.mcp.everything).toMatchObject({ command: process.execPath, startup_timeout_secs: 30, request_timeout_secs: 20 });
    expect(shown.sources['mcp.everything.startup_timeout_secs']).toBe('invocation');
    const result = await jp([...cfg, 'query', '--id', pinned, '--attach', FEATURES, 'again']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('resource demo://resource/static/document/features.md');
  });

  it('a server nobody defines: exit 2, one line naming the -c and the key that is missing', async () => {
    const result = await jp(['-c', 'mcp.nosuch.startup_timeout_secs=30', 'query', '--id', pinned, 'x']);
    expectOneLineError(result, 2, /^jp: invalid configuration in -c "mcp\.nosuch\.startup_timeout_secs=30": mcp\.nosuch\.command is missing \(mcp\.nosuch is set only in -c "mcp\.nosuch\.startup_timeout_secs=30"\)$/);
  });
});

describe('config set --user, config show outside a workspace', { timeout: 60_000 }, () => {
  it('writes the user file (made when missing, private) and shows it without a workspace', async () => {
    const { root: otherRoot, home: otherHome, env: otherEnv } = makeSandbox('jp-config-user-');
    const outside = path.join(otherRoot, 'elsewhere');
    mkdirSync(outside);
    const set = await runJp(['config', 'set', '--user', 'assistant.model', 'echo'], { cwd: outside, env: otherEnv });
    expect(set.code, set.stderr).toBe(0);
    const file = path.join(otherHome, '.config', 'jp', 'config.toml');
    expect(readFileSync(file, 'utf8')).toBe('[assistant]\nmodel = "echo"\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const shown = await runJp(['config', 'show'], { cwd: outside, env: otherEnv });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^assistant\.model = "echo"\s+# user file$/m);
    expect(shown.stdout).toContain('# workspace file: (none: not in a workspace)');
    expectOneLineError(await runJp(['config', 'set', 'assistant.model', 'echo'], { cwd: outside, env: otherEnv }), 2, /not inside a jp workspace/);
  });
});

describe('a TOML syntax error names the file, line and column', { timeout: 60_000 }, () => {
  it('in the workspace file and in the user file, text and JSON', async () => {
    const { root: badRoot, home: badHome, env: badEnv } = makeSandbox('jp-config-bad-');
    const project = path.join(badRoot, 'project');
    mkdirSync(project);
    expect((await runJp(['init'], { cwd: project, env: badEnv })).code).toBe(0);
    writeFileSync(path.join(project, '.jp', 'config.toml'), '[assistant]\nmodel "echo"\n');
    const query = await runJp(['query', '--new', '-m', 'echo', 'x'], { cwd: project, env: badEnv });
    expectOneLineError(query, 2, /^jp: \.jp\/config\.toml:2:7: illegal character in key; fix the file$/);
    const json = await runJp(['-F', 'json', 'config', 'show'], { cwd: project, env: badEnv });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'invalid_config', message: '.jp/config.toml:2:7: illegal character in key; fix the file' });

    writeFileSync(path.join(project, '.jp', 'config.toml'), '');
    const badUser = path.join(badHome, '.config', 'jp', 'config.toml');
    mkdirSync(path.dirname(badUser), { recursive: true });
    writeFileSync(badUser, 'x = 1\n\n[mcp.a\n');
    const show = await runJp(['config', 'show'], { cwd: project, env: badEnv });
    expectOneLineError(show, 2, new RegExp(`^jp: ${badUser.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:7: .+; fix the file$`));
    const set = await runJp(['config', 'set', '--user', 'assistant.model', 'echo'], { cwd: project, env: badEnv });
    expectOneLineError(set, 2, /:3:7: .+; fix the file$/);
    expect(readFileSync(badUser, 'utf8')).toBe('x = 1\n\n[mcp.a\n');
  });
});
