import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicErrorResponse, anthropicStreamEvents, anthropicTextStream, createWireServer, sseResponse, type WireServer } from '@jp/test-server';
import { FIXTURE_HOSTILE_TEXT } from '../../../packages/attachments/src/mcp/__fixtures__/fixture-server.mjs';
import { makeSandbox, readEvents, runJp } from './helpers/run-jp.ts';
import { runOnPty, type PtyResult } from './helpers/pty.ts';
import { stylesFor } from '../src/output/styles.ts';
import { renderStyles } from '../src/render/render-styles.ts';

// Text jp does not control — answers, reasoning, titles, file names, what tools and MCP servers
// say — printed to a REAL terminal: the built binary runs under `script` (util-linux), which gives
// it a pty for stdin, stdout and stderr, and everything the terminal would receive is captured.
// Untrusted text carries escape sequences (OSC 52, OSC 8, CSI 2J, OSC 0, their C1 forms, CR, a bidi
// override); none may arrive raw, each must arrive in its visible form. JSON and files keep the bytes.

const here = path.dirname(fileURLToPath(import.meta.url));
const TOOL = path.resolve(here, '../src/tools/__fixtures__/fixture-tool.mjs');
const MCP_FIXTURE = path.resolve(here, '../../../packages/attachments/src/mcp/__fixtures__/fixture-server.mjs');

const PAYLOAD = FIXTURE_HOSTILE_TEXT;
/** The payload as a terminal must show it (terminal-text.ts), written out by hand. */
const PAYLOAD_SHOWN =
  '\\x1b]52;c;cm0gLXJmIH4=\\x07 \\x1b]8;;https://evil.example/\\x07link\\x1b]8;;\\x07 \\x1b[2J \\x1b]0;owned\\x07 \\x9b2J \\x9d0;owned\\x9c \\x0dback \\u202eevil';

/** One escape each probe looks for: its raw form must not reach the terminal, its visible form must. */
const KINDS = {
  osc52: { raw: '\x1b]52;', shown: '\\x1b]52;c;cm0gLXJmIH4=\\x07' },
  osc8: { raw: '\x1b]8;', shown: '\\x1b]8;;https://evil.example/\\x07link' },
  csi2J: { raw: '\x1b[2J', shown: '\\x1b[2J' },
  osc0: { raw: '\x1b]0;', shown: '\\x1b]0;owned\\x07' },
  c1csi: { raw: '\u009b', shown: '\\x9b2J' },
  c1osc: { raw: '\u009d', shown: '\\x9d0;owned\\x9c' },
  cr: { raw: '\rback', shown: '\\x0dback' },
  bidi: { raw: '\u202e', shown: '\\u202eevil' },
} as const;
type Kind = keyof typeof KINDS;
const ALL = Object.keys(KINDS) as Kind[];
/** What survives JSON.stringify (which jp or the echo model applied before the text met the terminal). */
const AFTER_JSON: Kind[] = ['c1csi', 'c1osc', 'bidi'];

/** Anything a terminal acts on that is not `\n` or `\t`. */
const ACTIONABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * How many probes each test makes: 8 per surface carrying the whole payload; fewer where only some
 * kinds fit (an SSE line ends at CR: 6; a file name carries 3, a tool name 5 less the JSON-quoted);
 * the JSON-only and bookkeeping tests make none.
 */
