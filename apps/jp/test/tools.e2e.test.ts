import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicTextStream,
  anthropicToolUseStream,
  openaiResponsesTextStream,
  openaiResponsesToolCallStream,
} from '@jp/test-server';
import { makeSandbox, readEvents, runJp, turnsOf } from './helpers/run-jp.ts';
import { wireWorkspace } from './helpers/wire-workspace.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const TOOL = path.resolve(here, '../src/tools/__fixtures__/fixture-tool.mjs');
const FIXTURE_SERVER = path.resolve(here, '../../../packages/attachments/src/mcp/__fixtures__/fixture-server.mjs');
const EVERYTHING = path.join(path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

type Event = Record<string, any>;
const lastTurn = (ws: string, id: string): Event[] => turnsOf(readEvents(ws, id)).at(-1)!;
const responses = (turn: Event[]) => turn.filter((event) => event.type === 'tool_call_response');

const toolConfig = (name: string, mode: string, run = 'unattended') =>
  `[tools.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(TOOL)}, "${mode}"]\ndescription = "fixture tool: ${mode}"\nrun = "${run}"\n`;

// The turn loop through the binary: the offline echo model calls tools when the query has
// `!tool <name> <json>` lines; the Anthropic- and OpenAI-shaped runs use local wire servers.
describe('tools through the binary', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  const file = path.join(ws, 'notes.txt');
  const uri = pathToFileURL(file).href;
  const jp = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => runJp(args, { cwd: ws, env: { ...env, ...extraEnv }, timeoutMs: 60_000 });
  let id = '';

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    writeFileSync(file, 'version one\n');
    expect((await jp(['init'])).code).toBe(0);
    writeFileSync(
      path.join(ws, '.jp', 'config.toml'),
      [
        toolConfig('fx_text', 'text'),
        toolConfig('fx_resources', 'resources'),
        toolConfig('fx_mixed', 'mixed'),
        toolConfig('fx_malformed', 'malformed'),
        toolConfig('fx_error', 'error-meta'),
        toolConfig('fx_raw', 'raw'),
        toolConfig('fx_question', 'question'),
        toolConfig('fx_question_nodefault', 'question-no-default'),
        toolConfig('fx_flood', 'flood'),
        toolConfig('fx_exit137', 'exit137'),
        toolConfig('fx_fake_json', 'fake-json'),
        `${toolConfig('fx_hang', 'hang')}timeout_secs = 0.5\n`,
        toolConfig('fx_guarded', 'text', 'ask'),
        `[mcp.fixture]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(FIXTURE_SERVER)}]\ntools = ["readme_link"]\nrun = "unattended"\n`,
        `[mcp.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\ntools = ["get-sum", "get-tiny-image"]\nrun = "unattended"\n`,
      ].join('\n'),
    );
    const first = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'notes.txt', 'read this']);
    expect(first.code, first.stderr).toBe(0);
    id = JSON.parse(first.stdout.trim().split('\n').at(-1)!).conversation;
  });

  it('refresh_resource: a changed file comes back whole, an unchanged one as a short reference', async () => {
    writeFileSync(file, 'version two\n');
    const changed = await jp(['query', `!tool refresh_resource {"uri":"${uri}"}`]);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toContain(`tool_result echo_1_0 ok`);
    expect(responses(lastTurn(ws, id))[0]).toMatchObject({ isError: false, content: [{ type: 'resource', resource: { uri, text: 'version two\n' } }] });

    const same = await jp(['query', `!tool refresh_resource {"uri":"${uri}"}`]);
    expect(same.code, same.stderr).toBe(0);
    expect(responses(lastTurn(ws, id))[0]!.content).toEqual([
      { type: 'text', text: `${uri} is unchanged since the snapshot returned by a tool in turn 1 (sha256 ${sha('version two\n')}).` },
    ]);
  });

  it('refresh_resource refuses /etc/passwd and external: URIs as tool errors, reading nothing', async () => {
    const result = await jp(['query', '!tool refresh_resource {"uri":"file:///etc/passwd"}\n!tool refresh_resource {"uri":"external:00/x.pdf"}']);
    expect(result.code, result.stderr).toBe(0);
    const [passwd, external] = responses(lastTurn(ws, id));
    expect(passwd).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/not a resource in this conversation/) }] });
    expect(external).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/cannot be refreshed/) }] });
    expect(JSON.stringify(readEvents(ws, id))).not.toMatch(/root:x:0:0/);
  });

  it('local tools: one result per RFD 058 case, stored as typed blocks', async () => {
    const names = ['fx_text', 'fx_resources', 'fx_mixed', 'fx_malformed', 'fx_error', 'fx_raw', 'fx_question', 'fx_question_nodefault'];
    const result = await jp(['query', names.map((name) => `!tool ${name} {}`).join('\n')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/tool fx_malformed: content block 1 \(resource\) is malformed/);
    const [text, resources, mixed, malformed, error, raw, question, unanswered] = responses(lastTurn(ws, id));
    expect(text).toMatchObject({ isError: false, content: [{ type: 'text', text: 'Check succeeded.' }] });
    expect(resources!.content[0]).toMatchObject({ type: 'resource', resource: { uri: pathToFileURL(path.join(ws, 'src/a.rs')).href } });
    expect(resources!.content[1]).toMatchObject({ type: 'resource', resource: { mimeType: 'image/png', blob: 'iVBORw0KGgo=' } });
    expect(mixed!.content.map((block: Event) => block.type)).toEqual(['text', 'resource', 'text']);
    expect(malformed).toMatchObject({ isError: false, content: [{ type: 'text', text: 'kept' }] });
    expect(error).toMatchObject({ isError: true, content: [{ text: 'File not found: foo.rs' }] });
    expect(raw).toMatchObject({ isError: false, content: [{ type: 'text', text: 'plain words, not JSON\n' }] });
    expect(question).toMatchObject({ isError: false, content: [{ type: 'text', text: 'applied=true' }] });
    expect(unanswered).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/no terminal.*no default/) }] });
  });

  it('tools that flood, die, lie or hang become error results; the turn goes on', async () => {
    const result = await jp(['query', '!tool fx_flood {}\n!tool fx_exit137 {}\n!tool fx_fake_json {}\n!tool fx_hang {}']);
    expect(result.code, result.stderr).toBe(0);
    const [flood, killed, fake, hang] = responses(lastTurn(ws, id));
    expect(flood).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/printed more than \d+ bytes/) }] });
    expect(killed).toMatchObject({ isError: true, content: [{ text: 'tool fx_exit137 was killed by SIGKILL' }] });
    expect(fake).toMatchObject({ isError: false, content: [{ type: 'text', text: expect.stringContaining('unterminated') }] });
    expect(hang).toMatchObject({ isError: true, content: [{ text: 'tool fx_hang did not finish within 0.5 s and was stopped' }] });
    expect(lastTurn(ws, id).at(-1)).toMatchObject({ type: 'chat_response' });
  });

  it('unknown tools and bad arguments are error results the model sees', async () => {
    const result = await jp(['query', '!tool no_such_tool {}\n!tool refresh_resource {"path":"x"}']);
    expect(result.code, result.stderr).toBe(0);
    const [unknown, invalid] = responses(lastTurn(ws, id));
    expect(unknown).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^unknown tool no_such_tool/) }] });
    expect(invalid).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^invalid arguments for refresh_resource/) }] });
  });

  it('an "ask" tool without a terminal is refused unless --allow-tools', async () => {
    const refused = await jp(['query', '!tool fx_guarded {}']);
    expect(responses(lastTurn(ws, id))[0]).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/needs confirmation.*--allow-tools/) }] });
    expect(refused.code).toBe(0);
    const allowed = await jp(['query', '--allow-tools', '!tool fx_guarded {}']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(responses(lastTurn(ws, id))[0]).toMatchObject({ isError: false, content: [{ text: 'Check succeeded.' }] });
  });

  it('--no-tool and --tool leave the offer as it is (issue V): the turn says what cannot be used, and a call to it is an error', async () => {
    const all = JSON.parse((await jp(['-F', 'json', 'query', '--explain', 'x'])).stdout).request.tools as string[];
    const without = await jp(['-F', 'json', 'query', '--explain', '--no-tool', 'fx_text', 'x']);
    expect(without.code, without.stderr).toBe(0);
    const explained = JSON.parse(without.stdout).request;
    expect(explained.tools).toEqual(all);
    expect(JSON.stringify(explained)).toContain('Not available from this message on (a call returns an error): fx_text (not offered in this query).');
    const only = await jp(['-F', 'json', 'query', '--explain', '--tool', 'fx_raw', 'x']);
    expect(JSON.parse(only.stdout).request.tools).toEqual(all);
    expect(only.stdout).toMatch(/Not available from this message on \(a call returns an error\): refresh_resource \(not offered in this query\), fx_text/);
    const refused = await jp(['query', '--no-tool', 'fx_text', '!tool fx_text {}']);
    expect(refused.code, refused.stderr).toBe(0);
    expect(responses(lastTurn(ws, id)).at(-1)).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('fx_text is not available in this turn (not offered in this query)') }] });
    const unknown = await jp(['query', '--tool', 'nope', 'x']);
    expect(unknown.code).toBe(2);
  });

  it('MCP tools: resource_link read through resources/read, images as blob resources', async () => {
    const result = await jp(['query', '!tool mcp__fixture__readme_link {}\n!tool mcp__everything__get-sum {"a":17,"b":25}\n!tool mcp__everything__get-tiny-image {}']);
    expect(result.code, result.stderr).toBe(0);
    const [link, sum, image] = responses(lastTurn(ws, id));
    expect(link).toMatchObject({ isError: false, content: [{ type: 'resource', resource: { uri: 'fixture://docs/readme', mimeType: 'text/markdown' } }] });
    expect(link!.content[0].resource).not.toHaveProperty('name');
    expect(sum).toMatchObject({ isError: false, content: [{ type: 'text', text: expect.stringMatching(/(^|\D)42(\D|$)/) }] }); // 17 + 25: the sum, not an echo of either input
    expect(image!.content.some((block: Event) => block.type === 'resource' && block.resource.mimeType === 'image/png' && typeof block.resource.blob === 'string')).toBe(true);
  });
});

