import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, readEvents, runJp, turnsOf } from './helpers/run-jp.ts';

// Tool servers as a query starts them: together, each failure kept to the calls that need it, and
// tools jp cannot call (task-only ones) left out of the offer.

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE_SERVER = path.resolve(here, '../../../packages/attachments/src/mcp/__fixtures__/fixture-server.mjs');
const EVERYTHING = path.join(path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

type Event = Record<string, any>;

const server = (name: string, args: string[], extra = '') =>
  `[mcp.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify(args)}\ntools = true\nrun = "unattended"\nstartup_timeout_secs = 20\n${extra}`;

/** The `start`/`ready` timestamps a fixture server wrote. */
function times(file: string): { start: number; ready: number } {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const at = (word: string) => Number(lines.find((line) => line.startsWith(`${word} `))!.split(' ')[1]);
  return { start: at('start'), ready: at('ready') };
}

describe('tool servers of a query', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  const jp = (args: string[]) => runJp(args, { cwd: ws, env, timeoutMs: 60_000 });
  const slowA = path.join(root, 'slow-a.times');
  const slowB = path.join(root, 'slow-b.times');

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    expect((await jp(['init'])).code).toBe(0);
    writeFileSync(
      path.join(ws, '.jp', 'config.toml'),
      [
        server('slowa', [FIXTURE_SERVER], `env = { FIXTURE_START_DELAY_MS = "2000", FIXTURE_TIMES_FILE = ${JSON.stringify(slowA)} }\n`),
        server('slowb', [FIXTURE_SERVER], `env = { FIXTURE_START_DELAY_MS = "2000", FIXTURE_TIMES_FILE = ${JSON.stringify(slowB)} }\n`),
        server('broken', [FIXTURE_SERVER, '--exit-on-init']),
      ].join('\n'),
    );
  });

  it('start together: each server is ready before the other has finished starting', async () => {
    const result = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--explain', 'x']);
    expect(result.code, result.stderr).toBe(0);
    const a = times(slowA);
    const b = times(slowB);
    // One after the other, the second would start after the first was ready.
    expect(b.start).toBeLessThan(a.ready);
    expect(a.start).toBeLessThan(b.ready);
  }, 60_000);

  it('a server that fails to start: one warning naming it and the fix; the other servers\' tools are offered and run', async () => {
    const explained = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--explain', 'x']);
    expect(explained.code, explained.stderr).toBe(0);
    const tools = JSON.parse(explained.stdout).request.tools as string[];
    expect(tools).toContain('mcp__slowa__readme_link');
    expect(tools.some((tool) => tool.startsWith('mcp__broken__'))).toBe(false);
    const warnings = explained.stderr.split('\n').filter((line) => line.includes('broken'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/"warning":"MCP server broken exited during startup with exit code 3.*its tools are not offered \(fix \[mcp\.broken\] in \.jp\/config\.toml, or set mcp\.broken\.tools = false\)/);

    const ran = await jp(['query', '--new', '-m', 'echo', '!tool mcp__slowa__readme_link {}']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(/^jp: warning: MCP server broken exited during startup/m);

    // --tool on another server starts only that server: no word about the broken one.
    const only = await jp(['query', '--new', '-m', 'echo', '--tool', 'mcp__slowb__readme_link', '!tool mcp__slowb__readme_link {}']);
    expect(only.code, only.stderr).toBe(0);
    expect(only.stderr).not.toContain('broken');
  }, 60_000);

  it('--tool naming a tool of the server that failed fails with that server\'s error', async () => {
    const result = await jp(['query', '--new', '-m', 'echo', '--tool', 'mcp__broken__readme_link', 'x']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^jp: MCP server broken exited during startup with exit code 3/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);

  it('annotations on text blocks of an MCP tool result are stored with them', async () => {
    const ran = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--tool', 'mcp__slowa__annotated_text', '!tool mcp__slowa__annotated_text {}']);
    expect(ran.code, ran.stderr).toBe(0);
    const id = JSON.parse(ran.stdout.trim().split('\n').at(-1)!).conversation as string;
    const response = turnsOf(readEvents(ws, id)).at(-1)!.find((event: Event) => event.type === 'tool_call_response');
    expect(response!.content).toEqual([
      { type: 'text', text: 'for the user', annotations: { audience: ['user'], priority: 0.9, lastModified: '2026-01-02T03:04:05Z' } },
      { type: 'text', text: 'plain' },
    ]);
  }, 60_000);

  it('a tool that requires task-based execution is not offered, and --tool says why', async () => {
    const explained = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--explain', 'x']);
    const tools = JSON.parse(explained.stdout).request.tools as string[];
    expect(tools).toContain('mcp__slowa__readme_link');
    expect(tools).not.toContain('mcp__slowa__task_only');
    const named = await jp(['query', '--new', '-m', 'echo', '--tool', 'mcp__slowa__task_only', 'x']);
    expect(named.code).toBe(2);
    expect(named.stderr).toBe(
      'jp: --tool mcp__slowa__task_only: MCP tool task_only on slowa is not offered: it requires task-based execution (execution.taskSupport = "required"), which jp does not support yet\n',
    );
  }, 60_000);
});

describe('server-everything\'s task-only tool', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  const jp = (args: string[]) => runJp(args, { cwd: ws, env, timeoutMs: 60_000 });

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    expect((await jp(['init'])).code).toBe(0);
    writeFileSync(path.join(ws, '.jp', 'config.toml'), server('everything', [EVERYTHING, 'stdio']));
  });

  it('simulate-research-query is left out, jp mcp ls says why; get-sum is offered and runs', async () => {
    const ls = await jp(['mcp', 'ls']);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toContain('  tool simulate-research-query not offered: it requires task-based execution (execution.taskSupport = "required"), which jp does not support yet\n');
    const explained = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--explain', 'x']);
    expect(explained.code, explained.stderr).toBe(0);
    const tools = JSON.parse(explained.stdout).request.tools as string[];
    expect(tools).toContain('mcp__everything__get-sum');
    expect(tools).not.toContain('mcp__everything__simulate-research-query');
    const ran = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '!tool mcp__everything__get-sum {"a":17,"b":25}']);
    expect(ran.code, ran.stderr).toBe(0);
    const id = JSON.parse(ran.stdout.trim().split('\n').at(-1)!).conversation as string;
    const response = turnsOf(readEvents(ws, id)).at(-1)!.find((event: Event) => event.type === 'tool_call_response');
    expect(response).toMatchObject({ isError: false, content: [{ type: 'text', text: expect.stringMatching(/(^|\D)42(\D|$)/) }] }); // 17 + 25: the sum, not an echo of either input
  }, 60_000);
});