const PROBES_PER_TEST: Record<string, number> = {
  "a streamed answer and streamed reasoning, every sequence split across deltas, are shown visibly": 8,
  "`conversation show` shows the stored answer, reasoning and title visibly": 8,
  "`conversation ls` shows the title visibly": 8,
  "stdout to a file gets the exact answer; reasoning and notes on the terminal are still shown visibly": 8,
  "an error quoting the provider shows its text visibly on one line; with -F json the message is exact": 8,
  "what a library logs about a server (the Anthropic SDK on an event that is not JSON) is told only with -v, and visibly": 6,
  "a note quoting the provider (a retry) shows its text visibly": 8,
  "the echo model repeating a query, and a tool name it was asked to call, are shown visibly": 5,
  "a warning quoting a tool's output is shown visibly": 8,
  "a file name with escapes: the progress line and `conversation show` show it visibly": 9,
  "the confirmation prompt quoting tool arguments shows them visibly": 3,
  "a tool's question and its choices are shown visibly; the answer is exact": 8,
  "`jp mcp ls`: a server name and version, and a failing server’s stderr, are shown visibly; JSON is exact": 16,
  "`jp mcp resources`: resource and template names are shown visibly; JSON is exact": 8,
  "an error quoting an MCP server’s stderr is shown visibly on one line": 8,
  "with colour on: untrusted text is still shown visibly, and the only escapes are jp's own SGR codes": 27,
};

let probes = 0;
/** Probes made by the running test, checked against PROBES_PER_TEST when it ends. */
let probesThisTest = 0;
/** Each kind in `kinds` is one probe: absent raw from what the terminal got, present visibly. */
function probe(surface: string, terminal: string, kinds: readonly Kind[]): void {
  for (const kind of kinds) {
    probes++;
    probesThisTest++;
    expect(terminal.includes(KINDS[kind].raw), `${surface}: raw ${kind} reached the terminal`).toBe(false);
    expect(terminal, `${surface}: ${kind} not shown`).toContain(KINDS[kind].shown);
  }
}

/**
 * The wait spinner (RFD 016) draws only when a model is slow to answer, which a loaded machine can
 * make the local server seem: its frames, each drawn with `\r ESC[2K` and erased the same way, are
 * jp's own and are taken out before anything is checked.
 */
