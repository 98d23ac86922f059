import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicTextStream,
  anthropicToolUseStream,
  createWireServer,
  openaiResponsesTextStream,
  openaiResponsesToolCallStream,
  type WireServer,
} from '@jp/test-server';
import { expectOneLineError, JP_BIN, makeSandbox, readEvents, runJp, turnsOf } from './helpers/run-jp.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPL = path.resolve(here, '../src/tools/stateful/__fixtures__/repl.mjs');
const STAGE = path.resolve(here, '../src/tools/stateful/__fixtures__/stage-tool.mjs');

type Event = Record<string, any>;
const responses = (turn: Event[]) => turn.filter((event) => event.type === 'tool_call_response');
const texts = (event: Event) => event.content.map((block: { text?: string }) => block.text ?? '').join('\n');
const status = (event: Event) => event._meta?.['computer.jp/status'];
const isGone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};
async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}
const statefulTool = (name: string, mode: string, extra = '') =>
  `[tools.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(REPL)}, ${mode}]\ndescription = "fixture: ${name}"\nstateful = "process"\nrun = "unattended"\n${extra}`;
const call = (tool: string, args: Record<string, unknown>) => `!tool ${tool} ${JSON.stringify(args)}`;

// Stateful tools through the binary, driven by the echo model's `!tool` lines: one line per
// round, so a query is a whole spawn → fetch → apply → … sequence within one turn.
describe('stateful tools through the binary', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  const pidFile = path.join(root, 'forever.pid');
  const jp = (args: string[]) => runJp(args, { cwd: ws, env, timeoutMs: 60_000 });
  const lastTurn = (id: string): Event[] => turnsOf(readEvents(ws, id)).at(-1)!;
  const query = async (lines: string[]) => {
    const result = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', lines.join('\n')]);
    expect(result.code, result.stderr).toBe(0);
    return { ...result, id: JSON.parse(result.stdout.trim().split('\n').at(-1)!).conversation as string };
  };

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    expect((await jp(['init'])).code).toBe(0);
    writeFileSync(
      path.join(ws, '.jp', 'config.toml'),
      [
        statefulTool('repl', '"repl"', 'timeout_secs = 40\n'),
        statefulTool('forever', `"forever", ${JSON.stringify(pidFile)}`, 'timeout_secs = 40\n'),
        statefulTool('spawn_only', '"repl"', 'actions = ["spawn", "abort"]\n'),
        `[tools.stage]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(STAGE)}]\ndescription = "fixture: a protocol tool"\nstateful = "protocol"\nrun = "unattended"\nparameters = { type = "object", properties = { scenario = { type = "string" } }, required = ["scenario"] }\n`,
        `[assistant]\nmax_tool_handles = 2\n`,
      ].join('\n'),
    );
  });

  it('spawn → fetch (prompt) → apply → fetch (echo) → apply quit → fetch (stopped, exit 0), each stored with its status', async () => {
    const { id } = await query([
      call('repl', { action: 'spawn', id: 'r' }),
      call('repl', { action: 'fetch', id: 'r', wait_ms: 10_000 }),
      call('repl', { action: 'apply', id: 'r', input: 'hello' }),
      call('repl', { action: 'fetch', id: 'r', wait_ms: 10_000 }),
      call('repl', { action: 'apply', id: 'r', input: 'quit' }),
      call('repl', { action: 'fetch', id: 'r', wait_ms: 10_000 }),
    ]);
    const results = responses(lastTurn(id));
    expect(results.map(status)).toEqual(['running', 'running', 'running', 'running', 'running', 'stopped']);
    expect(results.every((event) => event.isError === false)).toBe(true);
    expect(texts(results[1]!)).toContain('ready> ');
    expect(texts(results[3]!)).toContain('echo: hello\nready> ');
    expect(texts(results[5]!)).toContain('stopped (exit 0)');
    const fetches = [results[1]!, results[3]!, results[5]!].map(status);
    expect(fetches).toEqual(['running', 'running', 'stopped']);
    // The model saw the end: no turn-end note.
    expect(lastTurn(id).some((event) => String(event.id).startsWith('jp_turn_end_'))).toBe(false);
  });

  it('a handle left running at the end of the turn is killed with its process group, and a final note is stored', async () => {
    const { id } = await query([call('forever', { action: 'spawn', id: 'f' }), call('forever', { action: 'fetch', id: 'f', wait_ms: 10_000 })]);
    const pids = readFileSync(pidFile, 'utf8').trim().split(' ').slice(1).map(Number);
    expect(pids).toHaveLength(2);
    // The signal is sent before jp exits; its delivery may trail by a moment.
    await until(() => pids.every(isGone), 2000);
    expect(pids.filter((pid) => !isGone(pid))).toEqual([]);
    const turn = lastTurn(id);
    const note = responses(turn).at(-1)!;
    expect(note.id).toMatch(/^jp_turn_end_/);
    expect(status(note)).toBe('stopped');
    expect(texts(note)).toContain('jp stopped handle f at the end of the turn');
    expect(turn.find((event) => event.type === 'tool_call_request' && event.id === note.id)).toMatchObject({ name: 'forever', arguments: { action: 'abort', id: 'f' } });
    // The note sits before the final answer, which stays the turn's last event.
    expect(turn.at(-1)).toMatchObject({ type: 'chat_response' });
    expect(turn.indexOf(note)).toBe(turn.length - 2);
  });

  it('a protocol tool: its question for the model answered by apply, its question for the user answered by default off a terminal', async () => {
    const { id } = await query([
      call('stage', { action: 'spawn', id: 's', scenario: 'stage' }),
      call('stage', { action: 'apply', id: 's', input: 'start' }),
      call('stage', { action: 'apply', id: 's', input: 'n' }),
      call('stage', { action: 'fetch', id: 's', wait_ms: 10_000 }),
    ]);
    const results = responses(lastTurn(id));
    expect(results).toHaveLength(4);
    expect(status(results[0]!)).toBe('running');
    // The model's question arrives as a question block with the waiting status.
    expect(status(results[1]!)).toBe('waiting');
    expect(results[1]!.content.some((block: Event) => block.type === 'question' && block.question.id === 'hunk_1')).toBe(true);
    // The user's question (hunk_2) never reaches the model: jp answered it with its default.
    for (const event of results) expect(event.content.some((block: Event) => block.type === 'question' && block.question.id === 'hunk_2')).toBe(false);
    const last = results.at(-1)!;
    expect(status(last)).toBe('stopped');
    expect(last.isError).toBe(false);
    const commands = JSON.parse(/commands: (\[.*\])/.exec(results.map(texts).join('\n'))![1]!);
    expect(commands.slice(1)).toEqual([
      { action: 'apply', input: 'start' },
      { action: 'apply', id: 'hunk_1', input: 'n' },
      { action: 'apply', id: 'hunk_2', input: 'y' },
    ]);
  });

  it('bad input is a tool error the model reads, and the query still succeeds', async () => {
    const { id } = await query([
      call('repl', { action: 'explode', id: 'r' }),
      call('repl', { action: 'fetch', id: 'ghost' }),
      call('repl', { action: 'spawn', id: 'a' }),
      call('repl', { action: 'spawn', id: 'a' }),
      call('repl', { action: 'spawn', id: 'b' }),
      call('repl', { action: 'spawn', id: 'c' }),
      call('repl', { action: 'abort', id: 'b' }),
      call('repl', { action: 'fetch', id: 'b' }),
      call('spawn_only', { action: 'fetch', id: 'a' }),
      call('repl', { action: 'apply', id: 'a' }),
    ]);
    const results = responses(lastTurn(id));
    const [unknownAction, unknownHandle, first, duplicate, second, overLimit, abort, finished, undeclared, noInput] = results;
    expect(unknownAction).toMatchObject({ isError: true });
    expect(texts(unknownAction!)).toBe('tool repl: unknown action "explode"; use one of spawn, fetch, apply, abort');
    expect(texts(unknownHandle!)).toMatch(/no handle "ghost" of tool repl in this query/);
    expect(first).toMatchObject({ isError: false });
    expect(texts(duplicate!)).toMatch(/a handle with id "a" already exists/);
    expect(second).toMatchObject({ isError: false });
    expect(texts(overLimit!)).toMatch(/already has 2 handles/);
    expect(status(abort!)).toBe('stopped');
    expect(texts(finished!)).toMatch(/handle "b" has finished/);
    expect(texts(undeclared!)).toBe('tool spawn_only: unknown action "fetch"; use one of spawn, abort');
    expect(texts(noInput!)).toMatch(/apply needs "input"/);
    for (const event of [unknownAction, unknownHandle, duplicate, overLimit, finished, undeclared, noInput]) expect(event!.isError).toBe(true);
  });

  it('a stateful config jp cannot offer is one line on stderr, exit 2', async () => {
    const noSpawn = await runJp(['-c', `tools.half={command="x", description="d", stateful="process", actions=["fetch"]}`, 'query', '--new', '-m', 'echo', 'hi'], { cwd: ws, env });
    expectOneLineError(noSpawn, 2, /tools\.half\.actions must include "spawn"/);
  });

  it('Ctrl-C while a fetch waits: every handle is killed and jp exits 130', async () => {
    if (existsSync(pidFile)) writeFileSync(pidFile, '');
    const child = spawn(
      process.execPath,
      [JP_BIN, 'query', '--new', '-m', 'echo', [call('forever', { action: 'spawn', id: 'f' }), call('forever', { action: 'fetch', id: 'f', wait_ms: 30_000 }), call('forever', { action: 'fetch', id: 'f', wait_ms: 30_000 })].join('\n')],
      { cwd: ws, env, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    expect(await until(() => readFileSync(pidFile, 'utf8').includes(' '), 10_000)).toBe(true);
    const pids = readFileSync(pidFile, 'utf8').trim().split(' ').slice(1).map(Number);
    // Let the first fetch return and the second begin its wait.
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    await until(() => pids.every(isGone), 2000);
    expect(pids.filter((pid) => !isGone(pid))).toEqual([]);
  });
});

