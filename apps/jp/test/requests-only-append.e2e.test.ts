import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createStrictServer, type StrictServer } from '@jp/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, runJp } from './helpers/run-jp.ts';

// Issue V through the binary, against the strict Anthropic stand-in on a preserved-thinking model
// (Claude Fable 5.1): it binds every thinking block it issues to the request prefix before it, and
// answers `diagnostics.cache_miss_reason` against the request `previous_message_id` names. The
// four situations of the issue, a --no-tool turn and an MCP server that stops starting, a stored
// conversation from before the rule, and the provider's verdict stored and shown.
const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE_SERVER = path.resolve(here, '../../../packages/attachments/src/mcp/__fixtures__/fixture-server.mjs');
const MODEL = 'anthropic/claude-fable-5-1';

type Event = Record<string, any>;

describe('requests that only append (issue V)', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  let server: StrictServer;
  beforeAll(async () => {
    server = await createStrictServer({ vendor: 'anthropic' });
    mkdirSync(ws, { recursive: true });
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
    writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    writeFileSync(path.join(ws, 'b.txt'), 'beta\n');
  });
  afterAll(async () => server.close());

  const jp = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    runJp(['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, ...args], { cwd: ws, env: { ...env, ANTHROPIC_API_KEY: 'k', ...extra } });
  const ok = async (args: string[]) => {
    const result = await jp(args);
    expect(result.code, result.stderr).toBe(0);
    return result;
  };
  const eventsOf = (id: string): Event[] => readFileSync(path.join(ws, '.jp', 'conversations', id, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const newConversation = async (args: string[]) => JSON.parse((await ok(['-F', 'json', 'query', '--new', '-m', MODEL, ...args])).stdout.trim().split('\n').at(-1)!).conversation as string;
  const calls = (id: string) => eventsOf(id).filter((event) => event.type === 'model_call');
  const bodiesSince = (start: number) => server.requests.slice(start).filter((request) => request.method === 'POST').map((request) => request.body as Event);

  it('a first attachment in turn 3 changes no tools: no tools_changed, the same tools bytes, nothing refused', async () => {
    const start = server.requests.length;
    const id = await newConversation(['hello']);
    await ok(['query', '--id', id, 'and more']);
    await ok(['query', '--id', id, '--attach', 'a.txt', 'now look at this']);
    expect(server.rejections).toEqual([]);
    expect(new Set(bodiesSince(start).map((body) => JSON.stringify(body.tools))).size).toBe(1);
    const verdicts = calls(id).map((call) => call.cache_miss?.reason ?? 'hit');
    expect(verdicts).toEqual(['hit', 'hit', 'hit']);
    // Every call after the first named the one before it.
    expect(bodiesSince(start).map((body) => body.diagnostics.previous_message_id)).toEqual([null, calls(id)[0]!.id, calls(id)[1]!.id]);
  });

  it('thinks, calls, thinks again and calls another: the answer goes back in that order and the next requests are accepted', async () => {
    const uri = pathToFileURL(path.join(ws, 'a.txt')).href;
    server.enqueueReply(
      { blocks: [{ type: 'thinking' }, { type: 'tool_use', id: 'toolu_1', name: 'refresh_resource', input: { uri } }, { type: 'thinking' }, { type: 'tool_use', id: 'toolu_2', name: 'refresh_resource', input: { uri } }], stopReason: 'tool_use' },
      { text: 'both read' },
    );
    const id = await newConversation(['--attach', 'a.txt', 'read it twice']);
    await ok(['query', '--id', id, 'and then?']);
    expect(server.rejections).toEqual([]);
    const stored = eventsOf(id).find((event) => event.type === 'chat_response' && event.opaque !== undefined)!;
    expect(stored.opaque.items.map((item: Event) => item.type)).toEqual(['thinking', 'jp_call', 'thinking', 'jp_call']);
  });

  it('a compaction, and a superseded snapshot stubbed, leave no stale thinking to refuse', async () => {
    const id = await newConversation(['--attach', 'a.txt', 'first']);
    await ok(['query', '--id', id, 'second']);
    await ok(['query', '--id', id, 'third']);
    const compact = await jp(['conversation', 'compact', id, '--keep-last', '1', '--resources', '--force']);
    expect(compact.code, compact.stderr).toBe(0);
    await ok(['query', '--id', id, 'after the compaction']);
    writeFileSync(path.join(ws, 'a.txt'), 'alpha, changed\n');
    await ok(['-c', 'conversation.history.superseded="omit"', 'query', '--id', id, '--attach', 'a.txt', 'read it again']);
    await ok(['-c', 'conversation.history.superseded="omit"', 'query', '--id', id, 'and after the stub']);
    expect(server.rejections).toEqual([]);
  });

  it('a --no-tool turn and an MCP server that stops starting leave tools as they were; calls to them are errors', async () => {
    const config = path.join(ws, '.jp', 'config.toml');
    const plain = readFileSync(config, 'utf8');
    appendFileSync(config, `\n[mcp.fixture]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(FIXTURE_SERVER)}]\ntools = ["readme_link"]\nrun = "unattended"\n`);
    try {
      const start = server.requests.length;
      const id = await newConversation(['hello']);
      await ok(['query', '--id', id, '--no-tool', 'mcp__fixture__readme_link', 'without it']);
      await ok(['query', '--id', id, 'with it again']);
      writeFileSync(config, `${plain}\n[mcp.fixture]\ncommand = "/nonexistent/jp-mcp-server"\ntools = ["readme_link"]\nrun = "unattended"\n`);
      const broken = await ok(['query', '--id', id, 'with the server gone']);
      expect(broken.stderr).toMatch(/fixture/);
      const bodies = bodiesSince(start);
      expect(bodies).toHaveLength(4);
      expect(new Set(bodies.map((body) => JSON.stringify(body.tools))).size).toBe(1);
      expect(bodies[0]!.tools.map((tool: Event) => tool.name)).toContain('mcp__fixture__readme_link');
      const note = (index: number) => JSON.stringify(bodies[index]!.messages.at(-1));
      expect(note(1)).toContain('Not available from this message on (a call returns an error): mcp__fixture__readme_link (not offered in this query).');
      expect(note(2)).toContain('Available again: mcp__fixture__readme_link.');
      expect(note(3)).toContain('mcp__fixture__readme_link (its MCP server fixture did not start)');
      expect(calls(id).map((call) => call.cache_miss?.reason ?? 'hit')).toEqual(['hit', 'hit', 'hit', 'hit']);
      expect(server.rejections).toEqual([]);
    } finally {
      writeFileSync(config, plain);
    }
  });

  it('a stored conversation from before the rule is sent with drop_block; the blocks the API dropped are recorded and shown', async () => {
    const id = await newConversation(['an old conversation']);
    // Made as a jp from before the rule would have left it: no fixed frame, and since then the
    // system prompt changed, so its thinking is bound to a prefix that no longer exists.
    const file = path.join(ws, '.jp', 'conversations', id, 'events.jsonl');
    const old = eventsOf(id).map(({ frame: _frame, ...event }) => event);
    writeFileSync(file, `${old.map((event) => JSON.stringify(event)).join('\n')}\n`);
    const start = server.requests.length;
    await ok(['-c', 'assistant.system_prompt="Be terse."', 'query', '--id', id, 'go on']);
    expect(server.rejections).toEqual([]);
    const [body] = bodiesSince(start);
    expect(body!.thinking).toMatchObject({ type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } });
    expect(server.requests.at(-1)!.headers['anthropic-beta']).toContain('thinking-binding-controls-2026-08-01');
    expect(calls(id).at(-1)!.dropped).toEqual([{ path: 'messages.1.content.0', reason: 'prefix_binding_mismatch' }]);
    expect(eventsOf(id).filter((event) => event.type === 'chat_request').at(-1)!.thinking_binding).toBe('drop_block');
    const shown = await ok(['conversation', 'show', id]);
    expect(shown.stdout).toContain('the provider dropped a thinking block at messages.1.content.0 (prefix_binding_mismatch)');
  });

  it("the provider's cache verdict is stored with the call, shown by c show and carried by -F json", async () => {
    const id = await newConversation(['hello']);
    const switched = await ok(['-F', 'json', 'query', '--id', id, '-m', 'anthropic/claude-opus-5-5', 'now you']);
    const line = switched.stdout.trim().split('\n').map((text) => JSON.parse(text)).find((event) => event.type === 'model_call');
    expect(line).toMatchObject({ provider: 'anthropic', model: 'claude-opus-5-5', cache_miss: { reason: 'model_changed' } });
    expect(calls(id).at(-1)!.cache_miss.reason).toBe('model_changed');
    const shown = await ok(['conversation', 'show', id]);
    expect(shown.stdout).toMatch(/cache miss \(model_changed\): the model differs from the previous request, [\d,]+ tokens not read from it/);
  });
});