describe('tool calls over vendor wires', () => {
  const { ws, env, server } = wireWorkspace({ 'main.rs': 'fn main() {}\n' });
  const file = path.join(ws, 'main.rs');
  const uri = pathToFileURL(file).href;

  it('anthropic: the refreshed file reaches the next request as a tool_result; the tool definition never changes', async () => {
    const jp = (args: string[]) =>
      runJp(['-c', `providers.anthropic.base_url=${JSON.stringify(server().url)}`, ...args], { cwd: ws, env: { ...env, ANTHROPIC_API_KEY: 'k' } });
    server().enqueue(anthropicTextStream('read it'));
    const first = await jp(['-F', 'json', 'query', '--new', '-m', 'anthropic/claude-test', '--attach', 'main.rs', 'look']);
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(file, 'fn main() { println!("hi"); }\n');
    server().enqueue(anthropicToolUseStream({ id: 'toolu_1', name: 'refresh_resource', input: { uri } }));
    server().enqueue(anthropicTextStream('it changed'));
    const second = await jp(['query', 'did it change?']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe('it changed\n');

    const bodies = server().requests.map((request) => request.body as { tools?: unknown[]; messages: Array<{ role: string; content: Event[] }> });
    expect(bodies).toHaveLength(3);
    const last = bodies[2]!.messages.at(-1)!;
    expect(last.role).toBe('user');
    const toolResult = last.content.find((block) => block.type === 'tool_result')!;
    expect(toolResult.tool_use_id).toBe('toolu_1');
    expect(JSON.stringify(toolResult.content)).toContain('println!(\\"hi\\")');
    const definitions = bodies.map((body) => JSON.stringify(body.tools));
    expect(new Set(definitions).size).toBe(1);
    expect(definitions[0]).toContain('refresh_resource');
  });

  it('openai (Responses): the tool result travels as function_call_output', async () => {
    const jp = (args: string[]) =>
      runJp(['-c', `providers.openai.base_url=${JSON.stringify(`${server().url}/v1`)}`, ...args], { cwd: ws, env: { ...env, OPENAI_API_KEY: 'k' } });
    const sent = server().requests.length;
    server().enqueue(openaiResponsesToolCallStream({ id: 'call_1', name: 'refresh_resource', arguments: { uri } }));
    server().enqueue(openaiResponsesTextStream('same as before'));
    const result = await jp(['query', '--new', '-m', 'openai/gpt-test', '--attach', 'main.rs', 'check']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('same as before\n');
    const second = server().requests[sent + 1]!.body as { input: Event[] };
    const output = second.input.find((item) => item.type === 'function_call_output')!;
    expect(output.call_id).toBe('call_1');
    expect(output.output).toMatch(/unchanged since the snapshot attached in turn 0/);
  });
});