// The same loop over the vendors' wire formats: each round's result reaches the next request,
// and the tool definitions are the same bytes in every request of the loop.
describe('stateful tools over vendor wires', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  let server: WireServer;
  const steps: Array<Record<string, unknown>> = [
    { action: 'spawn', id: 'r' },
    { action: 'fetch', id: 'r', wait_ms: 10_000 },
    { action: 'apply', id: 'r', input: 'hello' },
    { action: 'fetch', id: 'r', wait_ms: 10_000 },
    { action: 'apply', id: 'r', input: 'quit' },
    { action: 'fetch', id: 'r', wait_ms: 10_000 },
  ];
  const storedStatuses = () => {
    const [id] = readFileSync(path.join(ws, '.jp', 'local', 'active'), 'utf8').trim().split('\n');
    return responses(turnsOf(readEvents(ws, id!)).at(-1)!).map(status);
  };

  beforeAll(async () => {
    server = await createWireServer();
    mkdirSync(ws, { recursive: true });
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
    writeFileSync(path.join(ws, '.jp', 'config.toml'), statefulTool('repl', '"repl"', 'parameters = { type = "object", properties = { greeting = { type = "string" } } }\n'));
  });

  afterAll(async () => {
    await server?.close();
  });

  it('anthropic: tool_results carry the output; the tools are byte-stable across the requests', async () => {
    const sent = server.requests.length;
    steps.forEach((input, i) => server.enqueue(anthropicToolUseStream({ id: `toolu_${i}`, name: 'repl', input })));
    server.enqueue(anthropicTextStream('done'));
    const result = await runJp(['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, 'query', '--new', '-m', 'anthropic/claude-test', 'drive the repl'], {
      cwd: ws,
      env: { ...env, ANTHROPIC_API_KEY: 'k' },
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('done\n');
    const bodies = server.requests.slice(sent).map((request) => request.body as { tools: Array<Record<string, any>>; messages: Array<{ role: string; content: Event[] }> });
    expect(bodies).toHaveLength(steps.length + 1);
    expect(new Set(bodies.map((body) => JSON.stringify(body.tools))).size).toBe(1);
    const schema = bodies[0]!.tools.find((tool) => tool.name === 'repl')!.input_schema;
    expect(schema.type).toBe('object');
    expect(schema.properties.action.oneOf.map((variant: { const: string }) => variant.const)).toEqual(['spawn', 'fetch', 'apply', 'abort']);
    expect(schema.properties.greeting).toEqual({ type: 'string' });
    const results = bodies.at(-1)!.messages.flatMap((message) => message.content.filter((block) => block.type === 'tool_result'));
    expect(results).toHaveLength(steps.length);
    expect(JSON.stringify(results[1])).toContain('ready> ');
    expect(JSON.stringify(results[3])).toContain('echo: hello');
    expect(JSON.stringify(results[5])).toContain('stopped (exit 0)');
    expect(storedStatuses()).toEqual(['running', 'running', 'running', 'running', 'running', 'stopped']);
  });

  it('openai (Responses): function_call_outputs carry the output; the tools are byte-stable across the requests', async () => {
    const sent = server.requests.length;
    steps.forEach((args, i) => server.enqueue(openaiResponsesToolCallStream({ id: `call_${i}`, name: 'repl', arguments: args })));
    server.enqueue(openaiResponsesTextStream('done'));
    const result = await runJp(['-c', `providers.openai.base_url=${JSON.stringify(`${server.url}/v1`)}`, 'query', '--new', '-m', 'openai/gpt-test', 'drive the repl'], {
      cwd: ws,
      env: { ...env, OPENAI_API_KEY: 'k' },
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('done\n');
    const bodies = server.requests.slice(sent).map((request) => request.body as { tools: unknown[]; input: Event[] });
    expect(bodies).toHaveLength(steps.length + 1);
    expect(new Set(bodies.map((body) => JSON.stringify(body.tools))).size).toBe(1);
    const outputs = bodies.at(-1)!.input.filter((item) => item.type === 'function_call_output');
    expect(outputs.map((item) => item.call_id)).toEqual(steps.map((_, i) => `call_${i}`));
    expect(outputs[1]!.output).toContain('ready> ');
    expect(outputs[3]!.output).toContain('echo: hello');
    expect(outputs[5]!.output).toContain('stopped (exit 0)');
    expect(storedStatuses()).toEqual(['running', 'running', 'running', 'running', 'running', 'stopped']);
  });
});