const SPINNER = /(?:\r\x1b\[2K[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] waiting for [^\r\n\x1b]*)+\r\x1b\[2K/g;
const withoutSpinner = (terminal: string) => terminal.replace(SPINNER, '');

/**
 * The escape sequences jp's own styles emit, derived from its style tables (output/styles.ts and
 * the renderer's render/render-styles.ts, every entry applied to a marker) rather than listed by
 * hand. Each must be a plain SGR; nothing else that acts may reach the terminal (ACTIONABLE is the
 * independent list of C0/C1/DEL/bidi introducers), and none may sit inside an untrusted span (the
 * `shown` forms are checked contiguous).
 */
function jpStyleSequences(): string[] {
  const found = new Set<string>();
  const collect = (styled: string) => {
    for (const match of styled.matchAll(/\x1b[^X]*?(?=X|\x1b|$)/g)) found.add(match[0]);
  };
  for (const style of Object.values(stylesFor(true))) collect(style('X'));
  // The token kinds are the keys of the renderer's table, read from its source.
  const source = readFileSync(path.resolve(here, '../src/render/render-styles.ts'), 'utf8');
  const kinds = [...source.matchAll(/^\s+'?([\w.-]+)'?: c\./gm)].map((match) => match[1]!);
  const render = renderStyles(true);
  for (const [name, style] of Object.entries(render)) {
    if (name === 'token') for (const kind of kinds) collect(render.token(kind, 'X'));
    else for (const level of [1, 2, 3]) collect((style as (text: string, level: number) => string)('X', level));
  }
  return [...found];
}
const JP_SEQUENCES = jpStyleSequences();
const JP_SGR = new RegExp(JP_SEQUENCES.map((sequence) => sequence.replace(/[[\]\\^$.|?*+()]/g, '\\$&')).join('|'), 'g');

/**
 * The pty turns `\n` into `\r\n`; jp's own progress and retry lines erase themselves with
 * `\r ESC[2K`; with colour on, jp's own SGR codes style its text. Nothing else may act.
 */
function expectNothingActionable(terminal: string, options: { progress?: boolean; colour?: boolean } = {}): void {
  let text = withoutSpinner(terminal).replace(/\r\n/g, '\n');
  if (options.progress) text = text.replaceAll('\r\x1b[2K', '');
  if (options.colour) text = text.replace(JP_SGR, '');
  const found = ACTIONABLE.exec(text);
  expect(found === null ? null : `U+${found[0].codePointAt(0)!.toString(16)} at ${found.index}: ${JSON.stringify(text.slice(Math.max(0, found.index - 20), found.index + 20))}`).toBeNull();
}

const { root, env } = makeSandbox('jp-tty-e2e-');
const ws = path.join(root, 'project');
let server: WireServer;

/** The built jp on a real pty (`runOnPty`), 400 columns wide, talking to the local Anthropic server. */
function pty(args: string[], options: { answers?: Array<[marker: string, keys: string]>; stdoutFile?: string; env?: NodeJS.ProcessEnv } = {}): Promise<PtyResult> {
  return runOnPty(root, ['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, ...args], {
    cwd: ws,
    env: { ...(options.env ?? env), ANTHROPIC_API_KEY: 'sk-test' },
    ...(options.answers ? { answers: options.answers } : {}),
    ...(options.stdoutFile ? { stdoutFile: options.stdoutFile } : {}),
  });
}

const toml = (value: string) => JSON.stringify(value);
const toolConfig = (name: string, args: string[], run = 'unattended') =>
  `[tools.${name}]\ncommand = ${toml(process.execPath)}\nargs = [${[TOOL, ...args].map(toml).join(', ')}]\ndescription = "fixture tool"\nrun = "${run}"\n`;
const mcpConfig = (name: string, args: string[]) => `[mcp.${name}]\ncommand = ${toml(process.execPath)}\nargs = [${[MCP_FIXTURE, ...args].map(toml).join(', ')}]\n`;

/** A file whose name carries escapes (no `[`: that would make it a glob). */
const EVIL_FILE = 'f\x1b]0;owned\x07\u009b2J\u202eevil.txt';
const EVIL_FILE_SHOWN = 'f\\x1b]0;owned\\x07\\x9b2J\\u202eevil.txt';

/** `text` cut every 3 characters: every escape sequence of the payload is split across deltas. */
const inThrees = (text: string) => text.match(/[\s\S]{1,3}/g) ?? [];
const ANSWER = `A<${PAYLOAD}>A`;
const REASONING = `R<${PAYLOAD}>R`;
const hostileStream = () =>
  sseResponse(
    anthropicStreamEvents([
      { type: 'thinking', thinking: inThrees(REASONING) },
      { type: 'text', text: inThrees(ANSWER) },
    ]),
  );

beforeAll(async () => {
  server = await createWireServer();
  mkdirSync(ws, { recursive: true });
  expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
  writeFileSync(path.join(ws, EVIL_FILE), 'a file with a hostile name\n');
  writeFileSync(
    path.join(ws, '.jp', 'config.toml'),
    [
      toolConfig('fx_hostile', ['hostile', PAYLOAD]),
      toolConfig('fx_hostile_question', ['hostile-question', PAYLOAD]),
      toolConfig('fx_guarded', ['text'], 'ask'),
      mcpConfig('hostile', ['--hostile']),
      mcpConfig('hostilebroken', ['--exit-on-init', '--hostile']),
    ].join('\n'),
  );
}, 30_000);

afterAll(async () => {
  await server?.close();
});

// Each test runs the binary under a pty one to three times (an MCP server starts in some): no test
// waits on a clock, but a loaded machine gets room.
describe('untrusted text on a real terminal (script(1) pty)', { timeout: 30_000 }, () => {
  beforeEach(() => {
    probesThisTest = 0;
  });
  afterEach((context) => {
    // Each test makes exactly the probes it is known for: a surface dropped from a test fails it.
    expect(probesThisTest, context.task.name).toBe(PROBES_PER_TEST[context.task.name] ?? 0);
  });
  let conversation = '';

  it('a streamed answer and streamed reasoning, every sequence split across deltas, are shown visibly', async () => {
    server.enqueue(hostileStream());
    const result = await pty(['query', '--new', '-m', 'anthropic/claude-sonnet-4-6', '--show-reasoning', '--title', `T<${PAYLOAD}>T`, 'hello']);
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toContain(`A<${PAYLOAD_SHOWN}>A`);
    expect(result.terminal).toContain(`R<${PAYLOAD_SHOWN}>R`);
    probe('streamed answer + reasoning', result.terminal, ALL);
    expectNothingActionable(result.terminal);
    conversation = /new conversation (\S+)/.exec(result.terminal)?.[1] ?? '';
    expect(conversation).not.toBe('');
    // Stored exactly.
    const stored = readEvents(ws, conversation).filter((event) => event.type === 'chat_response');
    expect(stored.map((event) => event.reasoning ?? event.message)).toEqual([REASONING, ANSWER]);
  });

  it('`conversation show` shows the stored answer, reasoning and title visibly', async () => {
    const result = await pty(['conversation', 'show', conversation]);
    expect(result.code, result.terminal).toBe(0);
    // On a terminal the answer is rendered as Markdown, under its `assistant:` line (RFD 026).
    expect(result.terminal).toContain(`assistant:\r\nA<${PAYLOAD_SHOWN}>A`);
    expect(result.terminal).toContain(`assistant (reasoning): R<${PAYLOAD_SHOWN}>R`);
    expect(result.terminal).toContain(`T<${PAYLOAD_SHOWN}>T`);
    probe('conversation show', result.terminal, ALL);
    expectNothingActionable(result.terminal);
  });

  it('`conversation ls` shows the title visibly', async () => {
    const result = await pty(['conversation', 'ls']);
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toContain(`T<${PAYLOAD_SHOWN}>T`);
    probe('conversation ls', result.terminal, ALL);
    expectNothingActionable(result.terminal);
  });

  it('with -F json on the terminal: the exact text, as JSON escapes, nothing raw', async () => {
    const show = await pty(['-F', 'json', 'conversation', 'show', conversation]);
    const ls = await pty(['-F', 'json', 'conversation', 'ls']);
    server.enqueue(hostileStream());
    const query = await pty(['-F', 'json', 'query', '--new', '-m', 'anthropic/claude-sonnet-4-6', 'hello']);
    for (const result of [show, ls, query]) {
      expect(result.code, result.terminal).toBe(0);
      expectNothingActionable(result.terminal);
    }
    const lines = (result: PtyResult) => result.terminal.split('\r\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    const events = lines(show)[0].events as Array<Record<string, unknown>>;
    expect(events.filter((event) => event.type === 'chat_response').map((event) => event.reasoning ?? event.message)).toEqual([REASONING, ANSWER]);
    expect(lines(show)[0].title).toBe(`T<${PAYLOAD}>T`);
    expect(lines(ls)[0].conversations.map((c: { title: string | null }) => c.title)).toContain(`T<${PAYLOAD}>T`);
    const deltas = lines(query);
    expect(deltas.filter((line) => line.type === 'text_delta').map((line) => line.text).join('')).toBe(ANSWER);
    expect(deltas.filter((line) => line.type === 'reasoning_delta').map((line) => line.text).join('')).toBe(REASONING);
    expect(deltas.at(-1)).toMatchObject({ type: 'result', text: ANSWER });
  });

  it('stdout to a file gets the exact answer; reasoning and notes on the terminal are still shown visibly', async () => {
    const file = path.join(root, 'answer.txt');
    server.enqueue(hostileStream());
    const result = await pty(['query', '--new', '-m', 'anthropic/claude-sonnet-4-6', '--show-reasoning', 'hello'], { stdoutFile: file });
    expect(result.code, result.terminal).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(`${ANSWER}\n`);
    expect(result.terminal).toContain(`R<${PAYLOAD_SHOWN}>R`);
    expect(result.terminal).not.toContain('A<');
    probe('reasoning with stdout in a file', result.terminal, ALL);
    expectNothingActionable(result.terminal);
  });

  it('an error quoting the provider shows its text visibly on one line; with -F json the message is exact', async () => {
    server.enqueue(anthropicErrorResponse(400, { message: PAYLOAD }));
    const result = await pty(['query', '--new', '-m', 'anthropic/claude-sonnet-4-6', 'hello']);
    expect(result.code).toBe(3);
    const lines = withoutSpinner(result.terminal).split('\r\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^jp: /);
    expect(lines[0]).toContain(PAYLOAD_SHOWN);
    probe('provider error', result.terminal, ALL);
    expectNothingActionable(result.terminal);

    server.enqueue(anthropicErrorResponse(400, { message: PAYLOAD }));
    const json = await pty(['-F', 'json', 'query', '--new', '-m', 'anthropic/claude-sonnet-4-6', 'hello']);
    expect(json.code).toBe(3);
    expectNothingActionable(json.terminal);
    const error = JSON.parse(json.terminal.trim()).error;
    expect(error.message).toContain(PAYLOAD);
  });

  it('what a library logs about a server (the Anthropic SDK on an event that is not JSON) is told only with -v, and visibly', async () => {
    const [start] = anthropicStreamEvents([{ type: 'text', text: 'x' }]);
    server.enqueue(sseResponse([start!, { event: 'content_block_delta', data: `junk${PAYLOAD}` }]));
    const quiet = await pty(['query', '--new', '-m', 'anthropic/claude-sonnet-4-6', 'hello']);
    expect(quiet.code, quiet.terminal).not.toBe(0);
    expect(quiet.terminal).not.toContain('Could not parse message into JSON');
    server.enqueue(sseResponse([start!, { event: 'content_block_delta', data: `junk${PAYLOAD}` }]));
    const result = await pty(['-v', 'query', '--new', '-m', 'anthropic/claude-sonnet-4-6', 'hello']);
    expect(result.code, result.terminal).not.toBe(0);
    expect(result.terminal).toContain('Could not parse message into JSON');
    // An SSE line ends at CR: what follows `\r` in the payload is not part of the event.
    probe('SDK log of a server event', result.terminal, ['osc52', 'osc8', 'csi2J', 'osc0', 'c1csi', 'c1osc']);
    expectNothingActionable(result.terminal);
  });

  it('a note quoting the provider (a retry) shows its text visibly', async () => {
    server.enqueue(anthropicErrorResponse(429, { message: PAYLOAD, headers: { 'retry-after': '0' } }));
    server.enqueue(anthropicTextStream('fine'));
    const result = await pty(['query', '--new', '-m', 'anthropic/claude-sonnet-4-6', 'again']);
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toMatch(/retrying in/);
    probe('retry note', result.terminal, ALL);
    // The retry line is redrawn in place, and erased once the answer comes.
    expectNothingActionable(result.terminal, { progress: true });
  });

  it('the echo model repeating a query, and a tool name it was asked to call, are shown visibly', async () => {
    const query = `hi ${PAYLOAD}\n!tool x\x1b]0;owned\x07\x1b[2J`;
    const result = await pty(['query', '--new', '-m', 'echo', query]);
    expect(result.code, result.terminal).toBe(0);
    probe('echo answer (query, JSON-quoted by echo)', result.terminal, AFTER_JSON);
    probe('echo answer and note (tool name)', result.terminal, ['osc0', 'csi2J']);
    expectNothingActionable(result.terminal);
    const id = /new conversation (\S+)/.exec(result.terminal)?.[1] ?? '';
    expect(readEvents(ws, id).find((event) => event.type === 'chat_request')?.content).toBe(query);
  });

  it("a warning quoting a tool's output is shown visibly", async () => {
    const result = await pty(['query', '--new', '-m', 'echo', '!tool fx_hostile {}']);
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toContain(`jp: warning: tool fx_hostile: content block 0 (kind${PAYLOAD_SHOWN})`);
    probe('tool warning', result.terminal, ALL);
    expectNothingActionable(result.terminal);
  });

  it('a file name with escapes: the progress line and `conversation show` show it visibly', async () => {
    const result = await pty(['query', '--new', '-m', 'echo', '--attach', EVIL_FILE, 'x']);
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toContain(EVIL_FILE_SHOWN);
    probe('resolution progress line', result.terminal, ['osc0', 'c1csi', 'bidi']);
    expectNothingActionable(result.terminal, { progress: true });
    const id = /new conversation (\S+)/.exec(result.terminal)?.[1] ?? '';
    const show = await pty(['conversation', 'show', id]);
    expect(show.terminal).toContain(`resource ${EVIL_FILE_SHOWN}`);
    probe('conversation show (resource name)', show.terminal, ['osc0', 'c1csi', 'bidi']);
    expectNothingActionable(show.terminal);
    const ls = await pty(['attachment', 'ls', '--id', id]);
    probe('attachment ls (resource name)', ls.terminal, ['osc0', 'c1csi', 'bidi']);
    expectNothingActionable(ls.terminal);
  });

  it('the confirmation prompt quoting tool arguments shows them visibly', async () => {
    const args = JSON.stringify({ path: PAYLOAD });
    const result = await pty(['query', '--new', '-m', 'echo', `!tool fx_guarded ${args}`], { answers: [['Run tool fx_guarded', '\r']] });
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toContain('tool_result echo_0_0 ok');
    // Arguments are quoted as JSON (C0 is escaped by JSON itself); the rest is made visible.
    probe('tool confirmation prompt', result.terminal, AFTER_JSON);
    for (const kind of ALL) expect(result.terminal.includes(KINDS[kind].raw), kind).toBe(false);
  });

  it("a tool's question and its choices are shown visibly; the answer is exact", async () => {
    const result = await pty(['query', '--new', '-m', 'echo', '!tool fx_hostile_question {}'], { answers: [['Pick one', '\r']] });
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toContain(`Pick one${PAYLOAD_SHOWN}`);
    expect(result.terminal).toContain(`evil${PAYLOAD_SHOWN}`);
    probe('tool question prompt', result.terminal, ALL);
    const id = /new conversation (\S+)/.exec(result.terminal)?.[1] ?? '';
    const response = readEvents(ws, id).find((event) => event.type === 'tool_call_response');
    expect(response?.content).toEqual([{ type: 'text', text: 'picked "plain"' }]);
  });

  it('`jp mcp ls`: a server name and version, and a failing server’s stderr, are shown visibly; JSON is exact', async () => {
    const result = await pty(['mcp', 'ls']);
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toContain(`hostile: ok, jp-fixture${PAYLOAD_SHOWN} 1.0.0${PAYLOAD_SHOWN}`);
    probe('mcp ls (server info)', result.terminal.split('hostilebroken')[0]!, ALL);
    const broken = result.terminal.split('\r\n').find((line) => line.startsWith('hostilebroken: failed'));
    expect(broken).toBeDefined();
    probe('mcp ls (failing server stderr)', broken!, ALL);
    expectNothingActionable(result.terminal);

    const json = await pty(['-F', 'json', 'mcp', 'ls']);
    expectNothingActionable(json.terminal);
    const servers = JSON.parse(json.terminal.trim()).servers as Array<Record<string, any>>;
    expect(servers.find((s) => s.name === 'hostile')?.serverInfo).toEqual({ name: `jp-fixture${PAYLOAD}`, version: `1.0.0${PAYLOAD}`, title: `jp MCP fixture${PAYLOAD}` });
    expect(servers.find((s) => s.name === 'hostilebroken')?.error).toContain(PAYLOAD);
  });

  it('`jp mcp resources`: resource and template names are shown visibly; JSON is exact', async () => {
    const result = await pty(['mcp', 'resources', 'hostile']);
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toContain(`evil${PAYLOAD_SHOWN} (Evil${PAYLOAD_SHOWN})`);
    expect(result.terminal).toContain(`evil-template${PAYLOAD_SHOWN} (Evil template${PAYLOAD_SHOWN})`);
    probe('mcp resources', result.terminal, ALL);
    expectNothingActionable(result.terminal);

    const json = await pty(['-F', 'json', 'mcp', 'resources', 'hostile']);
    expectNothingActionable(json.terminal);
    const listing = JSON.parse(json.terminal.trim());
    expect(listing.resources.find((r: { uri: string }) => r.uri === 'fixture://evil')).toMatchObject({ name: `evil${PAYLOAD}`, title: `Evil${PAYLOAD}` });
  });

  it('an error quoting an MCP server’s stderr is shown visibly on one line', async () => {
    const result = await pty(['mcp', 'resources', 'hostilebroken']);
    expect(result.code).toBe(4);
    const lines = result.terminal.split('\r\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^jp: MCP server hostilebroken/);
    probe('mcp error (server stderr)', result.terminal, ALL);
    expectNothingActionable(result.terminal);
  });

  it('with colour on: untrusted text is still shown visibly, and the only escapes are jp\'s own SGR codes', async () => {
    const coloured: NodeJS.ProcessEnv = { ...env };
    delete coloured.NO_COLOR;
    const show = await pty(['conversation', 'show', conversation], { env: coloured });
    const ls = await pty(['conversation', 'ls'], { env: coloured });
    server.enqueue(anthropicErrorResponse(400, { message: PAYLOAD }));
    const error = await pty(['query', '--new', '-m', 'anthropic/claude-sonnet-4-6', 'hello'], { env: coloured });
    const query = await pty(['query', '--new', '-m', 'echo', '--attach', EVIL_FILE, 'x'], { env: coloured });
    const id = /new conversation (\S+)/.exec(query.terminal)?.[1] ?? '';
    const attachments = await pty(['attachment', 'ls', '--check', '--id', id], { env: coloured });
    for (const result of [show, ls, attachments]) expect(result.code, result.terminal).toBe(0);
    expect(error.code).toBe(3);
    for (const result of [show, ls, error, attachments]) expect(result.terminal).toMatch(JP_SGR);
    expect(show.terminal).toContain(`A<${PAYLOAD_SHOWN}>A`);
    expect(error.terminal).toContain(`\x1b[1m\x1b[31mjp:\x1b[39m\x1b[22m `);
    probe('conversation show, coloured', show.terminal, ALL);
    probe('conversation ls, coloured', ls.terminal, ALL);
    probe('provider error, coloured', error.terminal, ALL);
    probe('attachment ls, coloured (resource name)', attachments.terminal, ['osc0', 'c1csi', 'bidi']);
    for (const result of [show, ls, error, attachments]) expectNothingActionable(result.terminal, { colour: true });
  });

  it("jp's own sequences, read from its style tables, are SGR codes only", () => {
    expect(JP_SEQUENCES.length).toBeGreaterThanOrEqual(10);
    for (const sequence of JP_SEQUENCES) expect(JSON.stringify(sequence)).toMatch(/^"\\u001b\[\d+(;\d+)*m"$/);
    // The colour checks strip exactly these: an OSC or a cursor move is not among them.
    expect('\x1b]8;;x\x07\x1b[2J\x1b[H'.replace(JP_SGR, '')).toBe('\x1b]8;;x\x07\x1b[2J\x1b[H');
  });

  it('counts the probes: every test ran and made its own', () => {
    // 15 surfaces with all 8 kinds, 20 probes where JSON quoting had already taken care of C0 or a
    // file name carries 3 kinds, and 6 in an SSE line (which ends at CR). A probe that fails fails
    // its test; this total catches a test that did not run (its own count is checked after it).
    expect(probes).toBe(15 * 8 + 20 + 6);
    console.log(`terminal escapes: ${probes} probes, each neutralised`);
  });
});

/*
 * `jp chat` on the same real pty: Tab completion prints file names (readline writes candidates and
 * inserts the chosen one exactly as given), the banner names the conversation's title, a message
 * written with /edit is echoed, answers and tool names come from the model, `/ls` lists names.
 * readline draws the prompt with cursor moves of its own; those, and only those, are allowed.
 */
describe('jp chat on a real terminal (script(1) pty)', { timeout: 60_000 }, () => {
  /** The issue's file name, and two sharing a prefix (a second Tab lists both). */
  const ISSUE_FILE = 'a\x1b]0;owned\x07.txt';
  const LISTED = ['h\x1b]0;one\x07\u009b2J.txt', 'h\x1b]0;two\x07\u202eevil.txt'];
  const shownName = (name: string) => name.replace('\x1b', '\\x1b').replace('\x07', '\\x07').replace('\u009b', '\\x9b').replace('\u202e', '\\u202e');
  /** What readline itself writes while a line is edited and completed: cursor moves, line erases, paste mode. */
  const READLINE = /\x1b\[(?:\d*[ABCDG]|0?[JK]|\?2004[hl])/g;

  it('completion, the banner, an edited message, answers, tool names and /ls show untrusted text visibly', async () => {
    mkdirSync(path.join(ws, 'hostile'), { recursive: true });
    for (const name of [ISSUE_FILE, ...LISTED]) writeFileSync(path.join(ws, 'hostile', name), `${name.length} characters\n`);
    const message = path.join(root, 'chat-message.txt');
    writeFileSync(message, `hi ${PAYLOAD}\n!tool x\x1b]0;owned\x07\x1b[2J`);
    const editor = path.join(root, 'chat-editor.sh');
    writeFileSync(editor, `#!/bin/sh\ncp '${message}' "$1"\n`);
    chmodSync(editor, 0o755);
    const created = await runJp(['query', '-n', '-m', 'echo', '--title', `T<${PAYLOAD}>T`, 'hi'], { cwd: ws, env });
    expect(created.code, created.stderr).toBe(0);
    const id = /new conversation (\S+)/.exec(created.stderr)![1]!;
    server.enqueue(hostileStream());

    const result = await pty(['chat', '--id', id, '-m', 'echo'], {
      env: { ...env, EDITOR: editor, XDG_STATE_HOME: path.join(root, 'state') },
      answers: [
        ['Ctrl-D leaves', '/attach hostile/a\t'],
        [`${shownName(ISSUE_FILE)} `, '\r'],
        // A Tab is a completion only as the last key of what arrives at once: the second one is sent on its own.
        ['resolved into the next query', '/attach hostile/h\t'],
        ['hostile/h\\x1b]0;', '\t'],
        [shownName(LISTED[1]!), '\x15/ls\r'],
        ['resolved at the next query', '/edit\r'],
        ['tool_result', '/model anthropic/claude-test\r'],
        ['answers from the next message on', 'hello\r'],
        ['>A', '\x04'],
      ],
    });
    expect(result.code, result.terminal).toBe(0);
    const terminal = withoutSpinner(result.terminal);
    // The banner names the title; completion inserted the visible name, which /attach read back.
    expect(terminal).toContain(`(“T<${PAYLOAD_SHOWN}>T”)`);
    expect(terminal).toContain(`added hostile/${shownName(ISSUE_FILE)} (resolved into the next query)`);
    for (const name of LISTED) expect(terminal).toContain(shownName(name));
    // The edited message, the echo model's answer quoting it and the tool it was asked to call.
    expect(terminal).toContain(`jp> hi ${PAYLOAD_SHOWN}`);
    expect(terminal).toContain('x\\x1b]0;owned\\x07\\x1b[2J');
    expect(terminal).toContain(`A<${PAYLOAD_SHOWN}>A`);
    for (const kind of ALL) expect(terminal.includes(KINDS[kind].raw), `raw ${kind} reached the terminal`).toBe(false);
    // readline ends a line with `\r\n` of its own, which the pty makes `\r\r\n`.
    expectNothingActionable(terminal.replace(READLINE, '').replace(/\r+\n/g, '\n'), { progress: true });
    // The declaration is the real file: /attach read the visible form back to its name.
    expect(readEvents(ws, id).some((event) => JSON.stringify(event).includes(JSON.stringify(`hostile/${ISSUE_FILE}`).slice(1, -1)))).toBe(true);
  });
});
